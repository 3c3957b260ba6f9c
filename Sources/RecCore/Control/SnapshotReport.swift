/// The answer to `snapshot`: the image written.
public struct SnapshotReport: Sendable, Equatable, Codable {
    public var path: String
    public var width: Int?
    public var height: Int?
    public var bytes: Int?
    /// When the frame was captured, on the session's timeline in seconds.
    public var time: Double?

    public init(path: String, width: Int? = nil, height: Int? = nil, bytes: Int? = nil, time: Double? = nil) {
        self.path = path
        self.width = width
        self.height = height
        self.bytes = bytes
        self.time = time
    }
}
