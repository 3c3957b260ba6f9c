import Testing
import RecCore

/// The admission policy, without sockets or threads.
@Suite("ClientSlots")
struct ClientSlotsTests {
    static func admitted(_ admission: ClientSlots.Admission) -> (id: UInt64, evicting: UInt64?)? {
        if case .admitted(let id, let evicting) = admission { return (id, evicting) }
        return nil
    }

    @Test("a full set of idle clients makes room by evicting the one idle longest")
    func evictsOldestIdle() throws {
        var slots = ClientSlots(limits: .init(maxClients: 3, maxSlowRequests: 2), session: "s")
        let ids = (0..<3).compactMap { _ in Self.admitted(slots.admit())?.id }
        #expect(ids == [1, 2, 3])
        // Client 1 answers a request and so becomes the newest idle one: 2 is now the oldest.
        #expect(slots.begin(1, slow: false) == nil)
        slots.end(1)
        let fourth = try #require(Self.admitted(slots.admit()))
        #expect(fourth.evicting == 2)
        #expect(slots.count == 3)
        #expect(slots.activity(of: 2) == nil)
    }

    @Test("busy clients are never evicted; when all are busy a newcomer is refused with a reason")
    func refusesWhenAllBusy() {
        var slots = ClientSlots(limits: .init(maxClients: 2, maxSlowRequests: 2), session: "s")
        for _ in 0..<2 { _ = slots.admit() }
        #expect(slots.begin(1, slow: true) == nil)
        #expect(slots.begin(2, slow: false) == nil)
        guard case .refused(let error) = slots.admit() else {
            Issue.record("admitted a client with every slot busy")
            return
        }
        #expect(error.code == .runtime && error.message.contains("try again"))
        slots.remove(2)
        #expect(Self.admitted(slots.admit())?.evicting == nil)
    }

    @Test("slow requests are bounded below the client limit, so status always gets in")
    func slowRequestsLeaveRoom() {
        var slots = ClientSlots(limits: .init(maxClients: 4, maxSlowRequests: 3), session: "s")
        for _ in 0..<4 { _ = slots.admit() }
        for id in UInt64(1)...3 { #expect(slots.begin(id, slow: true) == nil) }
        let refusal = slots.begin(4, slow: true)
        #expect(refusal?.message.contains("3 clips") == true)
        #expect(slots.activity(of: 4) == .idle)
        // A status on a new connection evicts idle client 4 and is admitted.
        #expect(Self.admitted(slots.admit())?.evicting == 4)
        slots.end(1)
        #expect(slots.begin(5, slow: true) == nil)
    }

    @Test("the slow limit never exceeds the client limit")
    func limitsAreClamped() {
        #expect(ClientSlots.Limits(maxClients: 2, maxSlowRequests: 9).maxSlowRequests == 2)
    }
}
