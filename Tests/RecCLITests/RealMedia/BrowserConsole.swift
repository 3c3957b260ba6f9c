import Foundation
import Glibc
import Synchronization

/// A headless browser run until its page says it is done, waiting in real time: the page logs
/// `<marker> {…}` lines to the console, which Chromium (`--enable-logging=stderr`) and Firefox
/// (`devtools.console.stdout.content`) print as they happen. Chromium's `--dump-dom` with
/// `--virtual-time-budget` was used before for the players' check: virtual time runs ahead while
/// the page is idle, so under load the budget ran out before a Matroska seek had decoded (the page
/// still said "pending" for the source file itself and for ffmpeg's own cut, 7 times in 8).
enum BrowserConsole {
    /// Runs `executable` with `arguments` and returns the JSON records its page logged after
    /// `marker`, in order, once `isLast` says a record is the last or `timeout` seconds pass;
    /// then kills the browser (SIGKILL: it inherits the test process's mask, which blocks SIGTERM).
    static func records(_ executable: String, _ arguments: [String], marker: String, timeout: Double = 60,
                        isLast: @escaping @Sendable (String) -> Bool) throws -> [[String: Any]] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardError = output
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let lines = Mutex<[String]>([])
        let done = DispatchSemaphore(value: 0)
        let reader = Thread {
            var text = ""
            while case let data = output.fileHandleForReading.availableData, !data.isEmpty {
                text += String(decoding: data, as: UTF8.self)
                while let newline = text.firstIndex(of: "\n") {
                    let line = String(text[..<newline])
                    text = String(text[text.index(after: newline)...])
                    // Chromium: `… "MARKER {…}", source: …`; Firefox: `console.log: "MARKER {…}"`.
                    guard let start = line.range(of: marker)?.upperBound,
                          let end = line.range(of: "}\"", options: .backwards)?.lowerBound, start <= end else { continue }
                    let json = String(line[start...end]).replacingOccurrences(of: "\\\"", with: "\"")
                    lines.withLock { $0.append(json) }
                    if isLast(json) { done.signal() }
                }
            }
            done.signal()
        }
        reader.start()
        _ = done.wait(timeout: .now() + timeout)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        return lines.withLock { $0 }.compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
    }
}
