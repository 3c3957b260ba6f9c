/// The answer to `stop`, sent once the recording is finished and before the session exits.
public struct StopSummary: Sendable, Equatable, Codable {
    /// The file recorded, if the session recorded one.
    public var path: String?
    /// Seconds recorded.
    public var duration: Double?
    public var frames: Int?
    /// Frames dropped in all (late and by the driver).
    public var dropped: Int?
    /// Size of the file, in bytes.
    public var bytes: Int?
    /// The error that ended or spoiled the recording, if any.
    public var error: String?

    public init(path: String? = nil, duration: Double? = nil, frames: Int? = nil, dropped: Int? = nil,
                bytes: Int? = nil, error: String? = nil) {
        self.path = path
        self.duration = duration
        self.frames = frames
        self.dropped = dropped
        self.bytes = bytes
        self.error = error
    }
}
