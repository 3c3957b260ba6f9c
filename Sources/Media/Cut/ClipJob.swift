import CFFmpeg
import Foundation
import RecCore

/// One clip being written: owns the muxer, and the decoder/encoder of any re-encoded segment.
final class ClipJob {
    let source: ClipSource
    let plan: CutPlan
    let container: ContainerFormat
    let reencode: EncoderSettings?
    /// The movie time scale asked of the MP4 muxer: the video time base's, so the edit list's
    /// duration is exact in the same units as the samples.
    let movieTimeScale: Int32
    private let offset: Int64
    private var lastDTS: Int64 = .min
    private var spliceEncoder: VideoEncoder?
    private let progress: ((Double) -> Void)?
    private var written = 0
    private var lastReported = -1

    init(source: ClipSource, plan: CutPlan, container: ContainerFormat, reencode: EncoderSettings?,
         progress: ((Double) -> Void)? = nil) throws(RecError) {
        self.progress = progress
        self.source = source
        self.plan = plan
        self.container = container
        self.reencode = reencode
        self.offset = plan.firstPresentedPTS
        let tb = plan.timeBase
        self.movieTimeScale = tb.num == 1 && tb.den >= 1000 ? tb.den : 90_000
    }

    /// The other streams the container takes, and a note for each it does not.
    private(set) lazy var keptStreams: [ClipSource.Stream] = source.others.filter { container.cannotHold($0.parameters) == nil }
    var leftOut: [String] { source.others.compactMap { container.cannotHold($0.parameters) } }

    /// Writes the clip to `path`; returns how many packets of other streams it kept.
    func run(to path: String) throws -> Int {
        var videoParameters = source.video.parameters
        if let reencode {
            let settings = try adjusted(reencode)
            let encoder = try VideoEncoder(settings)
            spliceEncoder = encoder
            videoParameters = encoder.parameters
        }
        var options: [String: String] = [:]
        if container.hasEditLists {
            options["movie_timescale"] = String(movieTimeScale)
            // Fast start without a second pass: room for the index is kept at the front (about
            // 40 bytes a sample is plenty: size, offset, times, flags).
            let samples = source.video.packets.count + keptStreams.reduce(0) { $0 + $1.packets.count }
            options["moov_size"] = String(16_384 + 48 * samples)
        }
        let muxer = try Muxer(path: path, container: container.muxerName,
                              streams: [videoParameters] + keptStreams.map(\.parameters), options: options)
        // Once a re-encoded segment has put its own parameter sets in a decoder, every copied
        // keyframe carries the source's in-band: whichever keyframe a player seeks to decodes
        // with the parameter sets it was encoded with.
        let repeatSets = plan.needsReencode && reencode == nil
        for segment in plan.segments {
            switch segment {
            case .copy(let range):
                for i in range {
                    var p = source.video.packets[i]
                    if repeatSets && p.isKeyframe { p.data = withParameterSets(p.data) }
                    try write(&p, to: muxer)
                }
            case .reencode(let decode, let present):
                try reencodeSegment(decode: decode, present: present, muxer: muxer)
            }
        }
        let kept = try writeOthers(to: muxer)
        try muxer.finish()
        return kept
    }

    /// Shifts a video packet onto the clip's timeline and writes it. Decode times stay increasing
    /// where a re-encoded segment (no reordering) meets a copied one (B-frame delay): Matroska
    /// keeps no dts, and MP4 only needs them increasing and not after pts.
    private func write(_ p: inout EncodedPacket, to muxer: Muxer) throws {
        p.streamIndex = 0
        p.move(back: Timestamp(value: offset, timeBase: plan.timeBase), after: &lastDTS)
        if p.dts > p.pts && plan.strategy == .spliceReencode {
            p.dts = p.pts
            lastDTS = p.dts
        }
        p.isHidden = false
        try muxer.write(p)
        written += 1
        if let progress {
            let percent = written * 100 / max(1, plan.presentedFrames + plan.prerollFrames + plan.trailingHiddenFrames)
            if percent / 5 != lastReported { lastReported = percent / 5; progress(min(1, Double(percent) / 100)) }
        }
    }

    private func adjusted(_ settings: EncoderSettings) throws(RecError) -> EncoderSettings {
        guard settings.encoder != "copy" else {
            throw .usage("--reencode needs a preset that encodes; 'copy' presets store camera frames as they come")
        }
        var s = settings
        let v = source.video.parameters
        s.width = v.width
        s.height = v.height
        s.timeBase = plan.timeBase
        if s.pixelFormat == .none { s.pixelFormat = VideoEncoder.bestPixelFormat(encoder: s.encoder, for: v.pixelFormat) }
        if let family = EncoderCatalog.codecFamily(of: s.encoder) { try container.check(codec: family) }
        return s
    }

