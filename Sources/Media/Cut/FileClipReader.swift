import Glibc
import RecCore

/// Reads what a cut of `[from, to)` needs from a file: the video packets from the keyframe at or
/// before `from` up to the first one that decodes at or after `to` (packets come in decode order
/// and no frame decodes after it is presented, so every frame before `to` is then in hand), and
/// the other streams' packets until they too pass `to`. Seeks first, so a cut late in a long file
/// reads only its own part.
///
/// The scan gives the planner the packets' times and flags (a `FileClip`), and the clip writer
/// then has the packets from `replay`, one at a time. How often the range's bytes are read:
/// - An MP4 or MOV with a complete sample table whose streams need no parser is skimmed
///   (`Demuxer.Reading.skimming`): the scan reads the sample table, not the samples, and the
///   replay reads the samples. Both take the packets as the container stores them (`.unparsed`),
///   so they see the same ones.
/// - Any other file (Matroska, WebM, fragmented MP4, MPEG-TS) has its samples only where they are
///   stored, so the scan reads them. A range whose packets come to at most `keeping` bytes
///   (`FileClip.heldLimit`) is read once: the scan keeps its packets by reference (no byte copied)
///   and the replay hands those over. A longer range (estimated from the file's average rate
///   before reading, or found so as the packets are read) is not kept, so memory stays flat
///   however long the clip, and the replay reads its packets again; `cut` instead writes such a
///   range as it reads it (`StreamingClip`), once.
///
/// Times are on the file's timeline: 0 is the first video frame (the stream's start time).
package struct FileClipReader {
    package let path: String
    package let demuxer: Demuxer
    package let videoIndex: Int
    /// The video stream's start, in its time base; 0 on the file's timeline.
    package let start: Timestamp
    /// The file's length from its first video frame, if the container knows it.
    package let length: Timestamp?
    /// How the scan reads: `.skimming` when the samples are skipped, else `.normal`.
    package let reading: Demuxer.Reading

    /// Opens `path`; `skim` false reads every byte of the range even where skimming would do.
    package init(path: String, skim: Bool = true) throws(RecError) {
        self.path = path
        do {
            if skim, Self.hasOneSampleTable(path), let d = try? Demuxer(path: path, reading: .skimming), Self.canSkim(d) {
                demuxer = d
                reading = .skimming
            } else {
                demuxer = try Demuxer(path: path)
                reading = .normal
            }
        } catch {
            let why = error.reason.map { " (FFmpeg says: \($0))" } ?? ""
            throw .usage("cannot read \(path) as a video\(why); is it a complete media file FFmpeg supports?", cause: error.description)
        }
        guard let v = demuxer.bestVideoStream else { throw .usage("\(path) has no video stream to cut") }
        videoIndex = v
        let stream = demuxer.streams[v]
        start = Timestamp(value: stream.startTime ?? 0, timeBase: stream.timeBase)
        if let d = stream.duration {
            length = Timestamp(value: d, timeBase: stream.timeBase)
        } else if let d = demuxer.duration {
            length = d
        } else {
            length = Self.scannedLength(path, video: v, start: start)
        }
    }

    /// The length of a file that does not say it (a Matroska file its recorder never finished:
    /// a session killed with kill -9): the end of its last video packet, read to the end without
    /// the payloads. Nil when it cannot be read.
    static func scannedLength(_ path: String, video: Int, start: Timestamp) -> Timestamp? {
        guard let reader = try? Demuxer(path: path) else { return nil }
        var end: Timestamp?
        while let packet = try? reader.readMetadata() {
            guard packet.streamIndex == video else { continue }
            let packetEnd = Timestamp(value: packet.pts + max(0, packet.duration), timeBase: packet.timeBase)
            if end.map({ packetEnd > $0 }) ?? true { end = packetEnd }
        }
        guard let end else { return nil }
        let micros = end.rescaled(to: .microseconds).value - start.rescaled(to: .microseconds).value
        return micros > 0 ? .microseconds(micros) : nil
    }

    package var video: Demuxer.Stream { demuxer.streams[videoIndex] }

    /// Codecs whose MP4 samples are whole packets as they stand, so that reading them without
    /// libavformat's parsers gives what a decoder or muxer needs.
    static let wholeSampleCodecs: Set<String> = ["h264", "hevc", "av1", "vp9", "vp8", "prores", "mjpeg", "ffv1", "dnxhd",
                                                  "rawvideo", "aac", "opus", "alac", "flac"]

    /// Whether the file's top-level boxes are those of an MP4/MOV with one sample table: an ISO
    /// file type box first (`ftyp`: MP4, MOV from most cameras, 3GP) and no fragments (`moof`,
    /// `sidx`, `mfra`: a fragmented file indexes its samples only as it reaches them). Reads the
    /// box headers only, at most 64; without blocking (a FIFO without a writer would wait).
    static func hasOneSampleTable(_ path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return false }
        let size = UInt64(info.st_size)
        var offset: UInt64 = 0
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in 0..<64 {
            guard offset < size else { return index > 0 }
            let n = pread(fd, &bytes, 16, off_t(offset))
            guard n >= 8, let box = MP4BoxHeader(Array(bytes.prefix(n)), remaining: size - offset) else { return false }
            if index == 0 && box.type != "ftyp" { return false }
            if ["moof", "sidx", "mfra"].contains(box.type) { return false }
            offset += box.size
        }
        return false
    }

    /// Whether `demuxer` (opened skimming) can skip its picture and sound samples: an MP4/MOV
    /// whose every picture and sound codec is whole-sample and whose sample table is complete.
    static func canSkim(_ demuxer: Demuxer) -> Bool {
        guard demuxer.formatName.hasPrefix("mov") else { return false }
        let media = demuxer.streams.filter { $0.parameters.isAudio || $0.parameters.isVideo }
        guard media.allSatisfy({ wholeSampleCodecs.contains($0.parameters.codecName) }) else { return false }
        return demuxer.skipSamples(of: media.map(\.index))
    }

    /// Whether the packets of a cut of `[from, to)` are likely to come to at most `limit` bytes:
    /// the file's bytes spread evenly over its length, for the range and a second more (the
    /// keyframe before `from`, the sound read ahead of it).
    func likelyFits(from: Timestamp, to: Timestamp, limit: Int) -> Bool {
        var info = stat()
        guard limit > 0, let length, length.seconds > 0, stat(path, &info) == 0 else { return false }
        return Double(info.st_size) * (to.seconds - from.seconds + 1) / length.seconds <= Double(limit)
    }

    /// Scans the packets for a cut of `[from, to)` (file timeline), in stream time with the file's
    /// own timestamps, durations filled. Returns the clip's input and the range in stream time.
    /// Unless skimming, the range's packets are kept for the replay while their bytes come to at
    /// most `keeping`.
    package func read(from: Timestamp, to: Timestamp,
                     keeping limit: Int = FileClip.heldLimit) throws(RecError) -> (source: FileClip, from: Timestamp, to: Timestamp) {
        try read(from: from, to: to, keeping: limit, streaming: nil)
    }

    /// A time on the file's timeline in the video stream's time.
    func streamTime(_ t: Timestamp) -> Timestamp {
        let tb = video.timeBase
        return Timestamp(value: start.rescaled(to: tb).value + t.rescaled(to: tb).value, timeBase: tb)
    }

    /// `read`, handing every packet to `streaming` as it is read (`cut`).
    func read(from: Timestamp, to: Timestamp, keeping limit: Int,
              streaming: StreamingClip?) throws(RecError) -> (source: FileClip, from: Timestamp, to: Timestamp) {
        let tb = video.timeBase
        let (absFrom, absTo) = (streamTime(from), streamTime(to))
        // Per stream, indexed by the file's stream index (a handful): packets read, and sound's
        // timings. Worked in arrays rather than sets and dictionaries: this runs for each of the
        // range's packets, 77,000 in 17 minutes of video and sound.
        let streamCount = demuxer.streams.count
        var filler = DurationFiller()
        var timings: [PacketTiming] = []
        var counts: [Int] = []
        var soundTimings: [[PacketTiming]] = []
        var total = 0
        // The packets read, payloads by reference, while they fit `limit`; not when skimming (that
        // scan leaves the samples unread), nor when the range looks larger than `limit` from the
        // start (holding it for a while would only raise the scan's peak memory).
        let holds = streaming == nil && reading == .normal && likelyFits(from: from, to: to, limit: limit)
        var held: [EncodedPacket]?
        var heldBytes = 0
        // With sound, start reading a little earlier: the packets that decode the first sample
        // (AAC's overlap, Opus's 80 ms preroll) may be stored before the keyframe's.
        let hasSound = demuxer.streams.contains { $0.parameters.isAudio }
        var seekTime = hasSound ? Timestamp(value: absFrom.value - Timestamp(seconds: 0.25).rescaled(to: tb).value, timeBase: tb) : absFrom
        var back = Timestamp(seconds: 1).rescaled(to: tb).value
        for attempt in 0..<5 {
            (filler, timings, total, held, heldBytes) = (DurationFiller(), [], 0, holds ? [] : nil, 0)
            counts = [Int](repeating: 0, count: streamCount)
            soundTimings = [[PacketTiming]](repeating: [], count: streamCount)
            var firstPictureIsKeyframe: Bool?
            do {
                try streaming?.restart()
                try demuxer.seek(stream: videoIndex, toKeyframeBefore: seekTime)
                // Streams that sent packets since the seek and have not yet passed `to`: reading ends
                // once none is left. (Cover art, timecode and data streams may send nothing more; they
                // are not waited for.)
                var passed = [Bool](repeating: false, count: streamCount)
                var waiting = 0
                var lastVideoDTS = Int64.min
                let giveUp = absTo.rescaled(to: tb).value + Timestamp(seconds: 10).rescaled(to: tb).value
                // Per stream, worked out once rather than for each packet: where `to` falls in its
                // time base, whether it is sound, and whether it is waited for (a timecode or data
                // track sends one packet, or a few: never waited for).
                let ends = demuxer.streams.map { absTo.rescaled(to: $0.timeBase).value }
                let isSound = demuxer.streams.map { $0.parameters.isAudio }
                let waitedFor = demuxer.streams.map { ["audio", "video", "subtitle"].contains($0.parameters.mediaType) }
                while let packet = try held == nil && !(streaming?.wantsPayload ?? false) ? demuxer.readMetadata() : demuxer.read() {
                    total += 1
                    streaming?.read(packet)
                    if held != nil {
                        heldBytes += packet.size
                        if heldBytes <= limit { held?.append(packet) } else { held = nil }
                    }
                    let s = packet.streamIndex
                    if counts[s] == 0 && waitedFor[s] { waiting += 1 }
                    counts[s] += 1
                    // Matroska leaves the first dts of a reordered stream empty (rec reads pts then);
                    // only a dts that increases can be trusted to say decoding has passed `to`.
                    let end = ends[s]
                    let passes: Bool
                    if s == videoIndex {
                        if firstPictureIsKeyframe == nil {
                            firstPictureIsKeyframe = packet.isKeyframe
                            // Not a keyframe: the scan starts again earlier (below), so reading on is wasted.
                            if !packet.isKeyframe && seekTime.value >= start.value && attempt < 4 { break }
                        }
                        passes = packet.dts > lastVideoDTS && packet.dts >= end && packet.dts <= packet.pts
                        lastVideoDTS = max(lastVideoDTS, packet.dts)
                        let settles = firstPictureIsKeyframe == true
                        if filler.passes(packet) {
                            timings.append(PacketTiming(packet))
                            try streaming?.timing(PacketTiming(packet), settles: settles)
                        } else {
                            for ready in filler.push(packet) {
                                timings.append(PacketTiming(ready))
                                try streaming?.timing(PacketTiming(ready), settles: settles)
                            }
                        }
                    } else {
                        if isSound[s] { soundTimings[s].append(PacketTiming(packet)) }
                        passes = packet.pts >= end
                    }
                    if passes && waitedFor[s] && !passed[s] {
                        passed[s] = true
                        waiting -= 1
                    }
                    // One more packet past `to` on the video stream gives the last frame's duration.
                    if waiting == 0 && packet.pts > end { break }
                    if s == videoIndex && packet.dts > giveUp { break }
                }
            } catch let error as FFmpegError {
                throw error.recError("reading \(path) failed")
            } catch {
                throw ClipWriter.recError(error, path: streaming?.path ?? path)
            }
            // MPEG-TS seeks to a packet whose decode time is at or before the time, not to a
            // keyframe: a scan that does not start on one could not decode its first pictures,
            // so it starts again earlier (1, 2, 4, 8 s), once at most from before the file's start
            // (its first decode times come before its first picture's time).
            guard firstPictureIsKeyframe == false, seekTime.value >= start.value, attempt < 4 else { break }
            seekTime = Timestamp(value: seekTime.value - back, timeBase: tb)
            back *= 2
        }
        for ready in filler.finish() {
            timings.append(PacketTiming(ready))
            do { try streaming?.timing(PacketTiming(ready), settles: false) } catch { throw ClipWriter.recError(error, path: path) }
        }
        DecodeTimes.repair(timings: &timings)
        let others = demuxer.streams.filter { $0.index != videoIndex && counts[$0.index] > 0 }
        let v = video
        let clip = FileClip(
            path: path, reading: reading == .skimming ? .unparsed : .normal, seekStream: videoIndex, seekTime: seekTime, packetsToRead: total,
            held: held,
            clipIndex: Dictionary(uniqueKeysWithValues: [(videoIndex, 0)] + others.enumerated().map { ($1.index, $0 + 1) }),
            tracks: [ClipTrack(stream: v.id, parameters: v.parameters, frameRate: v.frameRate, disposition: v.disposition,
                               packetCount: timings.count)]
                + others.map {
                    ClipTrack(stream: $0.id, parameters: $0.parameters, disposition: $0.disposition, packetCount: counts[$0.index],
                              soundTimings: soundTimings[$0.index], soundTimeBase: $0.timeBase)
                },
            timings: timings, timeBase: tb, reorderDepth: v.reorderDepth)
        return (clip, absFrom, absTo)
    }
}

