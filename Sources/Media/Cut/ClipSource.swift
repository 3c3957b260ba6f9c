import RecCore

/// One track of what a clip is cut from: its parameters, and what its header should say.
public struct ClipTrack: Sendable {
    public var parameters: CodecParameters
    /// The stream's nominal frame rate, if known: a re-encoder writes it into its own headers.
    public var frameRate: Rational?
    /// `AV_DISPOSITION_*` flags (default track, …), kept on the clip's stream.
    public var disposition: Int32
    /// How many packets the cut may write at most (sizes the MP4 index kept at the front).
    public var packetCount: Int
    /// A sound track's packets' times, in order, in the packets' time base (`soundTimeBase`):
    /// what `SoundCut` plans the sample-exact cut from. Empty for other tracks (cut by packet).
    public var soundTimings: [PacketTiming] = []
    public var soundTimeBase: Rational?

    public init(parameters: CodecParameters, frameRate: Rational? = nil, disposition: Int32 = 0, packetCount: Int = 0,
                soundTimings: [PacketTiming] = [], soundTimeBase: Rational? = nil) {
        self.parameters = parameters
        self.frameRate = frameRate
        self.disposition = disposition
        self.packetCount = packetCount
        self.soundTimings = soundTimings
        self.soundTimeBase = soundTimeBase
    }
}

/// What a clip is cut from, as the clip writer streams it: the planner reads only `timings`
/// (packet metadata, no payloads); `replay` then hands every packet over once, so a cut holds at
/// most what it re-encodes plus a bounded window, however long the clip.
public protocol ClipInput: Sendable {
    var video: ClipTrack { get }
    /// The other streams (audio, subtitles), as `streamIndex` 1, 2, … in `replay`.
    var others: [ClipTrack] { get }
    /// The video packets' times in decode order, durations filled and decode times valid.
    var timings: [PacketTiming] { get }
    var timeBase: Rational { get }
    /// Calls `body` with every packet in the order they are stored (times interleaved across
    /// streams): video packets in decode order with stream index 0 and the times of `timings`,
    /// the others with stream index 1 + their index in `others`.
    func replay(_ body: (EncodedPacket) throws -> Void) throws
}

/// A clip's source held in memory: the ring's packets (which the ring already holds: a snapshot
/// shares their bytes), or packets a test made.
public struct ClipSource: Sendable, ClipInput {
    public struct Stream: Sendable {
        public var parameters: CodecParameters
        public var packets: [EncodedPacket]
        /// The stream's nominal frame rate, if known: a re-encoder writes it into its own headers.
        public var frameRate: Rational?
        public var disposition: Int32
        public init(parameters: CodecParameters, packets: [EncodedPacket], frameRate: Rational? = nil, disposition: Int32 = 0) {
            self.parameters = parameters
            self.packets = packets
            self.frameRate = frameRate
            self.disposition = disposition
        }

        var track: ClipTrack {
            let sound = parameters.isAudio && !packets.isEmpty
            return ClipTrack(parameters: parameters, frameRate: frameRate, disposition: disposition, packetCount: packets.count,
                             soundTimings: sound ? packets.map(PacketTiming.init) : [],
                             soundTimeBase: sound ? packets[0].timeBase : nil)
        }
    }

    public var streams: (video: Stream, others: [Stream])

    public init(video: Stream, others: [Stream] = []) {
        streams = (video, others)
    }

    public var video: ClipTrack { streams.video.track }
    public var others: [ClipTrack] { streams.others.map(\.track) }
    public var timings: [PacketTiming] { streams.video.packets.map(PacketTiming.init) }
    public var timeBase: Rational { streams.video.packets.first?.timeBase ?? streams.video.parameters.timeBase }

    /// The streams merged by decode time, each in its own order.
    public func replay(_ body: (EncodedPacket) throws -> Void) throws {
        let all = [streams.video.packets] + streams.others.map(\.packets)
        var next = [Int](repeating: 0, count: all.count)
        while true {
            var best: Int?
            for s in all.indices where next[s] < all[s].count {
                if let b = best, all[b][next[b]].decodeTime <= all[s][next[s]].decodeTime { continue }
                best = s
            }
            guard let s = best else { return }
            var p = all[s][next[s]]
            next[s] += 1
            p.streamIndex = s
            try body(p)
        }
    }
}
