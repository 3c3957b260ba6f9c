/// A point in time (or, for `last`, a length of time) in a `save` request.
///
/// On the wire it is either a string in rec's time syntax, parsed by the session exactly as the
/// command line would (`"-30s"`, `"14:03:05"`, `"00:01:10.5"`), or structured:
/// a number is seconds on the session's timeline (0 = first frame), `{"ago": 12.5}` is seconds
/// before the request arrived, `{"unix": 1764424985.25}` is a wall-clock time.
package enum ControlTime: Sendable, Equatable, Codable {
    /// rec's time syntax, unparsed: the session parses it.
    case text(String)
    /// Seconds since the session's first frame (JSON number).
    case seconds(Double)
    /// Seconds before now (`{"ago": s}`).
    case ago(Double)
    /// Seconds since 1970-01-01 UTC (`{"unix": s}`).
    case unix(Double)

    private enum Keys: String, CodingKey {
        case ago, unix
    }

    package init(from decoder: any Decoder) throws {
        if let container = try? decoder.singleValueContainer() {
            if let text = try? container.decode(String.self) {
                self = .text(text)
                return
            }
            if let seconds = try? container.decode(Double.self) {
                self = .seconds(seconds)
                return
            }
        }
        guard let keyed = try? decoder.container(keyedBy: Keys.self) else {
            throw ControlTime.mismatch(decoder)
        }
        if let ago = try keyed.decodeIfPresent(Double.self, forKey: .ago) {
            self = .ago(ago)
        } else if let unix = try keyed.decodeIfPresent(Double.self, forKey: .unix) {
            self = .unix(unix)
        } else {
            throw ControlTime.mismatch(decoder)
        }
    }

    package func encode(to encoder: any Encoder) throws {
        switch self {
        case .text(let text):
            var c = encoder.singleValueContainer()
            try c.encode(text)
        case .seconds(let s):
            var c = encoder.singleValueContainer()
            try c.encode(s)
        case .ago(let s):
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(s, forKey: .ago)
        case .unix(let s):
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(s, forKey: .unix)
        }
    }

    /// The most seconds a timeline time, an `ago` or a `last` may be: about 31 years.
    package static let maxSeconds: Double = 1e9
    /// The latest `unix` time accepted: 10^10 s, in the year 2286.
    package static let maxUnixSeconds: Double = 1e10

    /// Why this time is out of range (`field` names it in the message), or nil. Every number is
    /// checked here, before any arithmetic, so no value can overflow a `Timestamp`.
    package func rangeProblem(field: String) -> String? {
        let (value, form, limit): (Double, String, Double)
        switch self {
        case .text: return nil
        case .seconds(let s): (value, form, limit) = (s, "\(s)", Self.maxSeconds)
        case .ago(let s): (value, form, limit) = (s, "{\"ago\": \(s)}", Self.maxSeconds)
        case .unix(let s): (value, form, limit) = (s, "{\"unix\": \(s)}", Self.maxUnixSeconds)
        }
        if value.isFinite && value >= 0 && value <= limit { return nil }
        return "'\(field)' \(form) is out of range; it must be between 0 and \(Int64(limit)) seconds"
    }

    /// True for the forms that can mean a length of time (`last`): text and plain seconds.
    package var isDuration: Bool {
        switch self {
        case .text, .seconds: true
        case .ago, .unix: false
        }
    }

    private static func mismatch(_ decoder: any Decoder) -> DecodingError {
        .typeMismatch(ControlTime.self, .init(codingPath: decoder.codingPath, debugDescription:
            "a time must be a string (rec's time syntax), a number of seconds, {\"ago\": s} or {\"unix\": s}"))
    }
}
