import RecCore

/// Reads what a cut of `[from, to)` needs from a file: the video packets from the keyframe at or
/// before `from` up to the first one that decodes at or after `to` (packets come in decode order
/// and no frame decodes after it is presented, so every frame before `to` is then in hand), and
/// the other streams' packets until they too pass `to`. Seeks first, so a cut late in a long file
/// reads only its own part.
///
/// Times are on the file's timeline: 0 is the first video frame (the stream's start time).
public struct FileClipReader {
    public let path: String
    public let demuxer: Demuxer
    public let videoIndex: Int
    /// The video stream's start, in its time base; 0 on the file's timeline.
    public let start: Timestamp
    /// The file's length from its first video frame, if the container knows it.
    public let length: Timestamp?

    public init(path: String) throws(RecError) {
        self.path = path
        do {
            demuxer = try Demuxer(path: path)
        } catch {
            throw .usage("cannot read \(path) as a video; is it a media file FFmpeg supports?", cause: error.description)
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
            length = nil
        }
    }

    public var video: Demuxer.Stream { demuxer.streams[videoIndex] }

    /// The packets for a cut of `[from, to)` (file timeline), in stream time with the file's own
    /// timestamps, durations filled. Returns the source and the range in stream time.
    public func read(from: Timestamp, to: Timestamp) throws(RecError) -> (source: ClipSource, from: Timestamp, to: Timestamp) {
        let tb = video.timeBase
        let absFrom = Timestamp(value: start.rescaled(to: tb).value + from.rescaled(to: tb).value, timeBase: tb)
        let absTo = Timestamp(value: start.rescaled(to: tb).value + to.rescaled(to: tb).value, timeBase: tb)
        var fillers = [Int: DurationFiller]()
        var packets = [Int: [EncodedPacket]]()
        do {
            try demuxer.seek(stream: videoIndex, toKeyframeBefore: absFrom)
            // Streams that sent packets since the seek, and those whose packets have passed `to`.
            // (Cover art, timecode and data streams may send nothing more; they are not waited for.)
            var seen = Set<Int>()
            var passed = Set<Int>()
            var lastVideoDTS = Int64.min
            let giveUp = absTo.rescaled(to: tb).value + Timestamp(seconds: 10).rescaled(to: tb).value
            while let packet = try demuxer.read() {
                let s = packet.streamIndex
                seen.insert(s)
                // A timecode or data track sends one packet, or a few: never waited for.
                if !["audio", "video", "subtitle"].contains(demuxer.streams[s].parameters.mediaType) { passed.insert(s) }
                packets[s, default: []].append(contentsOf: fillers[s, default: DurationFiller()].push(packet))
                // Matroska leaves the first dts of a reordered stream empty (rec reads pts then);
                // only a dts that increases can be trusted to say decoding has passed `to`.
                let end = absTo.rescaled(to: packet.timeBase).value
                if s == videoIndex {
                    if packet.dts > lastVideoDTS && packet.dts >= end && packet.dts <= packet.pts { passed.insert(s) }
                    lastVideoDTS = max(lastVideoDTS, packet.dts)
                } else if packet.pts >= end {
                    passed.insert(s)
                }
                // One more packet past `to` on the video stream gives the last frame's duration.
                if passed.isSuperset(of: seen) && packet.pts > end { break }
                if s == videoIndex && packet.dts > giveUp { break }
            }
        } catch {
            throw error.recError("reading \(path) failed")
        }
        for s in fillers.keys { packets[s, default: []].append(contentsOf: fillers[s]!.finish()) }
        var videoPackets = packets[videoIndex] ?? []
        DecodeTimes.repair(&videoPackets)
        let others = demuxer.streams.filter { $0.index != videoIndex && !(packets[$0.index] ?? []).isEmpty }
            .map { ClipSource.Stream(parameters: $0.parameters, packets: packets[$0.index]!) }
        return (ClipSource(video: .init(parameters: video.parameters, packets: videoPackets, frameRate: video.frameRate), others: others), absFrom, absTo)
    }
}
