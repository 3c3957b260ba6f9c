import Foundation
import RecClient
import RecCore
import Session
import SessionControl

extension StatusLine {
    /// The live status line `rec record` redraws on a terminal.
    static func line(_ s: RecorderStats) -> String {
        let elapsed = TimeText.clock(s.lastCaptureTime.seconds)
        return "\(elapsed)  \(s.framesCaptured) frames  \(String(format: "%.1f", s.realFrameRate)) fps  "
            + "dropped \(s.droppedLate + s.droppedBySource)  \(bitrate(s.bitrate))  \(bytes(s.outputBytes))"
    }
}
