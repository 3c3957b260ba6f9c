import CFFmpeg
import RecCore

/// One re-encoded segment of a clip, fed packet by packet: decodes them, re-encodes the frames
/// presented in `present` and hands each packet it makes to `emit`. Holds only the codecs' own
/// buffers, however long the segment.
final class SpliceSegment {
    private let decoder: VideoDecoder
    private let encoder: VideoEncoder
    private let present: Range<Int64>
    private let timeBase: Rational
    private let durations: [Int64: Int64]
    private let target: VideoFormat
    private var scaler: Scaler?
    private let emit: (inout EncodedPacket) throws -> Void

    /// - Parameters:
    ///   - durations: the source frames' durations by pts (the encoder keeps pts, not durations).
    ///   - threads: decoder threads; 0 lets libavcodec choose.
    init(decoding parameters: CodecParameters, encoder: VideoEncoder, present: Range<Int64>, timeBase: Rational,
         durations: [Int64: Int64], threads: Int, emit: @escaping (inout EncodedPacket) throws -> Void) throws {
        decoder = try VideoDecoder(parameters: parameters, threads: threads)
        self.encoder = encoder
        self.present = present
        self.timeBase = timeBase
        self.durations = durations
        self.emit = emit
        target = VideoFormat(width: encoder.settings.width, height: encoder.settings.height,
                             pixelFormat: encoder.settings.pixelFormat)
    }

    /// Decodes one packet (decode order) and encodes what frames come out.
    func feed(_ packet: EncodedPacket) throws {
        var p = packet
        p.isHidden = false
        while !(try decoder.send(p)) { try drainDecoder() }
        try drainDecoder()
    }

    /// Flushes the decoder, then the encoder.
    func finish() throws {
        try decoder.send(nil)
        try drainDecoder()
        try encoder.sendEnd()
        try drainEncoder()
    }

    private func drainEncoder() throws {
        while case .output(var p) = try encoder.receive() {
            p.duration = durations[p.pts] ?? 0
            try emit(&p)
        }
    }

    private func drainDecoder() throws {
        while case .output(let frame) = try decoder.receive() { try take(frame) }
    }

    private func take(_ frame: VideoFrame) throws {
        let pts = frame.pointer.pointee.pts
        guard present.contains(pts) else { return }
        var f = frame
        if f.format != target {
            let s = try scaler ?? Scaler(from: f.format, to: target)
            scaler = s
            f = try s.scale(f)
        }
        try encoder.send(f, pts: Timestamp.rescale(pts, from: timeBase, to: encoder.timeBase))
        try drainEncoder()
    }
}
