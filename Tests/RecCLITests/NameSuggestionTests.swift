import Testing

@testable import RecCLI
@testable import RecClient
import TestPool

@Suite("Nearest-name suggestions", .blocking)
struct NameSuggestionTests {
    @Test("Edit distance", arguments: [
        ("", "abc", 3), ("abc", "abc", 0), ("souce", "source", 1), ("recrod", "record", 2), ("kitten", "sitting", 3),
    ])
    func editDistance(_ a: String, _ b: String, _ distance: Int) {
        #expect(NameSuggestion.editDistance(a, b) == distance)
        #expect(NameSuggestion.editDistance(b, a) == distance)
    }

    @Test("Suggestions", arguments: [
        ("souce", "source"), ("recrod", "record"), ("jsno", "json"), ("dur", "duration"), ("shwo", "show"),
    ])
    func suggests(_ typo: String, _ expected: String) {
        let names = ["source", "record", "json", "duration", "show", "size", "session"]
        #expect(NameSuggestion.nearest(to: typo, in: names) == expected)
    }

    @Test("No suggestion when nothing is near", arguments: ["xyz", "s", "banana", "frobnicate"])
    func noSuggestion(_ typo: String) {
        #expect(NameSuggestion.nearest(to: typo, in: ["source", "size", "session", "to"]) == nil)
    }
}
