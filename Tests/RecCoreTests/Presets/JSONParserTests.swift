import Testing
@testable import RecCore

@Suite("JSONParser")
struct JSONParserTests {
    @Test func parsesNestedValuesKeepingKeyOrder() throws {
        let value = try JSONParser.parse(#"{"b": [1, -2.5e1, true, null], "a": {"x": "y\n\u00e9\ud83d\ude00"}}"#)
        guard case .object(let members) = value else { Issue.record("not an object"); return }
        #expect(members.map(\.key) == ["b", "a"])
        #expect(value["b"] == .array([.number(1), .number(-25), .bool(true), .null]))
        #expect(value["a"]?["x"] == .string("y\né😀"))
    }

    @Test(arguments: [
        ("{\n  \"a\": 1,\n}", 3, 1, "no comma after the last member"),
        ("{\n  \"a\": 1\n  \"b\": 2\n}", 3, 3, "expected ',' or '}'"),
        ("{\"a\": tru}", 1, 7, "strings need double quotes"),
        ("{\"a\": 1, \"a\": 2}", 1, 10, "duplicate key \"a\""),
        ("{\"a\": 01}", 1, 7, "cannot start with 0"),
        ("{\"a\": \"x", 1, 9, "ends inside a string"),
        ("{} {}", 1, 4, "after the end"),
        ("[1, 2,]", 1, 7, "no comma after the last item"),
        ("{\"é\": x}", 1, 7, "expected a value"),
    ])
    func reportsWhereTheTextIsWrong(text: String, line: Int, column: Int, message: String) {
        #expect {
            _ = try JSONParser.parse(text)
        } throws: { error in
            guard let e = error as? JSONSyntaxError else { return false }
            return e.line == line && e.column == column && e.message.contains(message)
        }
    }
}