    private func reencodeSegment(decode: Range<Int>, present: Range<Int64>, muxer: Muxer) throws {
        let packets = source.video.packets
        let decoder = try VideoDecoder(parameters: source.video.parameters)
        let encoder: VideoEncoder
        if let e = spliceEncoder, reencode != nil { encoder = e } else {
            encoder = try VideoEncoder(ReencodeSettings.splice(source: source.video.parameters,
                                                               frameRate: source.video.frameRate))
            if source.video.parameters.codecName == "ffv1" && encoder.parameters.extradata != source.video.parameters.extradata {
                throw RecError.usage("this FFV1 stream was encoded with settings rec cannot match, so its start cannot be re-encoded to splice; "
                                     + "cut to .mov (an edit list keeps it exact without re-encoding), or use --keyframe or --reencode")
            }
        }
        var durations: [Int64: Int64] = [:]
        for i in decode { durations[packets[i].pts] = packets[i].duration }
        var scaler: Scaler?
        let target = VideoFormat(width: encoder.settings.width, height: encoder.settings.height,
                                 pixelFormat: encoder.settings.pixelFormat)
        func drainEncoder() throws {
            while case .output(var p) = try encoder.receive() {
                p.duration = durations[p.pts] ?? 0
                if reencode == nil, let info = nalInfo, NALUnits.isAnnexB(p.data) {
                    p.data = NALUnits.lengthPrefixed(NALUnits.splitAnnexB(p.data), lengthSize: info.lengthSize)
                }
                try write(&p, to: muxer)
            }
        }
        func take(_ frame: VideoFrame) throws {
            let pts = frame.pointer.pointee.pts
            guard present.contains(pts) else { return }
            var f = frame
            if f.format != target {
                if scaler == nil { scaler = try Scaler(from: f.format, to: target) }
                f = try scaler!.scale(f)
            }
            f.pointer.pointee.pts = Timestamp.rescale(pts, from: plan.timeBase, to: encoder.timeBase)
            f.pointer.pointee.pict_type = AV_PICTURE_TYPE_NONE
            try encoder.send(f.pointer)
            try drainEncoder()
        }
        func drainDecoder() throws {
            while case .output(let frame) = try decoder.receive() { try take(frame) }
        }
        for i in decode {
            var p = packets[i]
            p.isHidden = false
            while !(try decoder.send(p)) { try drainDecoder() }
            try drainDecoder()
        }
        try decoder.send(nil)
        try drainDecoder()
        try encoder.send(nil)
        try drainEncoder()
    }

    private var isH26x: Bool {
        let codec = source.video.parameters.codecName
        return codec == "h264" || codec == "hevc"
    }

    /// The source header's NAL length size and parameter sets when it is avcC/hvcC (files); nil
    /// when it is Annex B (rec's own encoder output, as in the ring), where packets are too.
    private var nalInfo: (lengthSize: Int, sets: [ArraySlice<UInt8>])? {
        guard isH26x else { return nil }
        let v = source.video.parameters
        return NALUnits.parameterSets(extradata: v.extradata, hevc: v.codecName == "hevc")
    }

    /// The source's own parameter sets in-band before a copied keyframe, so a decoder that has
    /// seen a re-encoded segment's parameter sets switches back.
    private func withParameterSets(_ data: [UInt8]) -> [UInt8] {
        guard isH26x else { return data }
        if let info = nalInfo { return NALUnits.lengthPrefixed(info.sets, lengthSize: info.lengthSize) + data }
        let header = source.video.parameters.extradata
        return NALUnits.isAnnexB(header) ? header + data : data
    }

    /// Packets of the other streams presented within the clip, shifted onto its timeline.
    private func writeOthers(to muxer: Muxer) throws -> Int {
        let start = Timestamp(value: plan.firstPresentedPTS, timeBase: plan.timeBase)
        let end = Timestamp(value: plan.presentedEndPTS, timeBase: plan.timeBase)
        var kept = 0
        for (n, stream) in keptStreams.enumerated() {
            var last: Int64 = .min
            for var p in stream.packets {
                let t = p.presentationTime
                guard t >= start, t < end else { continue }
                p.move(back: start, after: &last)
                p.streamIndex = n + 1
                try muxer.write(p)
                kept += 1
            }
        }
        return kept
    }
}
