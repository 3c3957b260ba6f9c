import Foundation
import Testing
import TestServers

extension CorpusChecks {
    /// The clip plays in headless Chromium: sought to its first, middle and last frames, it shows
    /// the counters ffmpeg decodes there (one of two tries, as the cut tests allow: Chromium now
    /// and then draws the frame from before a seek), and lasts what its pictures last. Debian's
    /// Chromium has no decoder for H.265 or MJPEG (it plays H.265 only through a platform decoder,
    /// which this machine has not): for those the check is that Chromium says it cannot play the
    /// codec (`MEDIA_ERR_SRC_NOT_SUPPORTED`, code 4, or H.265's track left out and the sound
    /// played alone), not that it fails while decoding.
    func clipPlaysInChromium(_ clip: [Int]) throws {
        let times = try NetworkClip.frames(take.clip).map(\.time)
        guard clip.count > 2, times.count == clip.count else {
            Issue.record("Chromium: \(clip.count) counters and \(times.count) frame times in the clip")
            return
        }
        let codec = try NetworkClip.stream("video", in: take.clip)?["codec_name"] as? String ?? "?"
        let picks = [0, clip.count / 2, clip.count - 1]
        // Half a frame into each picked frame (the last one's own duration is the nominal frame's).
        let seek = picks.map { i in times[i] + (i + 1 < times.count ? (times[i + 1] - times[i]) / 2 : frame / 2) }
        let reader = StandInPicture(width: Camera.width, height: Camera.height)
        func counters(_ browser: Players.Browser) -> [Int] {
            browser.top.map { reader.read($0 + [UInt8](repeating: 0, count: max(0, Camera.width * Camera.height - $0.count))).counter }
        }
        let browser: Players.Browser
        do {
            let first = try Players.chromium(take.clip, times: seek, topRows: reader.block)
            browser = counters(first) == picks.map { clip[$0] } ? first : try Players.chromium(take.clip, times: seek, topRows: reader.block)
        } catch {
            // The page reports `MediaError`'s code and message (`["error": "4 …"]`), or that
            // the browser left the video track out and shows no picture.
            let refused = "\(error)".contains("\"4 ") || "\(error)".contains("no-video")
            #expect(codec != "h264" && refused, "Chromium, \(codec): \(error)")
            return
        }
        #expect(counters(browser) == picks.map { clip[$0] },
                "Chromium shows frames \(counters(browser)) at \(seek) s, ffmpeg \(picks.map { clip[$0] })")
        let length = (times.last ?? 0) - (times.first ?? 0) + frame
        #expect(abs(browser.duration - length) < frame, "Chromium: \(browser.duration) s for \(length) s of pictures")
    }
}
