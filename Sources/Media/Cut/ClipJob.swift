import CFFmpeg
import Foundation
import RecCore

/// One clip being written: owns the muxer, and the decoder/encoder of any re-encoded segment.
///
/// Packets stream through: the input replays them once in file order, each goes to the segments
/// of the plan that need it, and the muxer interleaves the streams by decode time. A segment
/// that is not yet being written (the copy after a re-encoded head, a tail decoded from a
/// copied keyframe) holds its packets until the segments before it are done: at most a GOP.
final class ClipJob {
    let input: any ClipInput
    var plan: CutPlan
    /// The video packets' timings the plan was made from (the input's, or as many as a
    /// streaming cut has read).
    var timings: [PacketTiming]
    let container: ContainerFormat
    let reencode: EncoderSettings?
    /// The movie time scale asked of the MP4 muxer: the video time base's, so the edit list's
    /// duration is exact in the same units as the samples.
    let movieTimeScale: Int32
    private let options: ClipWriter.Options
    private let offset: Int64
    private var lastDTS: Int64 = .min
    private var spliceEncoder: VideoEncoder?
    var written = 0
    private var lastReported = -1
    /// Video packets taken so far (their decode index).
    var videoTaken = 0
    /// Where the plan's segments stand while packets stream through.
    var router: SegmentRouter<EncodedPacket>
    private var splices: [Int: SpliceSegment] = [:]
    private var otherDTS: [Int: Int64] = [:]
    /// The latest presentation time of another stream's packet written while the plan's end was
    /// not yet known (a streaming cut's): the final end must come after it.
    var latestOther: Timestamp?
    /// Sound tracks cut to the sample, by stream.
    var sound: [StreamID: SoundTrackCut] = [:]
    var kept = 0
    private var muxer: Muxer?
    /// The samples the MP4 index has room for, when it has a reserve.
    var reservedSamples: Int?
    /// The video packets' decode times in write order (`CutPlan.decodeTimes`), in ticks of the
    /// plan's time base; empty for `--reencode`, whose encoder sets its own.
    var decodeTimes: [Int64] = []
    /// Whether copied keyframes carry the source's parameter sets (`CutPlan.carriesParameterSets`).
    var parameterSets: Bool?
    /// The share of the clip written is counted against this many frames, when the plan's count
    /// is not yet known.
    var expectedFrames: Int?

    init(input: any ClipInput, plan: CutPlan, container: ContainerFormat, reencode: EncoderSettings?,
         options: ClipWriter.Options) throws(RecError) {
        self.input = input
        self.plan = plan
        self.timings = input.timings
        self.container = container
        self.reencode = reencode
        self.options = options
        self.offset = plan.firstPresentedPTS
        let tb = plan.timeBase
        self.movieTimeScale = tb.num == 1 && tb.den >= 1000 ? tb.den : 90_000
        router = SegmentRouter(plan.segments)
    }

    /// The streams beside the video that the container takes, and a note for each it does not.
    private(set) lazy var keptStreams: [ClipTrack] = input.tracks.dropFirst().filter { container.cannotHold($0.parameters) == nil }
    /// Each stream's track in the clip: the video is the muxer's first, the kept streams follow.
    private lazy var outputIndex: [StreamID: Int] = Dictionary([(input.video.stream, 0)] + keptStreams.enumerated().map { ($1.stream, $0 + 1) }) { a, _ in a }
    var leftOut: [String] { input.tracks.dropFirst().compactMap { container.cannotHold($0.parameters) } }
    /// The clip's track IDs (1-based) of the sound tracks cut to the sample: their edit lists end
    /// where the pictures do.
    var soundTrackIDs: [UInt32] { sound.keys.compactMap { outputIndex[$0].map { UInt32($0 + 1) } }.sorted() }

    /// Writes the clip to `path`; returns how many packets of other streams it kept.
    func run(to path: String) throws -> Int {
        try open(to: path)
        try input.replay(take)
        return try close()
    }

