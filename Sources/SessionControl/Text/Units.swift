import Foundation
import RecCore

/// Bitrates and sizes for status output.
package enum StatusLine {
    package static func bitrate(_ bps: Double) -> String {
        bps >= 1_000_000 ? String(format: "%.2f Mb/s", bps / 1_000_000) : String(format: "%.0f kb/s", bps / 1000)
    }

    /// `ByteSize.text`: one way to write sizes everywhere.
    package static func bytes(_ n: Int64) -> String { ByteSize.text(Int(n)) }
}

/// Minimal time text for status output; `0:05.033`, `1:02:03.250`.
package enum TimeText {
    package static func clock(_ seconds: Double) -> String {
        let ms = Int((max(0, seconds) * 1000).rounded())
        let h = ms / 3_600_000, m = ms / 60_000 % 60, s = ms / 1000 % 60, f = ms % 1000
        return h > 0 ? String(format: "%d:%02d:%02d.%03d", h, m, s, f) : String(format: "%d:%02d.%03d", m, s, f)
    }
}
