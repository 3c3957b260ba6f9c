import CFFmpeg
import RecCore

/// Chunks of captured sound in, packets out: libswresample to the encoder's sample format, rate
/// and channels, the clock model's placement of each chunk (silence, dropped samples, soft
/// compensation), an `AVAudioFifo` that cuts the stream into whole encoder frames, and the
/// encoder. Owned by one thread, the audio thread.
///
/// Time: the output timeline counts samples at the output rate since session time 0. `start(at:)`
/// says where the first sample lands; from there every sample follows the one before, so a
/// frame's pts is simply the position of its first sample, and `position` (what the clock model
/// compares with the observed time) counts everything given so far, including what the
/// resampler and the FIFO still hold.
///
/// Packets are stream 1 of the session (video is 0), in 1/rate, every one a keyframe, with the
/// encoder's pts, dts and duration: AAC's first packet starts 1024 samples before the first
/// frame (its priming, which an MP4 edit list hides) and libopus's 312 at 48 kHz (its pre-skip);
/// both are also in `parameters` as `initial_padding`. Side data is carried: libopus marks its
/// last packet's padding (`AV_PKT_DATA_SKIP_SAMPLES`), and flac ends with an empty packet, at
/// the end position with duration 0, that carries only the final STREAMINFO
/// (`AV_PKT_DATA_NEW_EXTRADATA`, which Matroska writes back into the header).
package final class AudioPipeline {
    private let encoder: AudioEncoder
    private let resampler: AudioResampler
    private let fifo: AudioFIFO
    /// Where the first sample lands (output samples since session time 0).
    private var origin: Int64 = 0
    /// Output samples the resampler has given out (into the FIFO).
    private var converted: Int64 = 0
    /// Output samples sent to the encoder.
    private var sent: Int64 = 0
    private var finished = false
    /// The largest magnitude (0…1) among the last chunk's converted samples, for a level meter;
    /// 0 when the chunk gave none out (all dropped, or still in the resampler).
    package private(set) var lastPeak: Float = 0

    /// Opens the resampler (`input` → the encoder's format) and the encoder.
    ///
    /// The encoder gets `encoding`'s rate, channels and bitrate (when set) and a sample format from
    /// its own list: the input's if it takes it, else the closest (flac takes s16 or s32, aac
    /// fltp, libopus s16 or flt, pcm_s24le s32). An encoder with a list of rates (libopus: 48000,
    /// 24000, 16000, 12000, 8000; aac: the AAC rates) refuses any other rate.
    package init(encoding: AudioEncoding, input: AudioFormat) throws(FFmpegError) {
        guard input.sampleRate > 0, (1...64).contains(input.channels) else {
            throw FFmpegError(code: cffmpeg_averror(EINVAL), operation: "audio input \(input) needs a sample rate and 1 to 64 channels")
        }
        encoder = try AudioEncoder(encoding, input: input.sampleFormat)
        resampler = try AudioResampler(from: input, to: encoder.format)
        fifo = try AudioFIFO(format: encoder.format)
    }

    /// Parameters for the muxer's stream: codec, rate, layout, extradata and `initial_padding`
    /// (`avcodec_parameters_from_context`), time base 1/rate.
    package var parameters: CodecParameters { encoder.parameters }

    /// What the encoder takes (its sample format, the output rate and channels).
    package var outputFormat: AudioFormat { encoder.format }

    /// Samples per encoder frame: 1024 for AAC and PCM, 960 for libopus at 48 kHz, 4608 for
    /// flac at 48 kHz.
    package var frameSize: Int { encoder.frameSize }

    /// Sets where the first output sample lands on the output timeline (samples at the output
    /// rate since session time 0). Call before the first `encode`; 0 otherwise.
    package func start(at position: Int64) {
        precondition(converted == 0 && sent == 0 && resampler.delay == 0, "AudioPipeline.start(at:) after samples went in")
        origin = position
    }

    /// Where the next output sample will land: everything given so far, including what the
    /// resampler (`swr_get_delay`) and the FIFO still hold. After `finish`, the end of the stream.
    package var position: Int64 { origin + converted + (finished ? 0 : resampler.delay) }

    /// Encodes one chunk as `placement` says and hands every packet that is ready to `emit`:
    /// first `placement.silence` zero samples (output rate), then the chunk without its first
    /// `placement.drop` samples, with `swr_set_compensation(compensation, compensationDistance)`
    /// applied first when `compensation` is not 0 (a compensation in progress runs on otherwise).
    package func encode(_ frame: AudioFrame, placement: AudioPlacement,
                       emit: (EncodedPacket) throws(FFmpegError) -> Void) throws(FFmpegError) {
        precondition(!finished, "AudioPipeline.encode after finish")
        guard frame.format == resampler.input else {
            throw FFmpegError(code: cffmpeg_averror(EINVAL),
                              operation: "audio chunk is \(frame.format) but the pipeline was opened for \(resampler.input)")
        }
        if placement.compensation != 0 {
            try resampler.compensate(placement.compensation, over: placement.compensationDistance) { planes, count throws(FFmpegError) in
                try take(planes, count: count)
            }
        }
        if placement.silence > 0 { try resampler.injectSilence(placement.silence) }
        let drop = min(max(placement.drop, 0), frame.sampleCount)
        lastPeak = 0
        try resampler.convert(frame.pointer, offset: drop, count: frame.sampleCount - drop) { planes, count throws(FFmpegError) in
            lastPeak = SampleAccess(planes: planes, format: encoder.format, count: count).peak
            try take(planes, count: count)
        }
        try encodeWholeFrames(emit: emit)
    }

    /// Drains the resampler, the FIFO (the last short frame padded by libavcodec as the encoder
    /// needs) and the encoder. The pipeline takes no more chunks after this.
    package func finish(emit: (EncodedPacket) throws(FFmpegError) -> Void) throws(FFmpegError) {
        guard !finished else { return }
        finished = true
        try resampler.convert(nil) { planes, count throws(FFmpegError) in try take(planes, count: count) }
        try encodeWholeFrames(emit: emit)
        if fifo.count > 0 { try send(fifo.count, emit: emit) }
        try encoder.sendEnd()
        try drain(emit: emit)
    }

    private func take(_ planes: UnsafePointer<UnsafeMutablePointer<UInt8>?>, count: Int) throws(FFmpegError) {
        try fifo.write(planes, count: count)
        converted += Int64(count)
    }

    private func encodeWholeFrames(emit: (EncodedPacket) throws(FFmpegError) -> Void) throws(FFmpegError) {
        while fifo.count >= encoder.frameSize { try send(encoder.frameSize, emit: emit) }
    }

    private func send(_ count: Int, emit: (EncodedPacket) throws(FFmpegError) -> Void) throws(FFmpegError) {
        try encoder.send(from: fifo, count: count, pts: origin + sent)
        sent += Int64(count)
        try drain(emit: emit)
    }

    private func drain(emit: (EncodedPacket) throws(FFmpegError) -> Void) throws(FFmpegError) {
        while case .output(let packet) = try encoder.receive() { try emit(packet) }
    }
}
