import Foundation
import Media
import Synchronization
import Testing

/// The live page in headless Chromium: the page exercises itself (`#selftest`) and logs
/// `REC-SELFTEST {…}` lines, which this reads from Chromium's log on stderr.
@Suite struct LivePageBrowserTests {
    static let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Runs Chromium on `url` until the page says it is done (or 60 s pass); the self-test records.
    static func selftest(_ url: String, profile: String) throws -> [String: Any] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(chromium, "install chromium (scripts/setup.sh does)"))
        process.arguments = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run", "--disable-extensions",
                             "--user-data-dir=\(profile)", "--autoplay-policy=no-user-gesture-required",
                             "--enable-logging=stderr", "--v=0", url + "#selftest"]
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let lines = Mutex<[String]>([])
        let done = DispatchSemaphore(value: 0)
        let reader = Thread {
            var text = ""
            while case let data = err.fileHandleForReading.availableData, !data.isEmpty {
                text += String(decoding: data, as: UTF8.self)
                while let newline = text.firstIndex(of: "\n") {
                    let line = String(text[..<newline])
                    text = String(text[text.index(after: newline)...])
                    guard let start = line.range(of: "REC-SELFTEST ")?.upperBound,
                          let end = line.range(of: "}\", source:")?.lowerBound else { continue }
                    let json = String(line[start...end]).replacingOccurrences(of: "\\\"", with: "\"")
                    lines.withLock { $0.append(json) }
                    if json.hasPrefix(#"{"done""#) { done.signal() }
                }
            }
            done.signal()
        }
        reader.start()
        _ = done.wait(timeout: .now() + 60)
        process.terminate()
        process.waitUntilExit()
        var results: [String: Any] = [:]
        for json in lines.withLock({ $0 }) {
            if let record = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any] {
                results.merge(record) { _, b in b }
            }
        }
        return results
    }

    @Test func thePagePlaysLiveAndPlaysAndSavesAnExactRange() throws {
        let live = try LiveSessionTests.Live()
        try live.sandbox.waitForFrames(60)
        let results = try Self.selftest(live.url, profile: live.sandbox.path("chromium"))
        // The live picture advances: frame numbers read back from a canvas.
        let liveFrames = (results["live"] as? [String: Any])?["frames"] as? [Int] ?? []
        #expect(liveFrames.count >= 30, "the page saw \(liveFrames.count) live frames: \(results)")
        #expect(liveFrames == liveFrames.sorted() && Set(liveFrames).count == liveFrames.count)
        if let latencies = (results["live"] as? [String: Any])?["latencies"] as? [Int], !latencies.isEmpty {
            let sorted = latencies.sorted()
            print("live page latency (320x240@30, capture to display): median \(sorted[sorted.count / 2]) ms, "
                  + "95th percentile \(sorted[sorted.count * 95 / 100]) ms over \(sorted.count) frames")
        }
        // The range chosen on the timeline plays: frames of [from, to) in order.
        let clip = try #require(results["clip"] as? [String: Any], "no clip result: \(results)")
        let from = try #require(clip["from"] as? Double), to = try #require(clip["to"] as? Double)
        let expected = Int((from * 30).rounded())..<Int((to * 30).rounded())
        let played = clip["frames"] as? [Int] ?? []
        #expect(played.count >= 10 && played.allSatisfy(expected.contains) && played == played.sorted(), "played \(played), want \(expected)")
        #expect(played.last == expected.last)
        // And saves exactly on the session's machine.
        let save = try #require((results["save"] as? [String: Any])?["save"] as? [String: Any], "no save result: \(results)")
        let path = try #require(save["path"] as? String)
        #expect(try FrameReader.read(path: path).frames.map(\.stamp) == expected.map { Optional($0) })
        try? FileManager.default.removeItem(atPath: path)
        #expect(try live.sandbox.rec(["stop"]).status == 0)
    }
}