    /// Opens the clip's muxer at `path`. `samples` bounds the packets the clip will hold (the
    /// MP4 index's room), when they are not yet counted (a range still being read).
    func open(to path: String, samples: Int? = nil) throws {
        var videoParameters = input.video.parameters
        if let reencode {
            let settings = try adjusted(reencode)
            let encoder = try VideoEncoder(settings)
            spliceEncoder = encoder
            videoParameters = encoder.parameters
        }
        var muxerOptions: [String: String] = [:]
        if container.hasEditLists {
            muxerOptions["movie_timescale"] = String(movieTimeScale)
            // Fast start without a second pass: room for the index is kept at the front, by the
            // same bound the recording's own rewrite uses (MoovReserve).
            let samples = samples ?? (input.video.packetCount + keptStreams.reduce(0) { $0 + $1.packetCount })
            reservedSamples = samples
            let extradata = videoParameters.extradata.count + keptStreams.reduce(0) { $0 + $1.parameters.extradata.count }
            muxerOptions["moov_size"] = String(MoovReserve.bytes(samples: samples, extradata: extradata))
            // The decode times lag the first frame (`decodeTimes`: B-frames, or a source that
            // declares them). Written as unsigned composition offsets, that lag became media time
            // before the first frame and an edit list starting past it, and VLC 3.0 then dropped
            // the second and third frames (38, 41–72 of 38–72). Signed offsets (`ctts` version 1)
            // start the media at the first frame, with no edit to honour. An `--edit-list` cut
            // hides its preroll with the edit list itself, as before.
            if plan.strategy != .editList { muxerOptions["movflags"] = "negative_cts_offsets" }
        }
        if parameterSets == nil { parameterSets = plan.carriesParameterSets(timings) }
        if reencode == nil && decodeTimes.isEmpty { decodeTimes = plan.decodeTimes(timings, reorderDepth: input.reorderDepth) }
        var streams = [videoParameters]
        for track in keptStreams {
            // A range still being read keeps every sound packet from the first on, until the end is known.
            let end = samples != nil ? plan.requestedTo : plan.presentedEnd
            if let cut = SoundTrackCut.plan(track, from: plan.presentedStart, to: end, container: container, open: samples != nil) {
                sound[track.stream] = cut
                streams.append(try cut.parameters(track.parameters))
            } else {
                streams.append(track.parameters)
            }
        }
        muxer = try Muxer(path: path, container: container.muxerName, streams: streams, options: muxerOptions,
                          dispositions: [input.video.disposition] + keptStreams.map(\.disposition), tags: container.preferredTags)
    }

    /// Takes the input's next packet (file order, as `replay` hands them over).
    func take(_ p: EncodedPacket) throws {
        if p.stream == input.video.stream {
            try video(p, index: videoTaken)
            videoTaken += 1
        } else if let out = outputIndex[p.stream] {
            if var cut = sound[p.stream] {
                let placed = cut.place(p)
                sound[p.stream] = cut
                if var placed {
                    placed.streamIndex = out
                    try writeToMuxer(placed)
                    kept += 1
                }
            } else {
                try other(p, to: out)
            }
        }
    }

    /// Finishes the clip once every packet was taken; returns how many packets of other streams it kept.
    func close() throws -> Int {
        guard router.isDone else {
            throw RecError.runtime("the source ended before the clip did (\(videoTaken) of \(timings.count) video packets read); is the file complete?")
        }
        guard let muxer else { throw RecError.runtime("the clip's muxer was never opened") }
        try muxer.finish()
        return kept
    }

    /// Closes the clip's file unfinished (the caller removes it).
    func abandon() {
        muxer?.abandon()
    }

    func writeToMuxer(_ p: EncodedPacket) throws {
        guard let muxer else { throw RecError.runtime("the clip's muxer was never opened") }
        try muxer.write(p)
    }

    /// Hands video packet `k` (decode order) to every segment that needs it: now to the one being
    /// written, later to those after it.
    private func video(_ p: EncodedPacket, index k: Int) throws {
        try router.arrive(p, index: k) { (event) throws(any Error) in try handle(event) }
    }

    /// Carries out what the router says is due.
    func handle(_ event: SegmentRouter<EncodedPacket>.Event) throws {
        switch event {
        case .deliver(let s, let packet): try deliver(packet, to: s)
        case .finish(let s): try splices.removeValue(forKey: s)?.finish()
        }
    }

    private func deliver(_ packet: EncodedPacket, to s: Int) throws {
        switch plan.segments[s] {
        case .copy:
            var p = packet
            // Once a re-encoded segment has put its own parameter sets in a decoder, every copied
            // keyframe carries the source's in-band: whichever keyframe a player seeks to decodes
            // with the parameter sets it was encoded with.
            if parameterSets == true && reencode == nil && p.isKeyframe { p.data = withParameterSets(p.data) }
            try write(&p)
        case .reencode(let decode, let present):
            let segment = try splices[s] ?? splice(decode: decode, present: present)
            splices[s] = segment
            try segment.feed(packet)
        }
    }

    /// A packet of another stream presented within the clip, shifted onto its timeline. Audio is
    /// not reordered: a decode time moved up to keep increasing moves its presentation too.
    private func other(_ packet: EncodedPacket, to index: Int) throws {
        let start = Timestamp(value: plan.firstPresentedPTS, timeBase: plan.timeBase)
        let t = packet.presentationTime
        guard t >= start else { return }
        if plan.presentedEndPTS == .max {
            // The end is not yet known (a streaming cut): the final plan's must come after this.
            latestOther = max(latestOther ?? t, t)
        } else {
            guard t < Timestamp(value: plan.presentedEndPTS, timeBase: plan.timeBase) else { return }
        }
        var p = packet
        var last = otherDTS[index] ?? .min
        p.move(back: start, after: &last)
        otherDTS[index] = last
        p.pts = max(p.pts, p.dts)
        p.streamIndex = index
        try writeToMuxer(p)
        kept += 1
    }

