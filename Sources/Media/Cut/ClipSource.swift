import RecCore

/// One track of what a clip is cut from: its parameters, and what its header should say.
package struct ClipTrack: Sendable {
    /// The stream this track is: its packets in `replay` name it.
    package var stream: StreamID
    package var parameters: CodecParameters
    /// The stream's nominal frame rate, if known: a re-encoder writes it into its own headers.
    package var frameRate: Rational?
    /// `AV_DISPOSITION_*` flags (default track, …), kept on the clip's stream.
    package var disposition: Int32
    /// How many packets the cut may write at most (sizes the MP4 index kept at the front).
    package var packetCount: Int
    /// A sound track's packets' times, in order, in the packets' time base (`soundTimeBase`):
    /// what `SoundCut` plans the sample-exact cut from. Empty for other tracks (cut by packet).
    package var soundTimings: [PacketTiming] = []
    package var soundTimeBase: Rational?

    package init(stream: StreamID = .video, parameters: CodecParameters, frameRate: Rational? = nil, disposition: Int32 = 0,
                packetCount: Int = 0, soundTimings: [PacketTiming] = [], soundTimeBase: Rational? = nil) {
        self.stream = stream
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
package protocol ClipInput: Sendable {
    /// Every stream of the clip, in the order the clip lists them. The first is the video stream
    /// the cut is planned on (`timings`); each of the others is planned by its kind: sound to the
    /// sample (`SoundTrackCut`), anything else by packet.
    var tracks: [ClipTrack] { get }
    /// The first track's packets' times in decode order, durations filled and decode times valid.
    var timings: [PacketTiming] { get }
    var timeBase: Rational { get }
    /// Frames the first track's decoding runs ahead of its presentation at most, as the source
    /// declares it: the clip's decode times lag at least this far (`CutPlan.decodeTimes`).
    var reorderDepth: Int { get }
    /// Calls `body` with every packet in the order they are stored (times interleaved across
    /// streams), each naming its track's stream: the first track's in decode order with the times
    /// of `timings`.
    func replay(_ body: (EncodedPacket) throws -> Void) throws
}

extension ClipInput {
    /// The track the cut is planned on: the first. Every input has one (a programmer error else).
    package var video: ClipTrack { tracks[0] }
    package var reorderDepth: Int { 0 }
}

/// A clip's source held in memory: the ring's packets (which the ring already holds: a snapshot
/// shares their bytes), or packets a test made.
package struct ClipSource: Sendable, ClipInput {
    package struct Stream: Sendable {
        package var id: StreamID
        package var parameters: CodecParameters
        package var packets: [EncodedPacket]
        /// The stream's nominal frame rate, if known: a re-encoder writes it into its own headers.
        package var frameRate: Rational?
        package var disposition: Int32
        package init(id: StreamID, parameters: CodecParameters, packets: [EncodedPacket], frameRate: Rational? = nil,
                    disposition: Int32 = 0) {
            self.id = id
            self.parameters = parameters
            self.packets = packets
            self.frameRate = frameRate
            self.disposition = disposition
        }

        var track: ClipTrack {
            let sound = parameters.isAudio && !packets.isEmpty
            return ClipTrack(stream: id, parameters: parameters, frameRate: frameRate, disposition: disposition,
                             packetCount: packets.count, soundTimings: sound ? packets.map(PacketTiming.init) : [],
                             soundTimeBase: sound ? packets[0].timeBase : nil)
        }
    }

    /// The first is the video stream the cut is planned on.
    package var streams: [Stream]

    package init(streams: [Stream]) {
        self.streams = streams
    }

    /// A ring snapshot's packets (every stream, interleaved) as the streams `described` lists,
    /// in that order; a stream with no packets in the range is left out, except the first.
    package init(packets: [EncodedPacket], described: [StreamParameters]) {
        var byStream: [StreamID: [EncodedPacket]] = [:]
        for p in packets { byStream[p.stream, default: []].append(p) }
        self.streams = described.enumerated().compactMap { i, d in
            let held = byStream[d.id] ?? []
            return i == 0 || !held.isEmpty ? Stream(id: d.id, parameters: d.parameters, packets: held) : nil
        }
    }

    package var tracks: [ClipTrack] { streams.map(\.track) }
    package var timings: [PacketTiming] { streams[0].packets.map(PacketTiming.init) }
    package var timeBase: Rational { streams[0].packets.first?.timeBase ?? streams[0].parameters.timeBase }

    /// The streams merged by decode time, each in its own order.
    package func replay(_ body: (EncodedPacket) throws -> Void) throws {
        let all = streams.map(\.packets)
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
            p.stream = streams[s].id
            try body(p)
        }
    }
}
