import Foundation
import RecClient
import RecCore
import Session
import SessionControl

/// The end-of-recording report, for people and (`--json`) for scripts.
struct RecordingSummary: Encodable {
    var state: String
    var path: String?
    var preset: String
    var source: String
    var mode: String
    var duration: Double
    var frames: Int
    var framesEncoded: Int
    var droppedLate: Int
    var droppedBySource: Int
    /// Times the camera went away (unplug, stall) and the recording resumed after it: gaps in the file.
    var gaps: Int
    /// What the camera did before the last gap ("was unplugged", "stopped delivering frames (a stall)").
    var lastGap: String?
    var realFrameRate: Double
    var bitrate: Double
    var bytes: Int64
    /// With `--segment`: how many files the recording kept (`path` is the last).
    var segments: Int?
    /// Each sound input (`--audio`), in stream order: device, stream, drift measured, overruns and gaps.
    var audio: [StatusSound]
    var error: String?

    init(stats s: RecorderStats, preset: String, segments: Int = 0) {
        state = s.state.rawValue
        path = s.outputPath
        self.preset = preset
        source = s.source
        mode = s.mode
        duration = s.lastCaptureTime.seconds + (s.realFrameRate > 0 ? 1 / s.realFrameRate : 0)
        frames = s.framesCaptured
        framesEncoded = s.framesEncoded
        droppedLate = s.droppedLate
        droppedBySource = s.droppedBySource
        gaps = s.gaps
        lastGap = s.lastGap
        realFrameRate = (s.realFrameRate * 1000).rounded() / 1000
        bitrate = s.bitrate.rounded()
        bytes = s.outputBytes
        error = s.lastError
        self.segments = segments > 0 ? segments : nil
        audio = s.sounds.map(\.status)
    }

    var json: String { JSONText.encode(self) }

    var text: String {
        var lines = ["recorded \(path ?? "(no file)")" + (segments.map { $0 > 1 ? ", the last of \($0) segments" : "" } ?? ""),
                     "  \(frames) frames in \(TimeText.clock(duration)), \(String(format: "%.2f", realFrameRate)) fps real, "
                        + "dropped \(droppedLate) late + \(droppedBySource) by the source",
                     "  \(source), \(mode), preset \(preset), \(StatusLine.bitrate(bitrate)), \(StatusLine.bytes(bytes))"]
        if gaps > 0 {
            lines.append("  \(gaps) gap\(gaps == 1 ? "" : "s"): the camera \(lastGap ?? "went away") and the recording resumed when it came back")
        }
        for a in audio {
            let drift = a.driftPPM.map { String(format: "clock drift %+.0f ppm corrected", $0) } ?? "clock drift not measured (too short)"
            lines.append("  sound: \(a.device), \(a.encoder) \(a.rate) Hz \(a.channels) ch, \(drift), \(a.overruns) overruns, \(a.gaps) gaps"
                         + (a.gaps > 0 ? String(format: " (%.3f s filled with silence)", a.gapSeconds) : ""))
            if let e = a.error { lines.append("  sound error: \(e)") }
        }
        if let error { lines.append("  error: \(error)") }
        return lines.joined(separator: "\n")
    }
}
