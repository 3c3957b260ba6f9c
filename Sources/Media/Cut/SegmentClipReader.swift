import RecCore

/// Reads what a cut of `[from, to)` needs from a segmented recording's files, in order, and puts
/// every packet on the session timeline (in the first file's stream time base), as if the packets
/// came from the ring: one continuous stream across the segment boundaries. Like
/// `FileClipReader`, it keeps the packets it reads for the clip while they come to at most
/// `FileClip.heldLimit` bytes, all files together; past that, they stream from the files again
/// when the clip is written.
package enum SegmentClipReader {
    /// One segment file and the session time at which its own timeline is 0.
    package struct Part: Sendable {
        package var path: String
        package var start: Timestamp
        package init(path: String, start: Timestamp) {
            self.path = path
            self.start = start
        }
    }

    /// The video packets of `parts` (the segments holding `[from, to)`, oldest first) from the
    /// keyframe at or before `from` to the first one that decodes at or after `to`, in session time.
    package static func read(_ parts: [Part], from: Timestamp, to: Timestamp) throws(RecError) -> SegmentClip {
        var files: [FileClip] = []
        var shifts: [Timestamp] = []
        var sounds: [ClipTrack] = []
        var timings: [PacketTiming] = []
        var video: ClipTrack?
        var timeBase: Rational?
        var lastDTS = Int64.min
        var budget = FileClip.heldLimit
        for part in parts {
            let reader = try FileClipReader(path: part.path)
            let tb = timeBase ?? reader.video.timeBase
            timeBase = tb
            let offset = part.start.rescaled(to: .microseconds).value
            let local = (from: Timestamp.microseconds(max(0, from.rescaled(to: .microseconds).value - offset)),
                         to: Timestamp.microseconds(to.rescaled(to: .microseconds).value - offset))
            // File time 0 is the stream's start; session time is that plus the part's start.
            let shift = Timestamp(value: reader.start.rescaled(to: tb).value - part.start.rescaled(to: tb).value, timeBase: tb)
            let file = try reader.read(from: local.from, to: local.to, keeping: budget).source
            budget -= file.heldBytes
            video = video ?? file.video
            files.append(file)
            // The sound of each file, on the session timeline too: the first file's sound tracks,
            // each with every file's packet times in turn (the order `replay` hands them over).
            let soundShift = Timestamp.microseconds(reader.start.rescaled(to: .microseconds).value - offset)
            shifts.append(soundShift)
            if sounds.isEmpty { sounds = file.tracks.dropFirst().filter { $0.soundTimeBase != nil }.map { var t = $0; t.soundTimings = []; t.packetCount = 0; return t } }
            for (i, sound) in sounds.enumerated() {
                guard let track = file.tracks.first(where: { $0.stream == sound.stream }), let stb = track.soundTimeBase,
                      stb == sound.soundTimeBase else { continue }
                let moved = soundShift.rescaled(to: stb).value
                sounds[i].soundTimings += track.soundTimings.map { t in
                    var m = t
                    (m.pts, m.dts) = (t.pts - moved, t.dts - moved)
                    return m
                }
                sounds[i].packetCount = sounds[i].soundTimings.count
            }
            for t in file.timings {
                var p = EncodedPacket(data: [], pts: t.pts, dts: t.dts, duration: t.duration, timeBase: file.timeBase, isKeyframe: t.isKeyframe)
                p.pts = Timestamp.rescale(p.pts, from: p.timeBase, to: tb)
                p.dts = Timestamp.rescale(p.dts, from: p.timeBase, to: tb)
                p.duration = Timestamp.rescale(p.duration, from: p.timeBase, to: tb)
                p.timeBase = tb
                p.move(back: shift, after: &lastDTS)
                timings.append(PacketTiming(p))
            }
        }
        guard var video, let timeBase else { throw .runtime("no segment file holds this range; check rec status for what is kept") }
        DecodeTimes.repair(timings: &timings)
        video.packetCount = timings.count
        return SegmentClip(files: files, shifts: shifts, tracks: [video] + sounds, timings: timings, timeBase: timeBase)
    }
}

/// A cut's part of a segmented recording: the video and sound of each file in turn, on one
/// timeline. (Before, the sound the segments held was left out of a save served from them.)
package struct SegmentClip: ClipInput, Sendable {
    let files: [FileClip]
    /// How far each file's own time is ahead of the session's.
    let shifts: [Timestamp]
    package let tracks: [ClipTrack]
    package let timings: [PacketTiming]
    package let timeBase: Rational

    package func replay(_ body: (EncodedPacket) throws -> Void) throws {
        var k = 0
        let sounds = Set(tracks.dropFirst().map(\.stream))
        for (file, shift) in zip(files, shifts) {
            try file.replay { packet in
                if sounds.contains(packet.stream) {
                    var p = packet
                    let moved = shift.rescaled(to: p.timeBase).value
                    (p.pts, p.dts) = (p.pts - moved, p.dts - moved)
                    return try body(p)
                }
                guard packet.stream == video.stream, k < timings.count else { return }
                var p = packet
                let t = timings[k]
                (p.pts, p.dts, p.duration, p.timeBase) = (t.pts, t.dts, t.duration, timeBase)
                k += 1
                try body(p)
            }
        }
    }
}
