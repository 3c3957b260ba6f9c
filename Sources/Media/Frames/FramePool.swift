import CFFmpeg
import RecCore

/// Recycles picture buffers for a source that makes its own frames (the stand-in camera, a raw
/// V4L2 camera), so capture does not allocate and free megabytes per frame across threads — which
/// glibc's per-thread arenas turn into memory that is never given back.
///
/// Owned by the capture thread. A pooled frame is reused only once nobody else holds it: neither
/// the `VideoFrame` (Swift reference count) nor its pictures (FFmpeg's buffer reference count).
///
/// It keeps at most `capacity` frames, and keeps them for good: a recorder in steady state has
/// about three in flight (being drawn, queued or in the encoder, the snapshot slot's), so 4 covers
/// it; more, made while the encoder lags, are freed when done rather than held for weeks
/// (8 held 25 MB at 1080p after one lag).
package final class FramePool {
    package let format: VideoFormat
    private var frames: [VideoFrame] = []
    private let capacity: Int

    package init(format: VideoFormat, capacity: Int = 4) {
        self.format = format
        self.capacity = capacity
    }

    /// A frame with writable buffers of the pool's format, reused when one is free. The caller
    /// sets its capture time and sequence. The corresponding C function is `av_frame_is_writable`.
    package func next() throws(FFmpegError) -> VideoFrame {
        for i in frames.indices where isKnownUniquelyReferenced(&frames[i]) && av_frame_is_writable(frames[i].pointer) != 0 {
            return frames[i]
        }
        let frame = try VideoFrame(format: format)
        if frames.count < capacity { frames.append(frame) }
        return frame
    }
}
