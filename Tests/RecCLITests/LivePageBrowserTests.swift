import Foundation
import Glibc
import Media
import Synchronization
import Testing
import TestPool

/// The live page in headless Chromium and Firefox: the page exercises itself (`#selftest`) and
/// logs `REC-SELFTEST {…}` lines, which this reads from the browser's console output.
@Suite(.blocking, .serialized) struct LivePageBrowserTests {
    enum Browser: String, CaseIterable, CustomTestStringConvertible {
        case chromium, firefox

        var testDescription: String { rawValue }

        var executable: String? {
            let candidates = self == .chromium ? ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
                : ["/usr/bin/firefox-esr", "/usr/bin/firefox"]
            return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
        }

        /// The command line for `url`, with a fresh profile in `profile`. Firefox writes the
        /// page's console to stdout only when its profile says so; `prefs` adds to its profile.
        func arguments(_ url: String, profile: String, prefs extra: [String: String] = [:]) throws -> [String] {
            switch self {
            case .chromium:
                return ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run", "--disable-extensions",
                        "--user-data-dir=\(profile)", "--autoplay-policy=no-user-gesture-required", "--enable-logging=stderr", "--v=0", url]
            case .firefox:
                try FileManager.default.createDirectory(atPath: profile, withIntermediateDirectories: true)
                let prefs = ["devtools.console.stdout.content": "true", "media.autoplay.default": "0", "media.autoplay.blocking_policy": "0",
                             "browser.shell.checkDefaultBrowser": "false", "datareporting.policy.dataSubmissionEnabled": "false",
                             "app.update.enabled": "false", "browser.startup.homepage_override.mstone": "\"ignore\""]
                    .merging(extra) { _, b in b }
                try prefs.map { "user_pref(\"\($0.key)\", \($0.value));" }.joined(separator: "\n")
                    .write(toFile: profile + "/user.js", atomically: true, encoding: .utf8)
                return ["--headless", "--no-remote", "--profile", profile, url]
            }
        }
    }

    /// Runs the browser on `url` until the page says it is done (or 60 s pass); the self-test records.
    static func selftest(_ browser: Browser, _ url: String, profile: String, hash: String = "#selftest") throws -> [String: Any] {
        let executable = try #require(browser.executable, "install \(browser) (scripts/setup.sh does)")
        let run = try BrowserConsole.run(executable, try browser.arguments(url + hash, profile: profile),
                                         marker: "REC-SELFTEST ") { $0["done"] != nil }
        var results: [String: Any] = [:]
        for record in run.records { results.merge(record) { _, b in b } }
        return results
    }

    @Test(arguments: Browser.allCases)
    func thePagePlaysLiveWithSoundAndPlaysAndSavesAnExactRange(_ browser: Browser) throws {
        // The page's self-test saves 0.2-1.2 s of the session: the ring holds it however slow the
        // browser is (in a whole-suite run Chromium asked at 53 s, after a 30 s ring let it go).
        let live = try LiveSessionTests.Live(["--audio", "test", "--buffer", "10m"])
        try live.sandbox.waitForFrames(60)
        let results = try Self.selftest(browser, live.url, profile: live.sandbox.path(browser.rawValue))
        // The live picture advances: frame numbers read back from a canvas.
        let liveResult = results["live"] as? [String: Any] ?? [:]
        let liveFrames = liveResult["frames"] as? [Int] ?? []
        // How many frames a browser paints depends on the CPU it gets: Chromium painted 19 of a
        // few hundred, 0.4-2 s late, in a whole-suite run at load 5 on 2 cores (a CI run at 26a3f13).
        // The page must keep showing new frames, in order, each once; latency is bench/live.sh's.
        #expect(liveFrames.count >= 10, "\(browser) saw \(liveFrames.count) live frames: \(results)")
        #expect(liveFrames == liveFrames.sorted() && Set(liveFrames).count == liveFrames.count)
        if let latencies = liveResult["latencies"] as? [Int], !latencies.isEmpty {
            let sorted = latencies.sorted()
            print("\(browser) live page latency (320x240@30 with sound, capture to display): median \(sorted[sorted.count / 2]) ms, "
                  + "95th percentile \(sorted[sorted.count * 95 / 100]) ms over \(sorted.count) frames")
        }
        // And its sound: Chromium counts the audio bytes it decoded, Firefox says the element has audio.
        #expect(liveResult["sound"] as? String == "mp4a.40.2", "\(liveResult)")
        switch browser {
        case .chromium: #expect((liveResult["audioBytes"] as? Int ?? 0) > 0, "Chromium decoded no sound: \(liveResult)")
        case .firefox: #expect(liveResult["hasAudio"] as? Bool == true, "Firefox found no sound: \(liveResult)")
        }
        // The range chosen on the timeline plays: frames of [from, to) in order, to the last.
        let clip = try #require(results["clip"] as? [String: Any], "no clip result: \(results)")
        let from = try #require(clip["from"] as? Double), to = try #require(clip["to"] as? Double)
        let expected = Int((from * 30).rounded())..<Int((to * 30).rounded())
        let played = clip["frames"] as? [Int] ?? []
        // A browser on a loaded machine shows only some of a clip's frames (Chromium showed 9 of 30,
        // and in another whole-suite run at load 5 only 6 and 35): what is shown must be inside the
        // range, in order, and reach its last frame; the clip's own frames are checked exactly by
        // the save below.
        #expect(played.count >= 2 && played.allSatisfy(expected.contains) && played == played.sorted(), "played \(played), want \(expected)")
        #expect(played.last == expected.last, "played \(played), want \(expected)")
        // And saves exactly on the session's machine.
        let save = try #require((results["save"] as? [String: Any])?["save"] as? [String: Any], "no save result: \(results)")
        let path = try #require(save["path"] as? String)
        #expect(try FrameReader.read(path: path).frames.map(\.stamp) == expected.map { Optional($0) })
        try? FileManager.default.removeItem(atPath: path)
        #expect(try live.sandbox.rec(["stop"]).status == 0)
    }

    /// Issue 42: a viewer that falls behind jumps back to live instead of drifting. The page's
    /// JavaScript stops for 3 s (`#stalltest`), as a frozen or background tab's does: nothing is read
    /// or appended and the picture stands still while the session goes on, so 3 s of stream wait
    /// for it. Without the jump the player would play them in turn, 3 s late, and catch up at a
    /// quarter faster only after 12 s; the frames it shows from 0.5 s to 2.5 s after the stall,
    /// read from the picture, must be within 1 s of their capture (with the jump taken out, both
    /// browsers failed: no jump, and frames 2-3 s behind).
    @Test(arguments: Browser.allCases)
    func aViewerThatFellBehindJumpsBackToLive(_ browser: Browser) throws {
        let live = try LiveSessionTests.Live()
        try live.sandbox.waitForFrames(30)
        let results = try Self.selftest(browser, live.url, profile: live.sandbox.path(browser.rawValue), hash: "#stalltest")
        let stall = try #require(results["stall"] as? [String: Any], "\(results)")
        #expect((stall["jumps"] as? Int ?? 0) >= 1, "\(browser) did not jump: \(stall)")
        let frames = stall["frames"] as? [Int] ?? [], latencies = stall["latencies"] as? [Int] ?? []
        try #require(latencies.count >= 3, "\(browser) showed \(latencies.count) frames after the stall: \(stall)")
        #expect(frames == frames.sorted() && Set(frames).count == frames.count, "\(frames)")
        let median = latencies.sorted()[latencies.count / 2]
        #expect(median <= 1000, "\(browser) is \(median) ms behind after the stall: \(stall)")
        print("\(browser) after a 3 s stall: \(stall["jumps"] ?? 0) jump(s), then \(latencies.count) frames "
              + "\(latencies.min() ?? 0)-\(latencies.max() ?? 0) ms behind (median \(median)); before it \(stall["before"] ?? [])")
        #expect(try live.sandbox.rec(["stop"]).status == 0)
    }

    /// Issue 40: the page draws the session's motion on its timeline. The source is the drawn
    /// file of MQTTSessionTests (a square moving from 3 s to 5 s): one event, its mark where 3.2 s
    /// falls on the strip, and the level graph over the moving part.
    @Test(arguments: Browser.allCases)
    func thePageDrawsMotionOnItsTimeline(_ browser: Browser) throws {
        let sandbox = try BackgroundSessionTests.Sandbox()
        let source = try MQTTSessionTests.motionFile(sandbox)
        let live = try LiveSessionTests.Live(sandbox: sandbox, ["--source", "file:" + source, "--motion"])
        // The event ends 2 s after the square stops (5 s): wait for the ring to pass 7.5 s.
        let waited = try sandbox.rec(["status", "--json", "--wait-until", "7.5", "--timeout", "60s"])
        try #require(waited.status == 0, "\(waited.error)")
        let results = try Self.selftest(browser, live.url, profile: sandbox.path(browser.rawValue), hash: "#motiontest")
        let motion = try #require(results["motion"] as? [String: Any], "\(results)")
        #expect(motion["events"] as? Int == 1, "\(motion)")
        // 3.2 s to 5 s at 5 a second: about nine steps with motion.
        #expect((motion["levels"] as? Int ?? 0) >= 7, "\(motion)")
        let span = motion["span"] as? [Double] ?? [], width = motion["width"] as? Int ?? 0, marks = motion["marks"] as? [Int] ?? []
        try #require(span.count == 2 && width > 0 && !marks.isEmpty, "\(motion)")
        let expected = (3.2 - span[0]) / (span[1] - span[0]) * Double(width)
        #expect(marks.contains { abs(Double($0) - expected) <= 3 }, "the start mark at \(marks), expected near \(expected): \(motion)")
        #expect(try sandbox.rec(["stop"]).status == 0)
    }
}
