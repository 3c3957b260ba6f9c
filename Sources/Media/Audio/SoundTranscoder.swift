import CFFmpeg
import RecCore

/// Re-encodes a demuxed sound stream packet by packet, keeping its timeline: a network camera's
/// G.711 into AAC for MP4 while its pictures are copied (`SoundPlan.reencode`). Decodes with
/// `AudioDecoder`, converts rate, layout and sample format with libswresample and encodes, both in
/// `AudioPipeline`. Owns its codec contexts; one owner, one thread.
///
/// Time. Output packets are in 1/output rate, on the input's timeline: the first decoded sample
/// (the first packet's pts, after any priming the decoder trims) is output sample
/// pts × output rate, and every later run goes where its pts says, as `SoundContinuity` decides
/// (RecCore, pure): a run that starts more than half its length after the last one ended (lost
/// packets) gets silence of exactly the missing length before it, so a gap stays a gap of the
/// same length; one that starts more than half its length early has its overlapping samples
/// dropped; anything smaller (a container's millisecond rounding, a network source's slew) is
/// absorbed by stretching the run by at most 0.5 % toward its time, an error that decays over a
/// second and so never builds into drift. Each run is compared with where the pipeline's next
/// sample lands (`AudioPipeline.position`, which counts what the resampler and the FIFO hold), so
/// no rounding accumulates either. The encoder's priming goes before the first sample (AAC's
/// first packet starts 1024 samples early) and is in `parameters` as `initial_padding`.
///
/// Output packets carry the input packet's `stream` and `streamIndex`, are all keyframes, and
/// their `captureTime` is their pts moved by what the input's packets had between their
/// `captureTime` and pts (just their pts when those had none).
package final class SoundTranscoder {
    private let decoder: AudioDecoder
    private var pipeline: AudioPipeline
    /// What the pipeline was opened for: the decoder's sample format, rate and channels.
    private var inputFormat: AudioFormat
    private var continuity: SoundContinuity
    /// The encoding the output has: the preset's sound.
    package let encoding: AudioEncoding
    private let outputTimeBase: Rational
    private var started = false
    private var finished = false
    private var stream = StreamID.sound(0)
    private var streamIndex = 0
    /// The last input packet: where a first run without a time starts.
    private var lastInput: Timestamp?
    /// Input captureTime − pts, in microseconds, from the last input packet that had a captureTime.
    private var captureOffset: Int64?

    /// Opens the decoder for `input` (a demuxed stream's parameters: pcm_alaw, pcm_mulaw, opus,
    /// aac, mp3, adpcm_g726, …) and the encoder for `encoding` (e.g. AAC 48 kHz stereo), with a
    /// resampler between. Throws when FFmpeg has no decoder for the codec or no such encoder.
    package init(input: CodecParameters, encoding: AudioEncoding) throws(FFmpegError) {
        guard input.isAudio else {
            throw FFmpegError(code: cffmpeg_averror(EINVAL), operation: "SoundTranscoder: \(input.codecName) is not a sound stream")
        }
        decoder = try AudioDecoder(parameters: input)
        // A decoder sets its sample format and rate when it opens; the few that settle them on the
        // first frame get a pipeline for the stream's stated rate and channels, rebuilt for the
        // first frame before anything went in (`begin`).
        var format = decoder.format
        if format.sampleRate <= 0 { format.sampleRate = input.sampleRate > 0 ? input.sampleRate : encoding.sampleRate }
        if format.channels <= 0 { format.channels = max(1, input.channels) }
        if format.sampleFormat < 0 { format.sampleFormat = AV_SAMPLE_FMT_FLTP.rawValue }
        pipeline = try AudioPipeline(encoding: encoding, input: format)
        inputFormat = format
        continuity = SoundContinuity(inputRate: format.sampleRate, outputRate: encoding.sampleRate)
        outputTimeBase = Rational(1, Int32(encoding.sampleRate))
        self.encoding = encoding
    }

    /// The output stream's parameters, for the muxer: codec, rate, layout, extradata and
    /// `initial_padding` (AAC's 1024 priming samples), time base 1/output rate. The encoder is
    /// opened again, with the same encoding, only if a decoder's first frame contradicts the
    /// format it gave when it opened (HE-AAC's doubled rate), before any packet came out.
    package var parameters: CodecParameters { pipeline.parameters }

    /// Gaps filled with silence, the output samples they hold, input samples dropped as overlaps,
    /// and broken times (steps beyond an hour): for the log and `status`.
    package var gaps: Int { continuity.gaps }
    package var gapSamples: Int64 { continuity.gapSamples }
    package var droppedSamples: Int64 { continuity.droppedSamples }
    package var clockBreaks: Int { continuity.clockBreaks }
    /// Packets the decoder refused as damaged (`AVERROR_INVALIDDATA`): left out, so that their
    /// time becomes a gap like a lost packet's rather than ending the recording's sound.
    package private(set) var damagedPackets = 0

    /// Decodes one input packet and hands `emit` every output packet that is ready (none until
    /// the encoder has a whole frame and its look-ahead).
    /// The corresponding C functions are `avcodec_send_packet` and `avcodec_receive_frame`.
    package func transcode(_ packet: EncodedPacket, emit: (EncodedPacket) throws(FFmpegError) -> Void) throws(FFmpegError) {
        precondition(!finished, "SoundTranscoder.transcode after finish")
        stream = packet.stream
        streamIndex = packet.streamIndex
        lastInput = packet.presentationTime
        if let capture = packet.captureTime {
            captureOffset = capture.rescaled(to: .microseconds).value - packet.presentationTime.rescaled(to: .microseconds).value
        }
        while try !send(packet) { try decodeFrames(emit: emit) }
        try decodeFrames(emit: emit)
    }

    /// `AudioDecoder.send`, with a damaged packet counted and left out.
    private func send(_ packet: EncodedPacket?) throws(FFmpegError) -> Bool {
        do throws(FFmpegError) {
            return try decoder.send(packet)
        } catch where error.code == FFmpegError.invalidData {
            damagedPackets += 1
            return true
        }
    }

    /// `AudioDecoder.receive`, with a packet found damaged while decoding counted and left out.
    private func receive() throws(FFmpegError) -> Received<AudioFrame> {
        do throws(FFmpegError) {
            return try decoder.receive()
        } catch where error.code == FFmpegError.invalidData {
            damagedPackets += 1
            return .needsInput
        }
    }

    /// Drains the decoder and the pipeline (the last short frame padded as the encoder needs) and
    /// hands `emit` the rest. Takes no more packets after this; calling it again does nothing.
    package func finish(emit: (EncodedPacket) throws(FFmpegError) -> Void) throws(FFmpegError) {
        guard !finished else { return }
        _ = try send(nil)
        try decodeFrames(emit: emit)
        finished = true
        guard started else { return }
        try pipeline.finish { p throws(FFmpegError) in try emit(stamped(p)) }
    }

    private func decodeFrames(emit: (EncodedPacket) throws(FFmpegError) -> Void) throws(FFmpegError) {
        while case .output(let frame) = try receive() {
            let pts = frame.pointer.pointee.pts
            let start = pts == CFFMPEG_NOPTS ? nil : Timestamp(value: pts, timeBase: decoder.timeBase).rescaled(to: outputTimeBase).value
            let placement: AudioPlacement
            if started {
                guard frame.format == inputFormat else {
                    throw FFmpegError(code: cffmpeg_averror(EINVAL), operation:
                        "the source's sound changed from \(inputFormat) to \(frame.format) mid-stream; start a new transcoder")
                }
                placement = continuity.place(start: start, samples: frame.sampleCount, position: pipeline.position)
            } else {
                try begin(with: frame, at: start ?? lastInput?.rescaled(to: outputTimeBase).value ?? 0)
                placement = .asIs
            }
            try pipeline.encode(frame, placement: placement) { p throws(FFmpegError) in try emit(stamped(p)) }
        }
    }

    /// The first run: a pipeline for its format if the decoder's first guess was wrong, started
    /// at the run's time.
    private func begin(with frame: AudioFrame, at position: Int64) throws(FFmpegError) {
        if frame.format != inputFormat {
            pipeline = try AudioPipeline(encoding: encoding, input: frame.format)
            inputFormat = frame.format
            continuity = SoundContinuity(inputRate: frame.format.sampleRate, outputRate: encoding.sampleRate)
        }
        pipeline.start(at: position)
        started = true
    }

    private func stamped(_ packet: EncodedPacket) -> EncodedPacket {
        var out = packet
        out.stream = stream
        out.streamIndex = streamIndex
        let time = out.presentationTime.rescaled(to: .microseconds).value
        out.captureTime = .microseconds(captureOffset.map { time + $0 } ?? time)
        return out
    }
}
