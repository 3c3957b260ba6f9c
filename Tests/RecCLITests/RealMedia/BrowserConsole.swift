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
    struct Run {
        /// The JSON records the page logged after the marker, in order.
        var records: [[String: Any]]
        /// The end of what the browser printed, for an error message.
        var tail: String
    }

    /// Runs `executable` with `arguments` and returns the JSON records its page logged after
    /// `marker`, once `isLast` says a record is the last, the browser ends, or `timeout` seconds
    /// pass; then kills the browser (SIGKILL: it inherits the test process's mask, which blocks
    /// SIGTERM) and waits a little for its children to let go of the output.
    static func run(_ executable: String, _ arguments: [String], marker: String, timeout: Double = 60,
                    isLast: @escaping @Sendable ([String: Any]) -> Bool) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardError = output
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let state = Mutex<(lines: [String], tail: String)>(([], ""))
        let done = DispatchSemaphore(value: 0)
        let ended = DispatchSemaphore(value: 0)
        let reader = Thread {
            var text = ""
            while case let data = output.fileHandleForReading.availableData, !data.isEmpty {
                let chunk = String(decoding: data, as: UTF8.self)
                text += chunk
                state.withLock { $0.tail = String(($0.tail + chunk).suffix(2000)) }
                while let newline = text.firstIndex(of: "\n") {
                    let line = String(text[..<newline])
                    text = String(text[text.index(after: newline)...])
                    // Chromium: `… "MARKER {…}", source: …`; Firefox: `console.log: "MARKER {…}"`.
                    guard let start = line.range(of: marker)?.upperBound,
                          let end = line.range(of: "}\"", options: .backwards)?.lowerBound, start <= end else { continue }
                    let json = String(line[start...end])
                    state.withLock { $0.lines.append(json) }
                    if let record = Self.record(json), isLast(record) { done.signal() }
                }
            }
            done.signal()
            ended.signal()
        }
        reader.start()
        _ = done.wait(timeout: .now() + timeout)
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        _ = ended.wait(timeout: .now() + 5)
        let (lines, tail) = state.withLock { ($0.lines, $0.tail) }
        return Run(records: lines.compactMap(Self.record), tail: tail)
    }

    /// A logged record: as printed (Chromium prints the message as it is), or with its quotes
    /// unescaped (Firefox prints it as a quoted string literal).
    static func record(_ text: String) -> [String: Any]? {
        for candidate in [text, text.replacingOccurrences(of: "\\\"", with: "\"")] {
            if let record = (try? JSONSerialization.jsonObject(with: Data(candidate.utf8))) as? [String: Any] { return record }
        }
        return nil
    }
}
