/// Where and why a JSON text is malformed: 1-based line and column of the offending character.
package struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    package var message: String
    package var line: Int
    package var column: Int

    package var description: String { "line \(line), column \(column): \(message)" }
    package var position: JSONPosition { JSONPosition(line: line, column: column) }
}

/// A 1-based line and column in a JSON text.
package struct JSONPosition: Sendable, Equatable {
    package var line: Int
    package var column: Int

    package init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }
}

/// A strict RFC 8259 parser: no comments, no trailing commas, no duplicate keys, one value per
/// text. Foundation's decoders accept trailing commas and report no position, so presets use this.
package struct JSONParser {
    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var lineStart = 0
    /// The keys of the object being read, outermost first, and where every key read so far starts.
    private var keyPath: [String] = []
    private var keyPositions: [String: JSONPosition] = [:]

    /// Parses a whole JSON text.
    package static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        try parseLocated(text).value
    }

    /// Parses a whole JSON text and says where each object key starts, by its dotted path
    /// (`"sessions.garage.source"`), so a configuration can say which line set a value.
    package static func parseLocated(_ text: String) throws(JSONSyntaxError) -> (value: JSONValue, keys: [String: JSONPosition]) {
        var parser = JSONParser(bytes: Array(text.utf8))
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        if parser.index < parser.bytes.count { throw parser.failure("unexpected text after the end of the JSON value") }
        return (value, parser.keyPositions)
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private func failure(_ message: String) -> JSONSyntaxError {
        let p = position(index: index, line: line, lineStart: lineStart)
        return JSONSyntaxError(message: message, line: p.line, column: p.column)
    }

    private func position(index: Int, line: Int, lineStart: Int) -> JSONPosition {
        // Columns count characters, not bytes: skip UTF-8 continuation bytes.
        let column = bytes[lineStart..<min(index, bytes.count)].filter { $0 & 0xC0 != 0x80 }.count + 1
        return JSONPosition(line: line, column: column)
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while let c = current, c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D {
            index += 1
            if c == 0x0A { line += 1; lineStart = index }
        }
    }

    private mutating func expect(_ c: UInt8, _ what: String) throws(JSONSyntaxError) {
        skipWhitespace()
        guard current == c else { throw failure(current == nil ? "the text ends; expected \(what)" : "expected \(what)") }
        index += 1
    }

    private mutating func parseValue(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        skipWhitespace()
        guard depth < 64 else { throw failure("nested too deeply") }
        switch current {
        case nil: throw failure("the text ends where a value was expected")
        case UInt8(ascii: "{"): return try parseObject(depth: depth)
        case UInt8(ascii: "["): return try parseArray(depth: depth)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case let c? where c == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c):
            return .number(try parseNumber())
        default: throw failure("expected a value (a string, number, object, array, true, false or null)")
        }
    }

    private mutating func literal(_ word: String) throws(JSONSyntaxError) {
        let w = Array(word.utf8)
        guard bytes.count - index >= w.count, Array(bytes[index..<index + w.count]) == w else {
            throw failure("expected a value; strings need double quotes")
        }
        index += w.count
    }

    private mutating func parseObject(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        index += 1
        var members: [(key: String, value: JSONValue)] = []
        skipWhitespace()
        if current == UInt8(ascii: "}") { index += 1; return .object(members) }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else {
                throw failure(members.isEmpty ? "expected a key in double quotes" : "expected a key in double quotes (no comma after the last member)")
            }
            let keyStart = (index, line, lineStart)
            let key = try parseString()
            if members.contains(where: { $0.key == key }) {
                (index, line, lineStart) = keyStart
                throw failure("duplicate key \"\(key)\"")
            }
            keyPositions[(keyPath + [key]).joined(separator: ".")] = position(index: keyStart.0, line: keyStart.1, lineStart: keyStart.2)
            try expect(UInt8(ascii: ":"), "':' after the key \"\(key)\"")
            keyPath.append(key)
            members.append((key, try parseValue(depth: depth + 1)))
            keyPath.removeLast()
            skipWhitespace()
            if current == UInt8(ascii: ",") { index += 1; continue }
            try expect(UInt8(ascii: "}"), "',' or '}'")
            return .object(members)
        }
    }

    private mutating func parseArray(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        index += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") { index += 1; return .array(items) }
        while true {
            skipWhitespace()
            if current == UInt8(ascii: "]") { throw failure("expected a value (no comma after the last item)") }
            items.append(try parseValue(depth: depth + 1))
            skipWhitespace()
            if current == UInt8(ascii: ",") { index += 1; continue }
            try expect(UInt8(ascii: "]"), "',' or ']'")
            return .array(items)
        }
    }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        index += 1
        var out: [UInt8] = []
        while true {
            guard let c = current else { throw failure("the text ends inside a string") }
            switch c {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                index += 1
                try parseEscape(into: &out)
            case 0..<0x20:
                throw failure("control character in a string; write \\n or \\t")
            default:
                out.append(c)
                index += 1
            }
        }
    }

    private mutating func parseEscape(into out: inout [UInt8]) throws(JSONSyntaxError) {
        guard let c = current else { throw failure("the text ends inside a string") }
        index += 1
        let simple: [UInt8: UInt8] = [0x22: 0x22, 0x5C: 0x5C, 0x2F: 0x2F, 0x62: 0x08, 0x66: 0x0C, 0x6E: 0x0A, 0x72: 0x0D, 0x74: 0x09]
        if let s = simple[c] { out.append(s); return }
        guard c == UInt8(ascii: "u") else { index -= 1; throw failure("unknown escape in a string") }
        var scalar = try hex4()
        if (0xD800..<0xDC00).contains(scalar), bytes.count - index >= 6,
           bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
            index += 2
            let low = try hex4()
            guard (0xDC00..<0xE000).contains(low) else { throw failure("invalid surrogate pair") }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let u = Unicode.Scalar(scalar) else { throw failure("invalid \\u escape") }
        out.append(contentsOf: Array(String(Character(u)).utf8))
    }

    private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        var v: UInt32 = 0
        for _ in 0..<4 {
            guard let c = current, let d = Character(Unicode.Scalar(c)).hexDigitValue else {
                throw failure("\\u needs four hex digits")
            }
            v = v * 16 + UInt32(d)
            index += 1
        }
        return v
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> Double {
        let start = index
        func digits(_ p: inout JSONParser) -> Int {
            let s = p.index
            while let c = p.current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c) { p.index += 1 }
            return p.index - s
        }
        if current == UInt8(ascii: "-") { index += 1 }
        let intStart = index
        let n = digits(&self)
        guard n > 0 else { throw failure("expected digits in a number") }
        if n > 1, bytes[intStart] == UInt8(ascii: "0") { index = intStart; throw failure("numbers cannot start with 0") }
        if current == UInt8(ascii: ".") {
            index += 1
            guard digits(&self) > 0 else { throw failure("expected digits after '.'") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard digits(&self) > 0 else { throw failure("expected digits in the exponent") }
        }
        guard let value = Double(String(decoding: bytes[start..<index], as: UTF8.self)), value.isFinite else {
            index = start
            throw failure("number out of range")
        }
        return value
    }
}
