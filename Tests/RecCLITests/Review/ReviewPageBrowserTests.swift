import Foundation
import Glibc
import Media
import Testing
import TestPool
import TestServers

/// Issue 42, the review page in real headless Chromium and Firefox ESR: three sessions (two
/// stand-in cameras at 30 and 25 fps, and a network camera copied from gst-rtsp-server, whose
/// server is killed for 5 s), one `rec review`. The page exercises itself (`#reviewtest`, see
/// ReviewSelftest.swift) and the test checks what it logged against the recordings.
@Suite(.blocking, .serialized) struct ReviewPageBrowserTests {
    typealias Sandbox = BackgroundSessionTests.Sandbox
    typealias Browser = LivePageBrowserTests.Browser

    @Test func everyCameraOnOneTimelineExactAtThePlayheadAndInTheExport() throws {
        let server = try RTSPTestServer(.init(size: "320x180"))
        let sandbox = try Sandbox()
        let box = try ReviewBox(sandbox: sandbox)
        try box.startCamera("a", "test:320x240@30")
        try box.startCamera("b", "test:320x240@25")
        try box.startCamera("net", server.url(.h264), ["-o", "net.mkv"])
        for name in ["a", "b", "net"] { try sandbox.waitForFrames(45, session: name) }

        // An outage made for real: the camera's server killed, restarted 5 s later on its port.
        let killed = Date().timeIntervalSince1970
        server.kill()
        let away = try sandbox.rec(["status", "--session", "net", "--json", "--wait-error", "--timeout", "20s"])
        #expect(away.status == 0, "\(away.error)")
        Thread.sleep(forTimeInterval: max(0, killed + 5 - Date().timeIntervalSince1970))  // the outage's length is the test's choice
        try server.restart()
        let restarted = Date().timeIntervalSince1970
        let frames = (try sandbox.status("net")["frames"] as? Int) ?? 0
        try sandbox.waitForFrames(frames + 45, session: "net")

        for browser in Browser.allCases {
            let profile = sandbox.path(browser.rawValue)
            let results = try LivePageBrowserTests.selftest(browser, box.exportURL, profile: profile,
                                                            hash: "#reviewtest&cameras=3&at=-1.5&from=-2&to=5&export=1")
            try check(results, browser: browser, box: box, killed: killed, restarted: restarted)
        }
        try screenshots(box)
        for name in ["a", "b", "net"] { #expect(try sandbox.rec(["stop", "--session", name]).status == 0) }
    }

    private func check(_ results: [String: Any], browser: Browser, box: ReviewBox, killed: Double, restarted: Double) throws {
        // Live: every stand-in tile plays, frame numbers rising; latency printed (bench/review.sh measures it).
        let live = results["live"] as? [String: Any] ?? [:]
        let frames = live["frames"] as? [String: [Int]] ?? [:], latencies = live["latencies"] as? [String: [Int]] ?? [:]
        for name in ["a", "b"] {
            let seen = frames[name] ?? []
            #expect(seen.count >= 10 && seen == seen.sorted(), "\(browser) \(name) live frames \(seen)")
        }
        let all = latencies.values.flatMap { $0 }.sorted()
        if !all.isEmpty { print("\(browser) review grid latency, capture to display: median \(all[all.count / 2]) ms over \(all.count) frames") }

        // The playhead: each camera shows the frame recorded at that instant, within one frame.
        let shown = try #require(results["playhead"] as? [String: [String: Any]], "\(browser): \(results.keys)")
        for name in ["a", "b"] {
            let s = shown[name] ?? [:]
            let at = s["playhead"] as? Double ?? 0, started = s["startedAt"] as? Double ?? 0, rate = s["rate"] as? Double ?? 1
            let want = Int(((at - started) * rate + 1e-4).rounded(.down))
            let got = s["frame"] as? Int
            #expect(got.map { abs($0 - want) <= 1 } == true, "\(browser) \(name) shows frame \(got.map(String.init) ?? "none") at the playhead, want \(want): \(s)")
        }
        // The Right arrow: one frame of the first camera on, each camera's exact frame again.
        let step = results["step"] as? [String: Any] ?? [:], stepped = step["frames"] as? [String: Any] ?? [:]
        let moved = (step["to"] as? Double ?? 0) - (step["from"] as? Double ?? 0)
        #expect(abs(moved - 1.0 / 30) < 0.002 && stepped["a"] as? Int == (shown["a"]?["frame"] as? Int).map { $0 + 1 }, "\(browser) step \(step); at the playhead a showed \(shown["a"]?["frame"] ?? "none")")
        // A link to an instant opens the playhead there, on a frame.
        let link = results["link"] as? [String: Any] ?? [:]
        #expect(abs((link["playhead"] as? Double ?? 0) - (link["asked"] as? Double ?? 1)) <= 0.5 / 30 + 0.001, "\(browser) link \(link)")
        let net = shown["net"] ?? [:]
        let at = net["playhead"] as? Double ?? 0, started = net["startedAt"] as? Double ?? 0
        let times = try NetworkClip.frames(box.sandbox.path("net.mkv")).map(\.time)
        let counters = try NetworkClip.counters(box.sandbox.path("net.mkv"), width: 320, height: 180)
        if let index = times.lastIndex(where: { $0 <= at - started + 0.0005 }), index < counters.count {
            let got = net["counter"] as? Int
            #expect(got.map { abs($0 - counters[index]) <= 1 } == true, "\(browser) net shows counter \(got.map(String.init) ?? "none"), want \(counters[index])")
        } else {
            Issue.record("\(browser): the playhead \(at - started) s is outside net.mkv (\(times.first ?? -1)…\(times.last ?? -1))")
        }

        // The outage: one gap on the network camera's row, where it happened, drawn shaded.
        let outages = results["outages"] as? [String: [[String: Any]]] ?? [:]
        let gaps = outages["net"] ?? []
        #expect(gaps.count == 1, "\(browser) gaps \(outages)")
        if let gap = gaps.first, let from = gap["from"] as? Double, let to = gap["to"] as? Double {
            #expect(from > killed - 1.5 && from <= killed + 0.1, "\(browser) the gap starts at \(from - killed) s from the kill")
            #expect(to >= restarted - 0.1 && to < restarted + 6, "\(browser) the gap ends \(to - restarted) s after the restart")
            let pixel = gap["pixel"] as? [Int] ?? []
            #expect(pixel.count == 3 && abs(pixel[0] - 192) < 30 && abs(pixel[1] - 57) < 30 && abs(pixel[2] - 43) < 30, "\(browser) gap drawn \(pixel)")
        }
        #expect(outages["a"]?.isEmpty == true && outages["b"]?.isEmpty == true, "\(outages)")

        // The export: handles set with I and O and the out handle dragged 5 s into the future.
        let export = try #require(results["export"] as? [String: Any], "\(browser): no export result")
        let handles = export["handles"] as? [Double] ?? []
        let job = export["job"] as? [String: Any] ?? [:]
        #expect(job["state"] as? String == "done", "\(browser) export \(export)")
        try #require(handles.count == 2)
        // The range the page asked for (its handles, half a millisecond back), as the export holds it.
        let sent = [job["from"] as? Double ?? 0, job["to"] as? Double ?? 0]
        #expect(abs(sent[0] - handles[0]) < 0.001 && abs(sent[1] - handles[1]) < 0.001, "\(browser) handles \(handles), export \(sent)")
        let manifest = job["manifest"] as? [String: Any] ?? [:]
        let folder = job["folder"] as? String ?? ""
        for camera in manifest["cameras"] as? [[String: Any]] ?? [] {
            let name = camera["name"] as? String ?? "", path = folder + "/" + (camera["file"] as? String ?? "")
            if name == "net" {
                let clip = try NetworkClip.counters(path, width: 320, height: 180)
                let inFile = zip(times, counters).filter { $0.0 >= sent[0] - started && $0.0 < sent[1] - started }.map(\.1)
                #expect(!clip.isEmpty && clip.first == inFile.first, "\(browser) net clip starts at \(clip.first ?? -1), the recording has \(inFile.first ?? -1)")
                let consecutive = clip == Array(clip.first.map { Array($0..<($0 + clip.count)) } ?? [])
                #expect(consecutive, "\(browser) net clip not consecutive")
                #expect(abs(Double(clip.count) - (sent[1] - sent[0]) * 30) <= 2, "\(browser) net clip \(clip.count) frames")
            } else {
                let s = shown[name] ?? [:], started = s["startedAt"] as? Double ?? 0, rate = s["rate"] as? Double ?? 1
                let first = Int(((sent[0] - started) * rate - 1e-4).rounded(.up)), end = Int(((sent[1] - started) * rate - 1e-4).rounded(.up))
                let stamps = try FrameReader.read(path: path).frames.map(\.stamp)
                let exact = stamps == (first..<end).map { Optional($0) }
            #expect(exact, "\(browser) \(name) clip \(stamps.first ?? nil)…\(stamps.last ?? nil) (\(stamps.count)), want \(first)..<\(end)")
            }
        }
        #expect((manifest["cameras"] as? [[String: Any]])?.count == 3, "\(manifest)")
        // The export's saves marked on every camera's row, in the saves' colour (#5aa9ff: no upload)
        // under the handles' range tint (rgba(255, 213, 74, .18)), which covers the same span.
        let saves = results["saves"] as? [String: [[String: Any]]] ?? [:]
        let tinted = zip([90, 169, 255], [255, 213, 74]).map { Double($0) * 0.82 + Double($1) * 0.18 }
        for name in ["a", "b", "net"] {
            let marks = saves[name] ?? []
            let covering = marks.filter { ($0["from"] as? Double ?? .infinity) <= sent[0] + 0.05 && ($0["to"] as? Double ?? 0) >= sent[1] - 0.05 }
            let marked = covering.contains { mark in
                let pixel = mark["pixel"] as? [Int] ?? []
                return pixel.count == 3 && zip(pixel, tinted).allSatisfy { abs(Double($0) - $1) <= 2 }
            }
            #expect(marked, "\(browser) \(name): the export's save is not marked: \(marks)")
        }

        // Accessibility, checked by hand in the page: names, tab order, contrast.
        let a11y = results["a11y"] as? [String: Any] ?? [:]
        #expect((a11y["unnamed"] as? [Any])?.isEmpty == true && (a11y["lowContrast"] as? [Any])?.isEmpty == true
                && a11y["positiveTabindex"] as? Int == 0, "\(browser) accessibility: \(a11y)")
    }

