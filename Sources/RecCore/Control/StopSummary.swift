/// The answer to `stop`, sent once the recording is finished and before the session exits.
package struct StopSummary: Sendable, Equatable, Codable {
    /// The file recorded, if the session recorded one.
    package var path: String?
    /// Seconds recorded.
    package var duration: Double?
    package var frames: Int?
    /// Frames dropped in all (late and by the driver).
    package var dropped: Int?
    /// Size of the file, in bytes.
    package var bytes: Int?
    /// The error that ended or spoiled the recording, if any.
    package var error: String?
    /// `duration` exactly: the newest frame's capture time plus one frame at the source's
    /// nominal rate (not sent over the control socket).
    package var exactDuration: Timestamp?
    /// The error that ended the recording, whole (not sent).
    package var failure: RecError?

    private enum CodingKeys: String, CodingKey {
        case path, duration, frames, dropped, bytes, error
    }

    package init(path: String? = nil, duration: Double? = nil, frames: Int? = nil, dropped: Int? = nil,
                bytes: Int? = nil, error: String? = nil) {
        self.path = path
        self.duration = duration
        self.frames = frames
        self.dropped = dropped
        self.bytes = bytes
        self.error = error
    }
}
