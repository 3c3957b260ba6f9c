import Media
import Synchronization

/// The newest captured frame, for snapshots and previews, handed over without ever stalling
/// capture: the capture thread swaps a reference in, a reader takes a reference out, and the lock
/// is held only for that swap. Frames are immutable once captured and reference-counted, so the
/// reader can encode a JPEG from one while capture goes on writing new frames into fresh buffers —
/// what triple buffering gives, without a fixed set of three buffers to recycle.
final class LatestFrame: Sendable {
    private let slot = Mutex<VideoFrame?>(nil)

    func publish(_ frame: VideoFrame) {
        slot.withLock { $0 = frame }
    }

    func take() -> VideoFrame? {
        slot.withLock { $0 }
    }
}
