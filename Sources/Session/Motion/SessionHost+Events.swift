import Foundation
import RecCore

extension SessionHost {
    /// The `events` request: the motion events, clips and levels of the range asked for (as a
    /// save gives it: `from`/`to` or `last`, everything kept without them).
    func events(_ request: EventsRequest) throws(RecError) -> EventsReport {
        let stats = recorder.currentStats
        let wallclock = stats.startedAt?.timeIntervalSince1970
        guard let motion else { return EventsReport(session: configuration.name, motion: false, wallclock: wallclock) }
        let now = motion.now
        var report = EventsReport(session: configuration.name, motion: true, wallclock: wallclock, moving: now.moving, level: now.level)
        let newest = max(now.lastAnalysed ?? 0, stats.lastCaptureTime.seconds)
        let range: Range<Double>
        if request.from == nil, request.to == nil, request.last == nil {
            range = 0..<(newest + 1)
        } else {
            let timeline = Timeline(availableStart: .zero, availableEnd: Timestamp(seconds: newest), now: Timestamp(seconds: newest),
                                    wallClockAtZero: wallclock.map { .microseconds(Int64($0 * 1_000_000)) })
            let resolved = try request.selection.timeSelection().resolve(on: timeline)
            range = resolved.lowerBound.seconds..<resolved.upperBound.seconds
        }
        func ms(_ v: Double) -> Double { (v * 1000).rounded() / 1000 }
        (report.from, report.to, report.level) = (ms(range.lowerBound), ms(range.upperBound), (now.level * 10000).rounded() / 10000)
        motion.index.withLock { index in
            report.events = index.events(from: range.lowerBound, to: range.upperBound).map(\.rounded)
            if request.levels {
                let levels = index.levels(from: range.lowerBound, to: range.upperBound)
                report.levels = levels.map(\.level)
                report.step = MotionIndex.step
                if let first = levels.first { report.from = ms(first.seconds) }
            }
        }
        report.clips = (motionReactor?.clips.withLock { $0 } ?? []).filter { $0.to > range.lowerBound && $0.from < range.upperBound }
        return report
    }
}
