/// What a crash-safe recording file holds for certain as fragments (MP4/MOV) or clusters
/// (Matroska) reach the disk. Pure policy for `AssetWriter`.
///
/// A SIGKILL loses what the encoder still holds plus the fragment being filled, so the muxers end
/// fragments by duration (`length`), not only at keyframes. They end one just before the packet
/// that would make it too long — then the fragment's last sample lasts exactly up to that packet,
/// which a flush after the packet could not know with B-frames and a variable frame rate.
///
/// "Complete before" is a presentation time: every frame presented before it is in a finished
/// fragment. When a fragment ends before packet P, every packet before P in decode order is out:
/// without frame reordering that is every frame presented before P; with B-frames (pts ≠ dts) only
/// a keyframe is a safe line, since a packet after P may still present earlier.
package struct FragmentClock: Sendable, Equatable {
    /// The longest a fragment grows before the muxer ends it.
    package static let defaultLength = Timestamp.microseconds(100_000)
    /// The same for a recording that stores a camera's own packets: nothing waits in an encoder,
    /// so a kill loses the fragment being filled and the one frame the source holds (0.43 s at
    /// 30 fps) and the promise of at most 0.5 s holds with fewer fragments (docs/RELIABILITY.md).
    package static let copyLength = Timestamp.microseconds(400_000)

    private var reorders = false
    private var newestKeyframe: Timestamp?
    package private(set) var completeBefore: Timestamp?

    package init() {}

    /// After `packet` was written; `fragmentEnded` when the muxer ended a fragment just before it
    /// (the file grew).
    package mutating func wrote(_ packet: EncodedPacket, fragmentEnded: Bool) {
        if packet.pts != packet.dts { reorders = true }
        if fragmentEnded {
            let line = packet.isKeyframe || !reorders ? packet.presentationTime : newestKeyframe
            if let line { completeBefore = max(completeBefore ?? line, line) }
        }
        if packet.isKeyframe {
            newestKeyframe = max(newestKeyframe ?? packet.presentationTime, packet.presentationTime)
        }
    }

    /// The file was finished: everything written is in it.
    package mutating func finished(upTo end: Timestamp?) {
        if let end { completeBefore = max(completeBefore ?? end, end) }
    }
}
