import Testing
import RecCore

@Suite("SessionName")
struct SessionNameTests {
    @Test("valid names", arguments: ["default", "cam-1", "a", "A.b_c-9", String(repeating: "x", count: 64)])
    func valid(name: String) throws {
        #expect(try SessionName.validate(name) == name)
    }

    @Test("invalid names are usage errors", arguments: [
        "", ".", "..", "a/b", "a b", "naïve", "x\n", String(repeating: "x", count: 65), "../etc",
    ])
    func invalid(name: String) {
        #expect(throws: RecError.self) { try SessionName.validate(name) }
        #expect(!SessionName.isValid(name))
        do {
            try SessionName.validate(name)
        } catch {
            #expect(error.code == .usage)
        }
    }

    @Test("start hint names the session unless it is the default")
    func startHint() {
        #expect(SessionName.startCommand(for: "default") == "rec start")
        #expect(SessionName.startCommand(for: "cam2") == "rec start --session cam2")
    }
}

@Suite("PeerPolicy")
struct PeerPolicyTests {
    @Test("the owner's uid is allowed")
    func sameUID() {
        #expect(PeerPolicy(allowedUID: 1000).check(peerUID: 1000) == nil)
    }

    @Test("any other uid, root included, is refused with a message naming both", arguments: [UInt32(0), 1001, 65534])
    func otherUID(peer: UInt32) throws {
        let error = try #require(PeerPolicy(allowedUID: 1000).check(peerUID: peer))
        #expect(error.code == .runtime)
        #expect(error.message.contains("uid 1000"))
        #expect(error.message.contains("uid \(peer)"))
    }
}
