import Glibc
import RecCore

/// A file cut written as its range is read, so the range is read once however long it is: the
/// scan (`FileClipReader.read`) hands every packet here as it reads it; the packets are held from
/// the last settled one on (a GOP or two) and handed to the clip writer once `StreamingCut` says
/// they are settled. Once everything is read the final plan is checked against what was written;
/// where it differs (or the packets held pass `window`), the clip is written again from the
/// final plan, the range read a second time as before.
final class StreamingClip {
    let reader: FileClipReader
    let path: String
    let temporary: String
    let container: ContainerFormat
    let options: ClipWriter.Options
    /// Bytes of packets held, at most, before giving up writing as it reads.
    let window: Int
    private(set) var cut: StreamingCut
    private let samples: Int
    private let expectedFrames: Int
    /// Packets read and not yet handed on, in file order; each video packet with its decode index.
    private var buffer: [(packet: EncodedPacket, video: Int)] = []
    private var first = 0
    private var heldBytes = 0
    /// The most bytes of packets held at once.
    private(set) var peakHeld = 0
    private var videoRead = 0
    private var counts: [Int]
    private let isSound: [Bool]
    private var soundTimings: [[PacketTiming]]
    private var fillers: [Int: DurationFiller] = [:]
    private var job: ClipJob?
    /// Set when writing as it reads was given up: the clip is written from the final plan.
    private(set) var gaveUp = false

    init(reader: FileClipReader, cut: StreamingCut, seconds: Double, path: String, container: ContainerFormat,
         options: ClipWriter.Options, window: Int) {
        (self.reader, self.cut, self.path, self.container, self.options, self.window) = (reader, cut, path, container, options, window)
        temporary = OutputPath.temporarySibling(of: path)
        let streams = reader.demuxer.streams
        counts = Array(repeating: 0, count: streams.count)
        soundTimings = Array(repeating: [], count: streams.count)
        isSound = streams.map { $0.parameters.isAudio }
        let rates = streams.map { s -> Double in
            if s.index == reader.videoIndex { return s.frameRate?.doubleValue ?? 0 }
            if s.parameters.isAudio, s.parameters.sampleRate > 0 {
                return Double(s.parameters.sampleRate) / Double(s.parameters.frameSize > 0 ? s.parameters.frameSize : 1024)
            }
            return 10
        }
        samples = rates.reduce(0) { $0 + StreamingCut.packetBound(seconds: seconds, rate: $1) }
        expectedFrames = Int(seconds * rates[reader.videoIndex])
        if rates[reader.videoIndex] <= 0 { gaveUp = true }
    }

    /// Whether the scan should read the packets' bytes: it hands them here.
    var wantsPayload: Bool { !gaveUp }

    /// The scan starts again from an earlier point (MPEG-TS): nothing may have been written.
    func restart() throws {
        if job != nil { giveUp() }
        cut = StreamingCut(timeBase: cut.timeBase, from: cut.from, to: cut.to, mode: cut.mode, strategy: cut.strategy,
                           reorderDepth: cut.reorderDepth)
        (buffer, first, heldBytes, videoRead) = ([], 0, 0, 0)
        counts = Array(repeating: 0, count: counts.count)
        soundTimings = Array(repeating: [], count: counts.count)
    }

    /// A packet as the scan read it, in file order.
    func read(_ packet: EncodedPacket) {
        guard !gaveUp else { return }
        let s = packet.streamIndex
        counts[s] += 1
        if s == reader.videoIndex {
            buffer.append((packet, videoRead))
            videoRead += 1
        } else {
            if isSound[s] { soundTimings[s].append(PacketTiming(packet)) }
            buffer.append((packet, -1))
        }
        heldBytes += packet.size
        peakHeld = max(peakHeld, heldBytes)
        if heldBytes > window { giveUp() }
    }

    /// The next video packet's timing, decode order, duration filled. `settles` false while the
    /// scan does not yet know it starts on a keyframe.
    func timing(_ t: PacketTiming, settles: Bool) throws {
        guard !gaveUp else { return }
        guard cut.append(t), settles else {
            if cut.diverged { giveUp() }
            return
        }
        try hand(upTo: cut.settled)
    }

