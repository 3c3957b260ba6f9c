import CFFmpeg

/// Sample format, rate and channel conversion with libswresample, and the clock model's two
/// corrections done inside it, so they land in the right place among the samples it still holds:
/// silence (`swr_inject_silence`) and soft compensation (`swr_set_compensation`). Owns one
/// `SwrContext` and its output buffer; one thread (the audio thread).
///
/// Between equal rates the context only converts format and channels, sample for sample, with no
/// delay, so PCM and FLAC keep every sample exact. The first compensation turns resampling on
/// (`swr_set_compensation` re-initialises the context with `SWR_FLAG_RESAMPLE`), after handing
/// out whatever the context still holds so that nothing is lost; from then on it resamples.
final class AudioResampler {
    private let context: OpaquePointer
    let input: AudioFormat
    let output: AudioFormat
    /// Converted samples, one pointer per plane (one for packed formats), `capacity` long.
    private let planes: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>
    private var capacity = 0
    /// The part of an input sample that silence converted to the input rate has not yet written,
    /// in 1/output-rate input samples, so that silence never drifts by rounding.
    private var silenceCarry: Int64 = 0
    /// Whether the context runs its resampling filter: when the rates differ, or once compensated.
    private(set) var resampling: Bool

    /// The corresponding C functions are `swr_alloc_set_opts2` and `swr_init`.
    init(from input: AudioFormat, to output: AudioFormat) throws(FFmpegError) {
        var inLayout = AVChannelLayout(), outLayout = AVChannelLayout()
        defer {
            av_channel_layout_uninit(&inLayout)
            av_channel_layout_uninit(&outLayout)
        }
        try ChannelLayout.set(&inLayout, channels: input.channels)
        try ChannelLayout.set(&outLayout, channels: output.channels)
        var swr: OpaquePointer? = nil
        try check(swr_alloc_set_opts2(&swr, &outLayout, AVSampleFormat(rawValue: output.sampleFormat), Int32(output.sampleRate),
                                      &inLayout, AVSampleFormat(rawValue: input.sampleFormat), Int32(input.sampleRate), 0, nil),
                  "swr_alloc_set_opts2(\(input) → \(output))")
        let context = try allocated(swr, "swr_alloc_set_opts2")
        do throws(FFmpegError) {
            if input.channels == 1 { try Self.spreadMono(context, to: &outLayout) }
            try check(swr_init(context), "swr_init(\(input) → \(output))")
        } catch {
            var s: OpaquePointer? = context
            swr_free(&s)
            throw error
        }
        self.context = context
        self.input = input
        self.output = output
        resampling = input.sampleRate != output.sampleRate
        planes = .allocate(capacity: 8)
        planes.initialize(repeating: nil, count: 8)
    }

    /// A mono microphone at full level on the left and the right, as if both heard it, rather than
    /// libswresample's default of -3 dB on each (a centre channel spread over two): when the output
    /// has no front centre, front left and right each get the mono channel at unity. The
    /// corresponding C functions are `av_channel_layout_index_from_channel` and `swr_set_matrix`.
    private static func spreadMono(_ context: OpaquePointer, to layout: UnsafePointer<AVChannelLayout>) throws(FFmpegError) {
        guard av_channel_layout_index_from_channel(layout, AV_CHAN_FRONT_CENTER) < 0 else { return }
        var matrix = [Double](repeating: 0, count: Int(layout.pointee.nb_channels))
        for side in [AV_CHAN_FRONT_LEFT, AV_CHAN_FRONT_RIGHT] {
            let index = av_channel_layout_index_from_channel(layout, side)
            if index >= 0 { matrix[Int(index)] = 1 }
        }
        try check(swr_set_matrix(context, matrix, 1), "swr_set_matrix(mono → \(layout.pointee.nb_channels) ch)")
    }

    deinit {
        av_freep(planes)
        planes.deallocate()
        var s: OpaquePointer? = context
        swr_free(&s)
    }

