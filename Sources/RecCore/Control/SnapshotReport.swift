/// The answer to `snapshot`: the image written.
package struct SnapshotReport: Sendable, Equatable, Codable {
    package var path: String
    package var width: Int?
    package var height: Int?
    package var bytes: Int?
    /// When the frame was captured, on the session's timeline in seconds.
    package var time: Double?
    /// `time` exactly (not sent over the control socket).
    package var exactTime: Timestamp?

    private enum CodingKeys: String, CodingKey {
        case path, width, height, bytes, time
    }

    package init(path: String, width: Int? = nil, height: Int? = nil, bytes: Int? = nil, time: Double? = nil) {
        self.path = path
        self.width = width
        self.height = height
        self.bytes = bytes
        self.time = time
    }
}
