import CFFmpeg
import RecCore

/// One run of raw samples with the session time its first sample was captured at: the unit an
/// `AudioSource` delivers. Owns exactly one `AVFrame`; one thread at a time (the audio thread).
package final class AudioFrame {
    private let frame: FrameOwner
    /// The owned frame, within the package only. Borrow it for the length of a call; never keep it.
    package var pointer: UnsafeMutablePointer<AVFrame> { frame.pointer }
    /// When the first sample was captured, on the session timeline (0 = the first video frame),
    /// as the source observed it (device clock mapped onto CLOCK_MONOTONIC; jitter included).
    package var time: Timestamp

    /// A frame with writable buffers for `samples` samples of `format`.
    /// The corresponding C functions are `av_frame_alloc`, `av_channel_layout_default` and
    /// `av_frame_get_buffer`.
    package init(format: AudioFormat, samples: Int, time: Timestamp = .zero) throws(FFmpegError) {
        let frame = try FrameOwner()
        let f = frame.pointer
        f.pointee.format = format.sampleFormat
        f.pointee.sample_rate = Int32(format.sampleRate)
        f.pointee.nb_samples = Int32(samples)
        av_channel_layout_default(&f.pointee.ch_layout, Int32(format.channels))
        try check(av_frame_get_buffer(f, 0), "av_frame_get_buffer(audio)")
        self.frame = frame
        self.time = time
    }

    /// Takes over a frame FFmpeg gave us (from a decoder).
    package init(owning frame: consuming FrameOwner, time: Timestamp) {
        self.frame = frame
        self.time = time
    }

    package var sampleCount: Int { Int(pointer.pointee.nb_samples) }

    package var format: AudioFormat {
        AudioFormat(sampleFormat: pointer.pointee.format, sampleRate: Int(pointer.pointee.sample_rate),
                    channels: Int(pointer.pointee.ch_layout.nb_channels))
    }

    /// The length of the samples at the frame's own rate.
    package var duration: Timestamp {
        Timestamp(value: Int64(sampleCount), timeBase: Rational(1, Int32(max(1, pointer.pointee.sample_rate))))
    }
}