    /// Hands the packets read before video packet `k` to the clip writer, starting it if need be.
    private func hand(upTo k: Int) throws {
        let tracks = self.tracks()
        if job == nil {
            job = try ClipJob.streaming(cut, tracks: tracks, container: container, samples: samples,
                                        expectedFrames: expectedFrames, options: options, to: temporary)
        }
        guard let job else { return }
        job.settled(cut, tracks: tracks)
        while first < buffer.count, buffer[first].video < 0 || buffer[first].video < k {
            let (packet, _) = buffer[first]
            heldBytes -= packet.size
            first += 1
            try take(packet, job)
        }
        if first > 4096 || first * 2 > buffer.count {
            buffer.removeFirst(first)
            first = 0
        }
    }

    /// One packet to the writer, as `FileClip.replay` hands it over.
    private func take(_ packet: EncodedPacket, _ job: ClipJob) throws {
        var p = packet
        if p.streamIndex == reader.videoIndex {
            let t = cut.timings[buffer[first - 1].video]
            (p.dts, p.duration) = (t.dts, t.duration)
            try job.take(p)
        } else if fillers[p.streamIndex, default: DurationFiller(depth: 4)].passes(p) {
            try job.take(p)
        } else {
            for ready in fillers[p.streamIndex, default: DurationFiller(depth: 4)].push(p) { try job.take(ready) }
        }
    }

    /// Stops writing as the range is read: the clip so far is closed and removed.
    func giveUp() {
        gaveUp = true
        job?.abandon()
        job = nil
        unlink(temporary)
        (buffer, first, heldBytes) = ([], 0, 0)
    }

    /// The clip's tracks as read so far: the video, then every other stream that sent packets.
    private func tracks() -> [ClipTrack] {
        let v = reader.video
        return [ClipTrack(stream: v.id, parameters: v.parameters, frameRate: v.frameRate, disposition: v.disposition,
                          packetCount: cut.timings.count)]
            + reader.demuxer.streams.filter { $0.index != reader.videoIndex && counts[$0.index] > 0 }.map {
                ClipTrack(stream: $0.id, parameters: $0.parameters, disposition: $0.disposition, packetCount: counts[$0.index],
                          soundTimings: soundTimings[$0.index], soundTimeBase: $0.timeBase)
            }
    }

    /// Finishes the clip once the scan has read the range (`clip`, as `read` returns it): with the
    /// final plan, the packets still held, and the clip written again if what was written differs.
    func finish(_ clip: FileClip) throws(RecError) -> ClipWriter.Report {
        let plan = try CutPlanner.plan(packets: clip.timings, timeBase: clip.timeBase, from: cut.from, to: cut.to,
                                       mode: cut.mode, strategy: cut.strategy)
        if let job, !gaveUp {
            do {
                if try job.adopt(plan, cut: cut, tracks: clip.tracks) {
                    while first < buffer.count {
                        first += 1
                        try take(buffer[first - 1].packet, job)
                    }
                    for (_, var filler) in fillers.sorted(by: { $0.key < $1.key }) {
                        for ready in filler.finish() { try job.take(ready) }
                    }
                    buffer = []
                    let others = try job.close()
                    var report = try ClipWriter.seal(job, others: others, plan: plan, temporary: temporary, path: path,
                                                     container: container, reencode: nil)
                    report.heldAtMost = peakHeld
                    return report
                }
            } catch {
                unlink(temporary)
                throw ClipWriter.recError(error, path: path)
            }
        }
        // Nothing written yet (the range is short: every packet is held) or what was written
        // differs: the clip from the final plan, from the packets held or read again.
        let held = job == nil && !gaveUp ? buffer[first...].map(\.packet) : nil
        giveUp()
        buffer = []
        var report = try ClipWriter.write(clip.holding(held), plan: plan, to: path, container: container, options: options)
        report.readTwice = held == nil
        report.heldAtMost = peakHeld
        return report
    }
}
