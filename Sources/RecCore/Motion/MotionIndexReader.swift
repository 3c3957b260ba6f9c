/// Reads a motion index file's lines back into the report `rec events` prints (docs/EVENTS.md),
/// for a recording whose session has ended, even by a kill -9: an event with a start line and no
/// end line ran until the index stops.
package enum MotionIndexReader {
    package static func report(_ lines: [MotionIndexLine], session fallback: String, levels: Bool,
                               range: Range<Double>? = nil) -> EventsReport {
        let header = lines.first { $0.recMotion != nil }
        var report = EventsReport(session: header?.session ?? fallback, motion: true, wallclock: header?.wallclock)
        var index = MotionIndex()
        var lastSeen = 0.0
        var open: [Int: MotionEvent] = [:]
        var events: [Int: MotionEvent] = [:]
        for line in lines {
            if let t = line.t, let m = line.m {
                for (i, value) in m.enumerated() {
                    guard let value else { continue }
                    index.record(level: Double(value) / 1000, at: t + Double(i) * MotionIndex.step)
                    lastSeen = max(lastSeen, t + Double(i) * MotionIndex.step)
                }
            } else if let t = line.t, let still = line.still {
                for step in 0..<(still * 5) { index.record(level: 0, at: t + Double(step) * MotionIndex.step) }
                lastSeen = max(lastSeen, t + Double(still))
            } else if line.start != nil, let e = line.event {
                open[e.id] = e
            } else if line.end != nil, let e = line.event {
                open[e.id] = nil
                events[e.id] = e
            } else if let path = line.clip, let t = line.t, let to = line.to {
                report.clips.append(MotionClipRecord(path: path, from: t, to: to, events: line.events ?? [], error: line.error))
            }
        }
        // Unfinished: it ends where the index does (the last motion it holds after its start).
        for (id, var e) in open {
            let moving = index.levels(from: e.start, to: lastSeen + MotionIndex.step).filter { ($0.level ?? 0) > 0 }
            e.end = max(e.start, moving.last?.seconds ?? e.start)
            if let top = moving.max(by: { ($0.level ?? 0) < ($1.level ?? 0) }), let level = top.level, level > e.peak {
                (e.peak, e.peakAt) = (level, top.seconds)
            }
            events[id] = e
        }
        let from = range?.lowerBound ?? 0, to = range?.upperBound ?? (lastSeen + MotionIndex.step)
        report.events = events.values.sorted { $0.start < $1.start }.filter { $0.end >= from && $0.start < to }.map(\.rounded)
        report.clips = report.clips.filter { $0.to > from && $0.from < to }
        (report.from, report.to) = (from, to)
        if levels {
            let series = index.levels(from: from, to: to)
            report.levels = series.map(\.level)
            report.step = MotionIndex.step
            if let first = series.first { report.from = first.seconds }
        }
        return report
    }
}
