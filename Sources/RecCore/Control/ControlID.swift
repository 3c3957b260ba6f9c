/// The `id` a client puts in a request and finds again in the reply: a JSON string or integer,
/// echoed exactly as sent.
package enum ControlID: Sendable, Hashable, Codable, CustomStringConvertible {
    case number(Int64)
    case string(String)

    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let n = try? container.decode(Int64.self) {
            self = .number(n)
        } else if let s = try? container.decode(String.self) {
            self = .string(s)
        } else {
            throw DecodingError.typeMismatch(ControlID.self, .init(
                codingPath: decoder.codingPath, debugDescription: "'id' must be a string or an integer"))
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .number(let n): try container.encode(n)
        case .string(let s): try container.encode(s)
        }
    }

    package var description: String {
        switch self {
        case .number(let n): String(n)
        case .string(let s): s
        }
    }
}