    /// What the context holds and has not yet given out, in output samples: the input it has
    /// buffered, silence included. The corresponding C function is `swr_get_delay`.
    var delay: Int64 { swr_get_delay(context, Int64(output.sampleRate)) }

    /// Queues `count` output-rate samples of silence after everything given so far, converted to
    /// the input rate with the rounding carried to the next call. The corresponding C function is
    /// `swr_inject_silence`.
    func injectSilence(_ count: Int) throws(FFmpegError) {
        let exact = Int64(count) * Int64(input.sampleRate) + silenceCarry
        let rate = Int64(output.sampleRate)
        let samples = (exact + rate / 2) / rate
        silenceCarry = exact - samples * rate
        if samples > 0 { try check(swr_inject_silence(context, Int32(samples)), "swr_inject_silence(\(samples))") }
    }

    /// Makes `delta` more (or fewer) output samples than plain conversion over the next
    /// `distance` output samples. When that turns resampling on, what the context holds (silence
    /// queued with nothing after it) is handed to `body` first. The corresponding C function is
    /// `swr_set_compensation`.
    func compensate(_ delta: Int, over distance: Int,
                    _ body: (UnsafePointer<UnsafeMutablePointer<UInt8>?>, Int) throws(FFmpegError) -> Void) throws(FFmpegError) {
        if !resampling {
            try convert(nil, body)  // without a resampler this only empties the buffer: no flush padding
            resampling = true
        }
        try check(swr_set_compensation(context, Int32(delta), Int32(distance)), "swr_set_compensation(\(delta), \(distance))")
    }

    /// Converts `count` samples of a frame from sample `offset` on (nil: drains what the context
    /// holds, at the end) and hands the converted run to `body`: per-plane pointers, valid only
    /// during the call, and the sample count. The corresponding C functions are
    /// `swr_get_out_samples`, `av_samples_alloc` and `swr_convert`.
    func convert(_ frame: UnsafePointer<AVFrame>?, offset: Int = 0, count: Int = 0,
                 _ body: (UnsafePointer<UnsafeMutablePointer<UInt8>?>, Int) throws(FFmpegError) -> Void) throws(FFmpegError) {
        let room = try check(swr_get_out_samples(context, Int32(count)), "swr_get_out_samples")
        try reserve(Int(room))
        let made: Int32
        if let frame {
            let fmt = AVSampleFormat(rawValue: input.sampleFormat)
            let planar = av_sample_fmt_is_planar(fmt) != 0
            let step = offset * Int(av_get_bytes_per_sample(fmt)) * (planar ? 1 : input.channels)
            var source: [UnsafePointer<UInt8>?] = []
            for plane in 0..<(planar ? input.channels : 1) {
                guard let data = frame.pointee.extended_data?[plane] else {
                    throw FFmpegError(code: cffmpeg_averror(EINVAL), operation: "swr_convert(\(input) → \(output)): the frame has no plane \(plane)")
                }
                source.append(UnsafePointer(data + step))
            }
            made = source.withUnsafeMutableBufferPointer { swr_convert(context, planes, Int32(capacity), $0.baseAddress, Int32(count)) }
        } else {
            made = swr_convert(context, planes, Int32(capacity), nil, 0)
        }
        try check(made, "swr_convert(\(input) → \(output))")
        if made > 0 { try body(planes, Int(made)) }
    }

    /// Grows the output buffer to hold at least `samples`.
    private func reserve(_ samples: Int) throws(FFmpegError) {
        guard samples > capacity else { return }
        let size = max(samples, 2 * capacity, 4096)
        av_freep(planes)
        capacity = 0
        try check(av_samples_alloc(planes, nil, Int32(output.channels), Int32(size), AVSampleFormat(rawValue: output.sampleFormat), 0),
                  "av_samples_alloc(\(size))")
        capacity = size
    }
}
