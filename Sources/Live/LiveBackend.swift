import Media
import RecCore

/// What the live page asks of a session. `SessionHost` answers; every call runs on an HTTP
/// connection's own thread, never on capture or encode.
package protocol LiveBackend: Sendable {
    /// The control protocol's `status` reply, as `rec status --json` reads it.
    func liveStatusJSON() -> [UInt8]
    /// The newest frame as a JPEG.
    func liveSnapshot() throws(RecError) -> [UInt8]
    /// The encoder's stream parameters, once it runs.
    var liveCodecParameters: CodecParameters? { get }
    /// The session's sound, for the live stream's second track.
    var liveSound: LiveSound { get }
    /// When the first frame was captured (seconds since 1970) and the nominal frame rate: the page
    /// turns a frame number into its capture time with them.
    var liveStartedAt: Double? { get }
    var liveFrameRate: Double? { get }
    /// The ring's keyframe packets, oldest first (references only).
    func liveKeyframes() -> [EncodedPacket]
    /// Writes `[from, to)` (seconds on the session's timeline) exactly, as `rec save` does; `by`
    /// names the clip's maker in the session's list of saves (nil: a clip for playing, not listed
    /// and not uploaded).
    func liveSave(_ request: SaveRequest, by: String?) throws(RecError) -> SaveReport
    /// The picture shown at `seconds` on the session's timeline, decoded exactly, as a JPEG
    /// `width` wide (nil: full size): from the ring, or older than the ring from the recording.
    func liveFrame(at seconds: Double, width: Int?) throws(RecError) -> LiveFrameAnswer
    /// The ring, recording files, gaps and saves (`GET /api/recordings`).
    func liveRecordings() -> LiveRecordings
    /// The motion events, clips and levels of a range (`GET /api/events`, as `rec events`).
    func liveEvents(_ request: EventsRequest) throws(RecError) -> EventsReport
    /// Where a temporary clip for playing may be written (the session's own folder).
    var liveScratchFolder: String { get }
    /// Where a save without an `output` goes.
    var liveSaveFolder: String { get }
}

/// The session's sound as the live stream sees it: none, its encoder still opening, running (with
/// its parameters), or ended by a failure.
package enum LiveSound: Sendable {
    case none
    case opening
    case running(CodecParameters)
    case ended

    package var policy: LiveTracks.Sound {
        switch self {
        case .none: return .none
        case .opening: return .opening
        case .running(let p): return .running(codec: p.codec, profile: p.profile)
        case .ended: return .ended
        }
    }

    package var parameters: CodecParameters? {
        if case .running(let p) = self { return p }
        return nil
    }
}
