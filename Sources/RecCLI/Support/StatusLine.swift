import Foundation
import RecCore
import Session

/// Human formatting of a recording's telemetry: the live status line on a TTY and the summary.
enum StatusLine {
    static func line(_ s: RecorderStats) -> String {
        let elapsed = TimeText.clock(s.lastCaptureTime.seconds)
        return "\(elapsed)  \(s.framesCaptured) frames  \(String(format: "%.1f", s.realFrameRate)) fps  "
            + "dropped \(s.droppedLate + s.droppedBySource)  \(bitrate(s.bitrate))  \(bytes(s.outputBytes))"
    }

    static func bitrate(_ bps: Double) -> String {
        bps >= 1_000_000 ? String(format: "%.2f Mb/s", bps / 1_000_000) : String(format: "%.0f kb/s", bps / 1000)
    }

    static func bytes(_ n: Int64) -> String {
        let d = Double(n)
        if n >= 1 << 30 { return String(format: "%.2f GiB", d / 1_073_741_824) }
        if n >= 1 << 20 { return String(format: "%.1f MiB", d / 1_048_576) }
        if n >= 1 << 10 { return String(format: "%.0f KiB", d / 1024) }
        return "\(n) B"
    }
}

/// Minimal time text for status output; `0:05.033`, `1:02:03.250`.
enum TimeText {
    static func clock(_ seconds: Double) -> String {
        let ms = Int((max(0, seconds) * 1000).rounded())
        let h = ms / 3_600_000, m = ms / 60_000 % 60, s = ms / 1000 % 60, f = ms % 1000
        return h > 0 ? String(format: "%d:%02d:%02d.%03d", h, m, s, f) : String(format: "%d:%02d.%03d", m, s, f)
    }
}
