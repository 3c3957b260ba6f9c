#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Turns control messages into lines of JSON and back; every way a request can be wrong becomes
/// an error reply here, so the server never has to think about malformed input.
package enum ControlCodec {
    /// The protocol version this build speaks (`"v"` in every message).
    package static let version = 1

    /// The outcome of reading one request line.
    package enum RequestDecoding: Sendable, Equatable {
        /// A well-formed request for the handler.
        case request(ControlRequest)
        /// A bad request: send this reply and read on.
        case rejected(ControlResponse)
    }

    /// One request as a line of JSON, newline included.
    package static func encode(_ request: ControlRequest) throws(RecError) -> [UInt8] {
        do {
            return line(try encoder().encode(request))
        } catch {
            throw .usage("cannot send this request: a time or number in it is not finite", cause: "\(error)")
        }
    }

    /// One reply as a line of JSON, newline included. A body that cannot be encoded (a NaN
    /// counter, say) becomes a runtime error reply with the same id instead.
    package static func encode(_ response: ControlResponse) -> [UInt8] {
        if let data = try? encoder().encode(response) { return line(data) }
        let fallback = ControlResponse(id: response.id, reply: .runtime("the session built a reply it could not encode (a counter is not a finite number)"))
        return line((try? encoder().encode(fallback)) ?? Data(#"{"v":1,"id":null,"ok":false,"error":{"code":"runtime","message":"unencodable reply"}}"#.utf8))
    }

    /// The reply to a line longer than the framer's limit.
    package static func oversized(limit: Int) -> ControlResponse {
        ControlResponse(id: nil, reply: .protocolError("message longer than \(limit) bytes; it was discarded up to its newline"))
    }

    /// Reads one reply line (client side).
    package static func decodeResponse(_ line: some Collection<UInt8>) throws(RecError) -> ControlResponse {
        do {
            let response = try JSONDecoder().decode(ControlResponse.self, from: Data(line))
            guard response.version == version else {
                throw RecError.runtime("the session speaks control protocol version \(response.version), this rec speaks \(version); use the rec that started it")
            }
            return response
        } catch let error as RecError {
            throw error
        } catch {
            throw .runtime("the session sent a reply this rec cannot read", cause: describe(error))
        }
    }

    /// Reads one request line (server side): a request, or the error reply to send instead.
    package static func decodeRequest(_ line: some Collection<UInt8>) -> RequestDecoding {
        // The JSON decoder recurses once per level: 30,000 '[' overflow a thread's stack.
        guard !nestsDeeper(than: maxNesting, line) else {
            return reject(nil, "a request may nest arrays and objects at most \(maxNesting) levels deep")
        }
        let data = Data(line)
        let envelope: Envelope
        do {
            envelope = try JSONDecoder().decode(Envelope.self, from: data)
        } catch DecodingError.typeMismatch {
            return reject(nil, "a request must be a JSON object")
        } catch {
            return reject(nil, "malformed JSON: \(describe(error))")
        }
        if envelope.idIsInvalid { return reject(nil, "'id' must be a string or an integer") }
        guard let id = envelope.id else { return reject(nil, "missing field 'id'") }
        switch envelope.version {
        case .missing:
            return reject(id, "missing field 'v' (the protocol version; this rec speaks \(version))")
        case .invalid:
            return reject(id, "'v' must be an integer (this rec speaks \(version))")
        case .value(let v) where v != version:
            return reject(id, "protocol version \(v) is not supported; this rec speaks version \(version)")
        case .value: break
        }
        guard let type = envelope.type else {
            return reject(id, "missing field 'type'; expected one of \(ControlCommand.types.joined(separator: ", "))")
        }
        do {
            let command: ControlCommand
            switch type {
            case "hello": command = .hello
            case "status":
                let fields = try JSONDecoder().decode(StatusRequest.self, from: data)
                if let problem = fields.problem() { return usage(id, "status: \(problem)") }
                command = .status(fields)
            case "stop": command = .stop
            case "save":
                let fields = try JSONDecoder().decode(SaveRequest.self, from: data)
                if let problem = fields.problem() { return usage(id, "save: \(problem)") }
                command = .save(fields)
            case "snapshot":
                let fields = try JSONDecoder().decode(SnapshotRequest.self, from: data)
                if let problem = fields.problem() { return usage(id, "snapshot: \(problem)") }
                command = .snapshot(fields)
            case "control":
                let fields = try JSONDecoder().decode(CameraControlRequest.self, from: data)
                if let problem = fields.problem() { return usage(id, "control: \(problem)") }
                command = .control(fields)
            case "events":
                let fields = try JSONDecoder().decode(EventsRequest.self, from: data)
                if let problem = fields.selection.problem() { return usage(id, "events: \(problem)") }
                command = .events(fields)
            default:
                return reject(id, "unknown request type '\(type)'; expected one of \(ControlCommand.types.joined(separator: ", "))")
            }
            return .request(ControlRequest(id: id, command: command))
        } catch {
            return reject(id, "\(type): \(describe(error))")
        }
    }

    /// The deepest nesting of arrays and objects a request may have (real ones have 2).
    package static let maxNesting = 16

    // MARK: - Helpers

    /// True when `line` opens more than `limit` arrays or objects inside each other (brackets
    /// in strings do not count). A scan, not a parse: it never recurses.
    static func nestsDeeper(than limit: Int, _ line: some Collection<UInt8>) -> Bool {
        var depth = 0, inString = false, escaped = false
        for byte in line {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth > limit { return true }
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
        return false
    }

    private static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    private static func line(_ data: Data) -> [UInt8] {
        var bytes = [UInt8](data)
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }

    private static func reject(_ id: ControlID?, _ message: String) -> RequestDecoding {
        .rejected(ControlResponse(id: id, reply: .protocolError(message)))
    }

    private static func usage(_ id: ControlID, _ message: String) -> RequestDecoding {
        .rejected(ControlResponse(id: id, reply: .usage(message)))
    }

    /// A decoding error in words, naming the field.
    static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        func field(_ path: [any CodingKey]) -> String {
            path.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "missing field '\(field(context.codingPath + [key]))'"
        case .valueNotFound(_, let context):
            return "field '\(field(context.codingPath))' is null"
        case .typeMismatch(_, let context):
            return "field '\(field(context.codingPath))' has the wrong type: \(context.debugDescription)"
        case .dataCorrupted(let context):
            let underlying = context.underlyingError.map { " (\($0))" } ?? ""
            return context.codingPath.isEmpty
                ? "\(context.debugDescription)\(underlying)"
                : "field '\(field(context.codingPath))': \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }
}

/// The fields every request has, read leniently so each problem gets its own message.
private struct Envelope: Decodable {
    enum Version { case missing, invalid, value(Int) }

    var version: Version
    var id: ControlID?
    var idIsInvalid: Bool
    var type: String?

    private enum Keys: String, CodingKey {
        case v, id, type
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        if !c.contains(.v) || (try? c.decodeNil(forKey: .v)) == true {
            version = .missing
        } else if let v = try? c.decode(Int.self, forKey: .v) {
            version = .value(v)
        } else {
            version = .invalid
        }
        id = try? c.decodeIfPresent(ControlID.self, forKey: .id)
        idIsInvalid = id == nil && c.contains(.id) && (try? c.decodeNil(forKey: .id)) != true
        type = try? c.decodeIfPresent(String.self, forKey: .type)
    }
}
