import CFFmpeg
import RecCore

/// One run of raw samples with the session time its first sample was captured at: the unit an
/// `AudioSource` delivers. Owns exactly one `AVFrame`; one thread at a time (the audio thread).
public final class AudioFrame {
    /// The owned frame. Borrow it for the length of a call; never keep it.
    public let pointer: UnsafeMutablePointer<AVFrame>
    /// When the first sample was captured, on the session timeline (0 = the first video frame),
    /// as the source observed it (device clock mapped onto CLOCK_MONOTONIC; jitter included).
    public var time: Timestamp

    /// A frame with writable buffers for `samples` samples of `format`.
    /// The corresponding C functions are `av_frame_alloc`, `av_channel_layout_default` and
    /// `av_frame_get_buffer`.
    public init(format: AudioFormat, samples: Int, time: Timestamp = .zero) throws(FFmpegError) {
        let frame = try allocated(av_frame_alloc(), "av_frame_alloc")
        frame.pointee.format = format.sampleFormat
        frame.pointee.sample_rate = Int32(format.sampleRate)
        frame.pointee.nb_samples = Int32(samples)
        av_channel_layout_default(&frame.pointee.ch_layout, Int32(format.channels))
        let result = av_frame_get_buffer(frame, 0)
        if result < 0 {
            var f: UnsafeMutablePointer<AVFrame>? = frame
            av_frame_free(&f)
            throw FFmpegError(code: result, operation: "av_frame_get_buffer(audio)")
        }
        self.pointer = frame
        self.time = time
    }

    /// Takes ownership of a frame FFmpeg gave us (from a decoder).
    public init(taking frame: UnsafeMutablePointer<AVFrame>, time: Timestamp) {
        self.pointer = frame
        self.time = time
    }

    deinit {
        var f: UnsafeMutablePointer<AVFrame>? = pointer
        av_frame_free(&f)
    }

    public var sampleCount: Int { Int(pointer.pointee.nb_samples) }

    public var format: AudioFormat {
        AudioFormat(sampleFormat: pointer.pointee.format, sampleRate: Int(pointer.pointee.sample_rate),
                    channels: Int(pointer.pointee.ch_layout.nb_channels))
    }

    /// The length of the samples at the frame's own rate.
    public var duration: Timestamp {
        Timestamp(value: Int64(sampleCount), timeBase: Rational(1, Int32(max(1, pointer.pointee.sample_rate))))
    }
}
