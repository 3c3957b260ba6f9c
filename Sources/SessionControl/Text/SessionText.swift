import Foundation
import RecCore

/// `rec status` output.
package enum StatusText {
    package static func json(_ s: StatusBody) -> String { JSONText.encode(s) }

    package static func text(_ s: StatusBody) -> String {
        var lines = ["session '\(s.session ?? "?")': \(s.state)",
                     "  source   \(s.source ?? "?"), \(s.mode ?? "?")",
                     "  uptime   \(TimeText.clock(s.uptime ?? 0)), \(s.frames ?? 0) frames, \(String(format: "%.2f", s.fps ?? 0)) fps",
                     "  dropped  \(s.droppedLate ?? 0) late, \(s.droppedByDriver ?? 0) by the source; encoder lag \(s.encoderLagFrames ?? 0) frames",
                     "  bitrate  \(StatusLine.bitrate(Double(s.bitrate ?? 0)))",
                     "  ring     \(s.extra?["ring_start"] ?? "?")–\(s.extra?["ring_end"] ?? "?") s (\(String(format: "%.1f", s.ringSpan ?? 0)) s, \(StatusLine.bytes(Int64(s.ringBytes ?? 0))))",
                     "  output   \(s.output ?? "none (ring only)")" + (s.outputBytes.map { " (\(StatusLine.bytes(Int64($0))))" } ?? "")]
        if let n = s.extra?["segments"] {
            lines.append("  segments \(n) files kept, from \(s.extra?["segments_start"] ?? "?") s; the output above is the newest")
        }
        if let e = s.extra, let waiting = e["upload_waiting"] {
            let bytes = Int64(e["upload_waiting_bytes"] ?? "0") ?? 0
            var line = "  upload   \(e["upload"] ?? "clips"): \(waiting) files (\(StatusLine.bytes(bytes))) waiting, \(e["upload_copied"] ?? "0") copied"
            if let last = e["upload_last"] { line += "; last \(last) at \(e["upload_last_time"] ?? "?")" }
            lines.append(line)
            if let error = e["upload_error"] {
                lines.append("  upload   failing since \(e["upload_error_time"] ?? "?"): \(error)"
                             + (e["upload_retry_in"].map { " (next try in \($0) s)" } ?? ""))
            }
            if let warning = e["upload_warning"] { lines.append("  upload   warning: \(warning)") }
        }
        if let e = s.extra, let motion = e["motion"] {
            let level = (Double(e["motion_level"] ?? "0") ?? 0) * 100
            var line = "  motion   \(motion)" + (motion == "moving" ? String(format: " (%.1f %% of the picture)", level) : "")
                + ", \(e["motion_events"] ?? "0") events"
            if let clips = e["motion_clips"] { line += ", \(clips) clips saved" + (e["motion_last_clip"].map { ", last \($0)" } ?? "") }
            lines.append(line)
            if let error = e["motion_error"] { lines.append("  motion   \(error)") }
        }
        for a in s.sounds {
            let drift = a.driftPPM.map { String(format: "%+.0f ppm", $0) } ?? "not measured yet"
            lines.append("  audio    \(a.device), \(a.rate) Hz, \(a.channels) ch, \(a.encoder); clock drift \(drift)")
            lines.append("  level    \(AudioLevel.bar(a.peakDBFS, width: 30)); \(a.overruns) overruns, \(a.gaps) gaps"
                         + (a.gaps > 0 ? String(format: " (%.3f s of silence)", a.gapSeconds) : ""))
        }
        if let e = s.lastError { lines.append("  error    \(e)") }
        return lines.joined(separator: "\n")
    }
}

/// `rec snapshot` output.
package enum SnapshotText {
    package static func text(_ r: SnapshotReport) -> String {
        "saved \(r.path) (\(r.width ?? 0)x\(r.height ?? 0), frame at \(TimeText.clock(r.time ?? 0)))"
    }
}

/// `rec save` output.
package enum SaveText {
    package static func json(_ r: SaveReport) -> String { JSONText.encode(r) }

    package static func text(_ r: SaveReport) -> String {
        let req = r.requested.map { "\(TimeText.clock($0.from))–\(TimeText.clock($0.to))" } ?? "?"
        let saved = r.saved.map { "\(TimeText.clock($0.from))–\(TimeText.clock($0.to))" } ?? "?"
        var lines = ["saved \(r.path)",
                     "  \(r.frames ?? 0) frames, \(saved) of requested \(req), from the \((r.source ?? .ring).rawValue)"]
        var notes: [String] = []
        if let note = shortfallNote(r) { notes.append(note) }
        if let d = r.droppedInRange, d > 0 { notes.append("\(d) frames were dropped in this range while recording") }
        if let m = r.missing, m > 0 { notes.append(String(format: "%.1f s missing (the source was away)", m)) }
        if let p = r.prerollFrames, p > 0 { notes.append("\(p) preroll frames hidden") }
        if let n = r.reencoded, n > 0 { notes.append("\(n) frames re-encoded") }
        if let b = r.bytes { notes.append(StatusLine.bytes(Int64(b))) }
        if !notes.isEmpty { lines.append("  " + notes.joined(separator: ", ")) }
        return lines.joined(separator: "\n")
    }

    /// Why the clip starts after the requested start, for people.
    package static func shortfallNote(_ r: SaveReport) -> String? {
        guard let shortfall = r.shortfall, let asked = r.requested, let saved = r.saved else { return nil }
        let left = String(format: "%.1f s", max(0, saved.from - asked.from))
        switch shortfall {
        case .beforeSession: return "the first \(left) asked for are before the session began"
        case .notHeld: return "the first \(left) asked for are no longer held (older than the ring and every file)"
        }
    }
}

/// `rec stop`'s summary, for people and for scripts.
package struct StopText {
    var summary: StopSummary
    package init(_ summary: StopSummary) { self.summary = summary }

    package var json: String { JSONText.encode(summary) }

    package var text: String {
        var lines = ["stopped; recorded \(summary.path ?? "no file (ring only)")",
                     "  \(summary.frames ?? 0) frames in \(TimeText.clock(summary.duration ?? 0)), dropped \(summary.dropped ?? 0)"
                        + (summary.bytes.map { ", \(StatusLine.bytes(Int64($0)))" } ?? "")]
        if let error = summary.error { lines.append("  error: \(error)") }
        return lines.joined(separator: "\n")
    }
}
