import Media
import Synchronization

/// The newest captured frame, for snapshots and previews, handed over without ever stalling
/// capture: the capture thread swaps a reference in, a reader takes a reference out, and the lock
/// is held only for that swap. What is published is a clone (`av_frame_clone`: its own fields over
/// the same reference-counted pictures), so the encode thread can stamp its frame while a reader
/// encodes a JPEG from this one, and capture goes on into fresh buffers — what triple buffering
/// gives, without a fixed set of three buffers to recycle. Readers never write to it.
final class LatestFrame: Sendable {
    private let slot = Mutex<VideoFrame?>(nil)

    func publish(_ frame: VideoFrame) {
        slot.withLock { $0 = frame }
    }

    func take() -> VideoFrame? {
        slot.withLock { $0 }
    }
}
