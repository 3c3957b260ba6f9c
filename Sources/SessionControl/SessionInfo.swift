import Foundation
import RecCore

/// What `session.json` in a session's folder says about it: written at start, read by
/// `rec status --all` and by a second `rec start` of the same name.
package struct SessionInfo: Sendable, Equatable, Codable {
    package var name: String
    package var pid: Int32
    /// The frame source, as the user named it.
    package var source: String
    package var startedAt: Date
    /// The control protocol version the session speaks.
    package var protocolVersion: Int

    package init(name: String, pid: Int32, source: String, startedAt: Date, protocolVersion: Int = ControlCodec.version) {
        self.name = name
        self.pid = pid
        self.source = source
        self.startedAt = startedAt
        self.protocolVersion = protocolVersion
    }

    private enum CodingKeys: String, CodingKey {
        case name, pid, source, startedAt = "started_at", protocolVersion = "protocol"
    }

    /// The JSON written to `session.json`.
    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        // Written as `.iso8601` writes it (and `decode` reads it), without Foundation's formatter.
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(ISOTimeText.utc(date))
        }
        return try encoder.encode(self)
    }

    static func decode(_ data: Data) -> SessionInfo? {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try? decoder.decode(SessionInfo.self, from: data)
    }

    /// The start time as local wall-clock time, "14:03:05".
    package var startedAtText: String {
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm:ss"
        return formatter.string(from: startedAt)
    }
}
