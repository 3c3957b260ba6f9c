import RecCore

/// Reads what a cut of `[from, to)` needs from a file: the video packets from the keyframe at or
/// before `from` to a little past `to` (enough for any B-frame reordering), and the other streams'
/// packets alongside. Seeks first, so a cut late in a long file reads only its own part.
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
            var keyframesAfterEnd = 0
            while let packet = try demuxer.read() {
                let s = packet.streamIndex
                packets[s, default: []].append(contentsOf: fillers[s, default: DurationFiller()].push(packet))
                if s == videoIndex && packet.isKeyframe && packet.pts >= absTo.value {
                    keyframesAfterEnd += 1
                    if keyframesAfterEnd >= 2 { break }
                }
            }
        } catch {
            throw error.recError("reading \(path) failed")
        }
        for s in fillers.keys { packets[s, default: []].append(contentsOf: fillers[s]!.finish()) }
        var videoPackets = packets[videoIndex] ?? []
        DecodeTimes.repair(&videoPackets)
        let others = demuxer.streams.filter { $0.index != videoIndex && !(packets[$0.index] ?? []).isEmpty }
            .map { ClipSource.Stream(parameters: $0.parameters, packets: packets[$0.index]!) }
        return (ClipSource(video: .init(parameters: video.parameters, packets: videoPackets), others: others), absFrom, absTo)
    }
}