    /// Shifts a video packet onto the clip's timeline and writes it, with the decode time the plan
    /// gives it (`decodeTimes`): increasing, not after pts, and spanning what the clip presents,
    /// where a re-encoded segment (no reordering) meets a copied one (B-frame delay).
    private func write(_ p: inout EncodedPacket) throws {
        p.streamIndex = outputIndex[input.video.stream] ?? 0
        if written < decodeTimes.count { p.dts = Timestamp.rescale(decodeTimes[written], from: plan.timeBase, to: p.timeBase) }
        p.move(back: Timestamp(value: offset, timeBase: plan.timeBase), after: &lastDTS)
        if p.dts > p.pts && plan.strategy == .spliceReencode {
            p.dts = p.pts
            lastDTS = p.dts
        }
        p.isHidden = false
        try writeToMuxer(p)
        written += 1
        if let progress = options.progress {
            let percent = written * 100 / max(1, expectedFrames ?? (plan.presentedFrames + plan.prerollFrames + plan.trailingHiddenFrames))
            if percent / 5 != lastReported { lastReported = percent / 5; progress(min(1, Double(percent) / 100)) }
        }
    }

    private func adjusted(_ settings: EncoderSettings) throws(RecError) -> EncoderSettings {
        guard !settings.copiesInput else {
            throw .usage("--reencode needs a preset that encodes; 'copy' presets store camera frames as they come")
        }
        var s = settings
        let v = input.video.parameters
        s.width = v.width
        s.height = v.height
        s.timeBase = plan.timeBase
        if options.codecThreads > 0 { s.threads = options.codecThreads }
        if s.pixelFormat == .none { s.pixelFormat = VideoEncoder.bestPixelFormat(encoder: s.encoder, for: v.pixelFormat) }
        if let family = EncoderCatalog.codecFamily(of: s.encoder) { try container.check(codec: family) }
        return s
    }

    /// The decoder and encoder of one re-encoded segment.
    private func splice(decode: Range<Int>, present: Range<Int64>) throws -> SpliceSegment {
        let source = input.video
        let encoder: VideoEncoder
        if let e = spliceEncoder, reencode != nil { encoder = e } else {
            let settings = try ReencodeSettings.splice(source: source.parameters, frameRate: source.frameRate,
                                                       like: options.sessionEncoder)
            encoder = try VideoEncoder(settings)
            if source.parameters.codec == .ffv1 && encoder.parameters.extradata != source.parameters.extradata {
                throw RecError.usage("this FFV1 stream was encoded with settings rec cannot match, so its start cannot be re-encoded to splice; "
                                     + "cut to .mov (an edit list keeps it exact without re-encoding), or use --keyframe or --reencode")
            }
        }
        var durations: [Int64: Int64] = [:]
        for i in decode { durations[timings[i].pts] = timings[i].duration }
        let convert = reencode == nil ? nalInfo : nil
        return try SpliceSegment(decoding: source.parameters, encoder: encoder, present: present, timeBase: plan.timeBase,
                                 durations: durations, threads: reencode == nil ? 1 : options.codecThreads) { [unowned self] p in
            if let info = convert, NALUnits.isAnnexB(p.data) {
                p.data = NALUnits.lengthPrefixed(NALUnits.splitAnnexB(p.data), lengthSize: info.lengthSize)
            }
            try write(&p)
        }
    }

    private var isH26x: Bool {
        let codec = input.video.parameters.codecName
        return codec == "h264" || codec == "hevc"
    }

    /// The source header's NAL length size and parameter sets when it is avcC/hvcC (files); nil
    /// when it is Annex B (rec's own encoder output, as in the ring), where packets are too.
    private var nalInfo: (lengthSize: Int, sets: [ArraySlice<UInt8>])? {
        guard isH26x else { return nil }
        let v = input.video.parameters
        return NALUnits.parameterSets(extradata: v.extradata, hevc: v.codec == .hevc)
    }

    /// The source's own parameter sets in-band before a copied keyframe, so a decoder that has
    /// seen a re-encoded segment's parameter sets switches back.
    private func withParameterSets(_ data: [UInt8]) -> [UInt8] {
        guard isH26x else { return data }
        if let info = nalInfo { return NALUnits.lengthPrefixed(info.sets, lengthSize: info.lengthSize) + data }
        let header = input.video.parameters.extradata
        return NALUnits.isAnnexB(header) ? header + data : data
    }
}
