import RecCore

/// A clip written while its range is still being read (`StreamingCut`): the job starts on the
/// provisional plan, whose copy is left open and whose end is not yet known, and goes on with the
/// final plan once everything is read, if that one writes what was written the same way.
extension ClipJob {
    /// A clip input for a range still being read: the tracks and timings so far. Its packets
    /// come through `take`, never `replay`.
    struct Partial: ClipInput {
        var tracks: [ClipTrack]
        var timings: [PacketTiming]
        var timeBase: Rational
        var reorderDepth: Int
        func replay(_ body: (EncodedPacket) throws -> Void) throws {
            throw RecError.runtime("a clip of a range still being read has no packets to replay")
        }
    }

    /// A job on `cut`'s provisional plan (every settled packet's route and decode time), its end
    /// left open; the MP4 index gets room for `samples` packets.
    static func streaming(_ cut: StreamingCut, tracks: [ClipTrack], container: ContainerFormat, samples: Int,
                          expectedFrames: Int, options: ClipWriter.Options, to path: String) throws -> ClipJob? {
        guard var plan = cut.provisional else { return nil }
        plan.presentedEndPTS = .max
        let input = Partial(tracks: tracks, timings: cut.timings, timeBase: cut.timeBase, reorderDepth: cut.reorderDepth)
        let job = try ClipJob(input: input, plan: plan, container: container, reencode: nil, options: options)
        job.decodeTimes = cut.decodeTimes
        job.parameterSets = cut.parameterSets
        job.expectedFrames = expectedFrames
        try job.open(to: path, samples: samples)
        return job
    }

    /// More packets are settled: their decode times, and the sound read so far. (The timings
    /// are taken again only with the final plan: the head's splice was made from the first.)
    func settled(_ cut: StreamingCut, tracks: [ClipTrack]) {
        if decodeTimes.count < cut.decodeTimes.count { decodeTimes += cut.decodeTimes[decodeTimes.count...] }
        for track in tracks { sound[track.stream]?.extendGrid(track) }
    }

    /// Goes on with `final`, the plan of the whole range, if it writes what was written as the
    /// provisional plan did (`StreamingCut.agrees`, and the same streams, sound cut and room in
    /// the index); false when the clip must be written again.
    func adopt(_ final: CutPlan, cut: StreamingCut, tracks: [ClipTrack]) throws -> Bool {
        guard cut.agrees(with: final) else { return false }
        let finalKept = tracks.dropFirst().filter { container.cannotHold($0.parameters) == nil }
        guard finalKept.map(\.stream) == keptStreams.map(\.stream) else { return false }
        if let latestOther, latestOther >= final.presentedEnd { return false }
        if let reservedSamples, cut.timings.count + finalKept.reduce(0, { $0 + $1.packetCount }) > reservedSamples { return false }
        var cuts: [StreamID: SoundTrackCut] = [:]
        for track in finalKept {
            let was = sound[track.stream]
            let now = SoundTrackCut.plan(track, from: final.presentedStart, to: final.presentedEnd, container: container)
            guard var now, let was else {
                if was != nil || now != nil { return false }
                continue
            }
            let (a, b) = (was.cut, now.cut)
            guard a.trim == b.trim, a.firstSample == b.firstSample, a.startSkip == b.startSkip,
                  a.keep.lowerBound == b.keep.lowerBound,
                  was.seen < b.keep.upperBound, !was.regridded,
                  (was.grid?.prefix(was.seen)).map({ Array($0) }) == (now.grid?.prefix(was.seen)).map({ Array($0) }) else { return false }
            (now.seen, now.lastDTS) = (was.seen, was.lastDTS)
            cuts[track.stream] = now
        }
        sound = cuts
        plan = final
        timings = cut.timings
        decodeTimes = final.decodeTimes(timings, reorderDepth: cut.reorderDepth)
        expectedFrames = nil
        try router.replan(final.segments) { (event) throws(any Error) in try handle(event) }
        return true
    }
}
