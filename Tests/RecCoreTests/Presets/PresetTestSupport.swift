import Testing
@testable import RecCore

/// Parses a user preset named "mine" from "/p/mine.json".
func parseMine(_ json: String) throws(RecError) -> Preset {
    try Preset.parse(json, name: "mine", origin: "/p/mine.json")
}

/// Expects parsing to fail with a usage error about "mine" whose message contains `message`.
func expectRefusal(_ json: String, saying message: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(sourceLocation: sourceLocation) {
        _ = try parseMine(json)
    } throws: { error in
        guard let e = error as? RecError else { return false }
        let ok = e.code == .usage && e.location == "/p/mine.json"
            && e.message.hasPrefix("preset 'mine' (/p/mine.json)") && e.message.contains(message)
        if !ok { Issue.record("got: \(e.message)", sourceLocation: sourceLocation) }
        return ok
    }
}
