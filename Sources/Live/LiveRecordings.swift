import Foundation
import RecCore

/// What a session holds and held, for a review timeline (`GET /api/recordings`): the ring, the
/// recording files still on disk, the gaps in the pictures and the clips saved. Times are seconds
/// on the session's timeline.
package struct LiveRecordings: Sendable, Equatable {
    package struct Span: Sendable, Equatable {
        package var start: Double
        package var end: Double
        package init(start: Double, end: Double) { (self.start, self.end) = (start, end) }
    }

    package struct File: Sendable, Equatable {
        package var path: String
        package var span: Span
        package init(path: String, span: Span) { (self.path, self.span) = (path, span) }
    }

    package struct Gap: Sendable, Equatable {
        package var span: Span
        package var reason: String
        /// Still under way (the source is away now, or the recording ended): `span.end` is now.
        package var open: Bool
        package init(span: Span, reason: String, open: Bool) { (self.span, self.reason, self.open) = (span, reason, open) }
    }

    /// A clip the session wrote: when (`at`), its range, who asked (`save`, `page`, `motion`,
    /// `mqtt`, `signal`), and its copy's state where it is uploaded (`pending`, `done`, `failed`).
    package struct Save: Sendable, Equatable {
        package var at: Double
        package var range: Span
        package var path: String
        package var frames: Int
        package var by: String
        package var upload: String?
        package init(at: Double, range: Span, path: String, frames: Int, by: String, upload: String?) {
            (self.at, self.range, self.path, self.frames, self.by, self.upload) = (at, range, path, frames, by, upload)
        }
    }

    package var startedAt: Double?
    package var frameRate: Double?
    package var newest: Double?
    package var ring: Span?
    package var files: [File] = []
    package var gaps: [Gap] = []
    package var saves: [Save] = []

    package init(startedAt: Double?, frameRate: Double?, newest: Double?, ring: Span?) {
        (self.startedAt, self.frameRate, self.newest, self.ring) = (startedAt, frameRate, newest, ring)
    }

    /// The reply's JSON (docs/LIVE.md): numbers with 6 decimals, absent values null.
    package var json: String {
        func n(_ d: Double?) -> String { d.map { String(format: "%.6f", $0) } ?? "null" }
        func span(_ s: Span) -> String { #""start":\#(n(s.start)),"end":\#(n(s.end))"# }
        let files = files.map { #"{"path":\#(Preset.quote($0.path)),\#(span($0.span))}"# }
        let gaps = gaps.map { #"{\#(span($0.span)),"reason":\#(Preset.quote($0.reason)),"open":\#($0.open)}"# }
        let saves = saves.map {
            #"{"at":\#(n($0.at)),"from":\#(n($0.range.start)),"to":\#(n($0.range.end)),"path":\#(Preset.quote($0.path)),"#
                + #""frames":\#($0.frames),"by":\#(Preset.quote($0.by)),"upload":\#($0.upload.map(Preset.quote) ?? "null")}"#
        }
        return #"{"started_at":\#(n(startedAt)),"frame_rate":\#(n(frameRate)),"newest":\#(n(newest)),"#
            + #""ring":\#(ring.map { "{\(span($0))}" } ?? "null"),"files":[\#(files.joined(separator: ","))],"#
            + #""gaps":[\#(gaps.joined(separator: ","))],"saves":[\#(saves.joined(separator: ","))]}"#
    }
}

/// The picture shown at a time (`GET /api/frame.jpg`): a JPEG, the frame's own time on the
/// session's timeline, and where it came from (`ring` or `file`); or why there is none (before
/// the first frame, inside a gap, not recorded yet, no longer kept).
package enum LiveFrameAnswer: Sendable {
    case picture(LiveFrame)
    case none(String)
}

package struct LiveFrame: Sendable {
    package var jpeg: [UInt8]
    package var time: Double
    package var source: String?
    package init(jpeg: [UInt8], time: Double, source: String?) { (self.jpeg, self.time, self.source) = (jpeg, time, source) }
}