/// A cut's part of a file, scanned: what the planner needs, and the way back to the packets.
package struct FileClip: ClipInput, Sendable {
    package let path: String
    /// How the replay reads: as the scan did, without skipping.
    let reading: Demuxer.Reading
    let seekStream: Int
    let seekTime: Timestamp
    /// Packets of every stream the scan read after seeking: `replay` reads as many.
    let packetsToRead: Int
    /// Those packets, kept by the scan (their bytes FFmpeg's, shared): `replay` hands them over
    /// without reading the file again. Nil when the scan skimmed or they passed its bound.
    let held: [EncodedPacket]?
    /// How many bytes of packets a scan keeps for the replay, at most: 16 MiB, 16 s of 1080p at
    /// 8 Mb/s. A longer range's packets are read again.
    package static let heldLimit = 16 << 20
    /// The same, with the packets `held` kept for the replay (nil: read again).
    func holding(_ held: [EncodedPacket]?) -> FileClip {
        FileClip(path: path, reading: reading, seekStream: seekStream, seekTime: seekTime, packetsToRead: packetsToRead,
                 held: held, clipIndex: clipIndex, tracks: tracks, timings: timings, timeBase: timeBase, reorderDepth: reorderDepth,
                 readPTS: readPTS)
    }

    /// The payload bytes kept for the replay (0 when it reads the file again).
    package var heldBytes: Int { held?.reduce(0) { $0 + $1.size } ?? 0 }
    /// The file's stream index → the clip input's (0 video, 1… others).
    let clipIndex: [Int: Int]
    package let tracks: [ClipTrack]
    package var timings: [PacketTiming]
    package let timeBase: Rational
    package var reorderDepth = 0
    /// Each video packet's pts as the file has it, when `timings` moved some (`held`); nil: the same.
    var readPTS: [Int64]?

    /// Hands over the packets the scan read, one at a time: those it kept, or else the same ones
    /// read again (the file opened again and sought as the scan did).
    package func replay(_ body: (EncodedPacket) throws -> Void) throws {
        var fillers = [Int: DurationFiller]()
        var videoCount = 0
        func take(_ packet: EncodedPacket) throws {
            guard let index = clipIndex[packet.streamIndex] else { return }
            var p = packet
            if p.stream == video.stream {
                guard videoCount < timings.count, (readPTS?[videoCount] ?? timings[videoCount].pts) == p.pts else {
                    throw RecError.runtime("\(path) read differently the second time (is it still being written?); try the cut again")
                }
                let t = timings[videoCount]
                (p.pts, p.dts, p.duration) = (t.pts, t.dts, t.duration)
                videoCount += 1
                try body(p)
            } else if fillers[index, default: DurationFiller(depth: 4)].passes(p) {
                // Its duration known and nothing of its stream held (MP4 states every duration).
                try body(p)
            } else {
                for ready in fillers[index, default: DurationFiller(depth: 4)].push(p) { try body(ready) }
            }
        }
        if let held {
            for p in held { try take(p) }
        } else {
            let demuxer = try Demuxer(path: path, reading: reading)
            try demuxer.seek(stream: seekStream, toKeyframeBefore: seekTime)
            for _ in 0..<packetsToRead {
                guard let p = try demuxer.read() else { break }
                try take(p)
            }
        }
        for (_, var filler) in fillers.sorted(by: { $0.key < $1.key }) {
            for ready in filler.finish() { try body(ready) }
        }
    }
}
