import CFFmpeg
import Media
import RecCore

/// Frame in, packets out: the optional filter graph, pixel conversion when the encoder needs
/// another format or size, and the encoder. Owned by the encode thread.
///
/// Time: a frame's capture time (microseconds, session timeline) is rescaled exactly once into the
/// encoder's time base. Two frames that would land on the same tick (faster than the time base can
/// tell apart) keep their order: the later one moves one tick on, so pts stay strictly increasing.
///
/// Durations: encoders leave packet durations empty, so a frame's duration is the gap to the next
/// frame (variable frame rate kept), and a packet is handed on once its frame's duration is known —
/// usually at once, since encoders hold frames back longer than one frame; the last frame lasts as
/// long as the one before it (or one nominal frame). `DurationFiller` keeps that account.
package final class EncodingPipeline {
    package let encoder: VideoEncoder
    private let filter: FilterGraph?
    private var scaler: Scaler?
    private var lastPTS: Int64 = .min
    /// Each frame's capture time by the pts it was given, until its packet comes out.
    private var captureTimes: [Int64: Timestamp] = [:]
    /// Frames' presentation times as they go in, and packets waiting for their durations.
    private var durations = DurationFiller()
    /// Keyframes by the pictures' times, for a source whose pictures come unevenly (a screen);
    /// nil leaves them to the encoder's GOP size.
    package var keyframes: KeyframeSchedule?
    package private(set) var framesIn = 0
    package private(set) var framesEncoded = 0

    /// Why a pipeline could not be set up: its filter graph (the user's `--filter`), or its encoder.
    package enum SetupError: Error, Sendable {
        case filter(FFmpegError)
        case encoder(FFmpegError)

        package var underlying: FFmpegError {
            switch self {
            case .filter(let e), .encoder(let e): e
            }
        }
    }

    /// - Parameters:
    ///   - settings: the encoder; its width and height are taken from the (filtered) input when
    ///     zero, and its pixel format when `.none` is the input's if the encoder takes it, else the
    ///     closest one it does (`avcodec_find_best_pix_fmt_of_list`). Its colour is set here.
    ///   - input: what the source delivers.
    ///   - colour: what the source's frames say about their colour and pixel shape (the first
    ///     frame's `VideoFrame.colour`); the recording is tagged with it (`ColourPolicy.target`).
    ///   - filter: a libavfilter graph description, or nil.
    ///
    /// `yuvj*` input is relabelled as the plain format with full range (`ColourPolicy`), and a
    /// preset's `yuvj*` format means "the plain one, full range": encoders are never given `yuvj*`,
    /// and FFV1 keeps an MJPEG camera's pixels exactly.
    package init(settings: EncoderSettings, input: VideoFormat, colour: ColourDescription = .unspecified,
                filter: String?) throws(SetupError) {
        var settings = settings
        var input = input
        var colour = colour
        if let plain = input.pixelFormat.plainForJPEG {
            input.pixelFormat = plain
            colour.range = .full
        }
        var filtered = input
        if let filter, !filter.isEmpty {
            let graph: FilterGraph
            do { graph = try FilterGraph(filter, input: input, aspect: colour.sampleAspect) } catch { throw .filter(error) }
            self.filter = graph
            filtered = graph.output
            colour.sampleAspect = graph.outputAspect
        } else {
            self.filter = nil
        }
        if settings.width == 0 || settings.height == 0 {
            settings.width = filtered.width
            settings.height = filtered.height
        }
        var forceFull = false
        if let plain = settings.pixelFormat.plainForJPEG {
            settings.pixelFormat = plain
            forceFull = true
        }
        if settings.pixelFormat == .none {
            settings.pixelFormat = VideoEncoder.bestPixelFormat(encoder: settings.encoder, for: filtered.pixelFormat)
        }
        settings.colour = ColourPolicy.target(source: colour, sourceIsRGB: filtered.pixelFormat.isRGB,
                                              targetIsRGB: settings.pixelFormat.isRGB,
                                              sameLayout: filtered.pixelFormat == settings.pixelFormat,
                                              forceFullRange: forceFull)
        do { self.encoder = try VideoEncoder(settings) } catch { throw .encoder(error) }
    }

    /// A pipeline for `frame`'s format and colour, and its field order when it is interlaced.
    package convenience init(settings: EncoderSettings, first frame: VideoFrame, filter: String?) throws(SetupError) {
        var settings = settings
        if frame.pointer.pointee.interlaced_frame != 0 { settings.interlacedTopFirst = frame.pointer.pointee.top_field_first != 0 }
        try self.init(settings: settings, input: frame.format, colour: frame.colour, filter: filter)
    }

    /// The format frames must have when they reach the encoder.
    package var encoderFormat: VideoFormat {
        VideoFormat(width: encoder.settings.width, height: encoder.settings.height, pixelFormat: encoder.settings.pixelFormat)
    }

    /// Encodes one frame and hands every packet that is ready to `emit`.
    package func encode(_ frame: VideoFrame, emit: (EncodedPacket) throws(FFmpegError) -> Void) throws(FFmpegError) {
        framesIn += 1
        let frame = try frame.plainJPEGFormat()
        if let filter {
            for f in try filter.process(frame) { try encodeFiltered(f, emit: emit) }
        } else {
            try encodeFiltered(frame, emit: emit)
        }
    }

    /// Drains the filter graph and the encoder.
    package func finish(emit: (EncodedPacket) throws(FFmpegError) -> Void) throws(FFmpegError) {
        if let filter {
            for f in try filter.process(nil) { try encodeFiltered(f, emit: emit) }
        }
        try encoder.sendEnd()
        try drain(emit: emit)
        let oneFrame = Timestamp.rescale(1, from: encoder.settings.frameRate.inverted, to: encoder.timeBase)
        for packet in durations.finish(lone: oneFrame) { try emit(stamped(packet)) }
    }

    /// The packet with its frame's capture time, so a save reports the frames' own times.
    private func stamped(_ packet: EncodedPacket) -> EncodedPacket {
        var packet = packet
        packet.captureTime = captureTimes.removeValue(forKey: packet.pts)
        return packet
    }

    private func encodeFiltered(_ frame: VideoFrame, emit: (EncodedPacket) throws(FFmpegError) -> Void) throws(FFmpegError) {
        var frame = try frame.plainJPEGFormat()  // a filter may make yuvj* frames
        let target = encoder.settings.colour
        let colour = frame.colour
        if frame.format != encoderFormat || ColourPolicy.needsConversion(from: colour, to: target) {
            let reusable = scaler.flatMap { $0.input == frame.format && $0.colour?.from == colour ? $0 : nil }
            let scaler: Scaler
            if let reusable { scaler = reusable } else {
                scaler = try Scaler(from: frame.format, to: encoderFormat, colour: (colour, target))
            }
            self.scaler = scaler
            frame = try scaler.scale(frame)
        }
        var pts = frame.captureTime.rescaled(to: encoder.timeBase).value
        if pts <= lastPTS { pts = lastPTS + 1 }
        lastPTS = pts
        captureTimes[pts] = frame.captureTime
        // A frame the encoder never gave back (none of FFmpeg's do) must not be kept forever.
        if captureTimes.count > 256, let oldest = captureTimes.keys.min() { captureTimes[oldest] = nil }
        for packet in durations.present(pts) { try emit(stamped(packet)) }
        let key = keyframes?.isDue(at: frame.captureTime.rescaled(to: .microseconds).value) ?? false
        try encoder.send(frame, pts: pts, keyframe: key)
        framesEncoded += 1
        try drain(emit: emit)
    }

    private func drain(emit: (EncodedPacket) throws(FFmpegError) -> Void) throws(FFmpegError) {
        while true {
            switch try encoder.receive() {
            case .output(let packet): for ready in durations.push(packet) { try emit(stamped(ready)) }
            case .needsInput, .endOfStream: return
            }
        }
    }
}