    /// The page at desktop and phone sizes, for a person to look at: written into
    /// `$REC_TEST_OUTPUT` (default `.build/test-output`) under review/.
    private func screenshots(_ box: ReviewBox) throws {
        let root = ProcessInfo.processInfo.environment["REC_TEST_OUTPUT"]
            ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().path + "/.build/test-output"
        let folder = root + "/review"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // Chromium only: Firefox's --screenshot is taken at the page's load, before the cameras
        // arrive (it showed an empty grid), and has no virtual time to wait with.
        for browser in [Browser.chromium] {
            guard let executable = browser.executable else { continue }
            for (size, (w, h)) in [("desktop", (1280, 800)), ("phone", (390, 844))] {
                let file = "\(folder)/\(browser.rawValue)-\(size).png", profile = box.sandbox.path("shot-\(browser.rawValue)-\(size)")
                try? FileManager.default.removeItem(atPath: file)
                let arguments: [String]
                switch browser {
                case .chromium:
                    arguments = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run", "--user-data-dir=\(profile)",
                                 "--hide-scrollbars", "--window-size=\(w),\(h)", "--virtual-time-budget=6000", "--screenshot=\(file)", box.watchURL]
                case .firefox:
                    arguments = Array(try browser.arguments(box.watchURL, profile: profile).dropLast()) + ["--window-size=\(w),\(h)", "--screenshot", file, box.watchURL]
                }
                _ = try BrowserConsole.run(executable, arguments, marker: "REC-NEVER ", timeout: 45) { _ in false }
                let bytes = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0
                #expect(bytes > 5000, "no \(size) screenshot from \(browser) at \(file)")
                print("review page screenshot: \(file)")
            }
        }
    }
}
