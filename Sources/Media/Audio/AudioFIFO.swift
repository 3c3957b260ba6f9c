import CFFmpeg

/// Converted samples waiting to fill a whole encoder frame. Owns one `AVAudioFifo`; one thread
/// (the audio thread).
///
/// The corresponding C functions are `av_audio_fifo_alloc`, `av_audio_fifo_write`,
/// `av_audio_fifo_read`, `av_audio_fifo_size` and `av_audio_fifo_free`.
final class AudioFIFO {
    private let fifo: OpaquePointer

    init(format: AudioFormat) throws(FFmpegError) {
        fifo = try allocated(av_audio_fifo_alloc(AVSampleFormat(rawValue: format.sampleFormat), Int32(format.channels), 4096),
                             "av_audio_fifo_alloc")
    }

    deinit { av_audio_fifo_free(fifo) }

    /// Samples held.
    var count: Int { Int(av_audio_fifo_size(fifo)) }

    /// Appends `count` samples from per-plane pointers (one for packed formats).
    func write(_ planes: UnsafePointer<UnsafeMutablePointer<UInt8>?>, count: Int) throws(FFmpegError) {
        let written = planes.withMemoryRebound(to: UnsafeMutableRawPointer?.self, capacity: 8) { p in
            av_audio_fifo_write(fifo, UnsafeMutablePointer(mutating: p), Int32(count))
        }
        try check(written, "av_audio_fifo_write")
        precondition(written == Int32(count), "av_audio_fifo_write wrote \(written) of \(count)")
    }

    /// Moves the oldest `count` samples into a frame with room for them.
    func read(into frame: UnsafeMutablePointer<AVFrame>, count: Int) throws(FFmpegError) {
        let read = frame.pointee.extended_data.withMemoryRebound(to: UnsafeMutableRawPointer?.self, capacity: 8) { p in
            av_audio_fifo_read(fifo, p, Int32(count))
        }
        try check(read, "av_audio_fifo_read")
        precondition(read == Int32(count), "av_audio_fifo_read gave \(read) of \(count)")
    }
}
