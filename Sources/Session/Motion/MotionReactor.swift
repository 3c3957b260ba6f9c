import Dispatch
import Foundation
import RecCore
import Synchronization

/// What a session does with its motion (issue 40): logs each event, tells the subscribers
/// (`onEvent`: MQTT), and with `--on-motion save` saves each clip the planner makes, from the
/// ring, on a thread of its own, named by its first picture's time and copied off the box by
/// `--upload` as any save is.
package final class MotionReactor: Sendable {
    let configuration: MotionConfiguration
    private let host = Mutex(WeakHost())
    private let planner: Mutex<MotionClipPlanner?>
    private let saving = DispatchQueue(label: "rec-motion-save")
    /// The clips saved so far (the newest 1 000), for `rec events`.
    package let clips = Mutex<[MotionClipRecord]>([])
    /// Told of each event's start and end, and each clip, in order (MQTT).
    package let subscribers = Mutex<[@Sendable (MotionNotice) -> Void]>([])

    /// Set once, before the session's first picture.
    struct WeakHost {
        weak var host: SessionHost?
    }

    init(configuration: MotionConfiguration) {
        self.configuration = configuration
        planner = Mutex(configuration.clips.map { MotionClipPlanner(settings: $0) })
    }

    func attach(_ host: SessionHost) {
        self.host.withLock { $0.host = host }
    }

    private var session: SessionHost? { host.withLock { $0.host } }

    /// The wall clock at session time 0, once the first picture is in (seconds since 1970).
    var startedAt: Double? { session?.recorder.currentStats.startedAt?.timeIntervalSince1970 }

    var listener: MotionWatch.Listener {
        MotionWatch.Listener(changed: { [weak self] in self?.changed($0) }, analysed: { [weak self] in self?.analysed($0) })
    }

    private func changed(_ change: MotionTracker.Change) {
        let session = self.session
        switch change {
        case .started(let e):
            session?.log?.write("motion: event \(e.id) started at \(Self.clock(e.start))")
            _ = planner.withLock { $0?.started(e) }
            tell(.started(e))
        case .ended(let e):
            session?.log?.write("motion: event \(e.id) ended at \(Self.clock(e.end)), \(String(format: "%.1f", e.length)) s, "
                                + "peak \(String(format: "%.1f", e.peak * 100)) % of the picture")
            _ = planner.withLock { $0?.ended(e) }
            tell(.ended(e))
        }
    }

    private func analysed(_ seconds: Double) {
        let due = planner.withLock { $0?.advance(to: seconds) ?? [] }
        for clip in due { saving.async { [self] in save(clip) } }
    }

    /// The session stops: the clip still gathering is saved with what it holds, before the
    /// recording ends.
    func stopping(at seconds: Double?) {
        guard let seconds, let clip = planner.withLock({ $0?.finish(at: seconds) }) else {
            saving.sync {}
            return
        }
        saving.sync { save(clip) }
    }

    private func save(_ clip: MotionClipPlanner.Clip) {
        guard let session else { return }
        let wall = session.recorder.currentStats.startedAt.map { $0.addingTimeInterval(clip.from) } ?? Date()
        var record = MotionClipRecord(path: "", from: clip.from, to: clip.to, events: clip.events)
        do {
            record.path = try UserConfig.fileName(pattern: configuration.clipPattern, date: wall)
            // The ends are a picture's time ± the rolls: a camera's timeline slews by microseconds,
            // so each end moves half a frame back, where no picture is, and the clip holds the
            // picture at `from` and none at `to` whatever the slew.
            let half = session.frameDuration(session.recorder.currentStats) / 2
            var request = SaveRequest(from: .seconds(max(0, clip.from - half)), to: .seconds(clip.to - half), output: record.path)
            request.clampsStart = true
            let report = try session.save(request, by: "motion")
            record.frames = report.frames
            session.log?.write("motion: saved \(report.path) (event\(clip.events.count == 1 ? "" : "s") "
                               + "\(clip.events.map(String.init).joined(separator: ", ")), \(Self.clock(clip.from))–\(Self.clock(clip.to)))")
        } catch {
            record.error = error.message
            session.log?.write("motion: the clip of event \(clip.events.map(String.init).joined(separator: ", ")) was not saved: \(error.message)")
        }
        session.motion?.note(.clip(record.path, from: clip.from, to: clip.to, events: clip.events, error: record.error))
        clips.withLock {
            $0.append(record)
            if $0.count > 1000 { $0.removeFirst($0.count - 1000) }
        }
        tell(.clip(record))
    }

    private func tell(_ notice: MotionNotice) {
        for subscriber in subscribers.withLock({ $0 }) { subscriber(notice) }
    }

    static func clock(_ seconds: Double) -> String { Timestamp(seconds: seconds).clockText }
}

/// What a session's motion tells its subscribers.
package enum MotionNotice: Sendable {
    case started(MotionEvent)
    case ended(MotionEvent)
    case clip(MotionClipRecord)
}

extension SessionHost {
    /// `rec status` fields for motion (`extra`): whether it moves now, its level and counts.
    var motionStatus: [String: String] {
        guard let now = motion?.now else { return [:] }
        var out = ["motion": now.moving ? "moving" : "still", "motion_level": String(format: "%.4f", now.level),
                   "motion_events": String(now.events), "motion_analysed": String(now.analysed),
                   "motion_cpu": String(format: "%.3f", now.cpuSeconds)]
        if now.skippedPackets > 0 { out["motion_skipped"] = String(now.skippedPackets) }
        if let e = now.indexError { out["motion_error"] = e }
        if let clips = motionReactor?.clips.withLock({ $0 }), !clips.isEmpty {
            out["motion_clips"] = String(clips.count)
            if let last = clips.last?.path, !last.isEmpty { out["motion_last_clip"] = last }
        }
        return out
    }
}
