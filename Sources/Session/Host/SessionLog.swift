import Foundation
import Synchronization

/// The session's log file: one line per event (start, each save, errors, stop), with the time.
package final class SessionLog: Sendable {
    private let handle: Mutex<FileHandle?>

    package init(path: String) {
        let h = FileHandle(forWritingAtPath: path)
        _ = try? h?.seekToEnd()
        handle = Mutex(h)
    }

    package func write(_ line: String) {
        let stamp = ISOTimeText.local(Date())
        let data = Data("\(stamp) \(line)\n".utf8)
        handle.withLock { h in try? h?.write(contentsOf: data) }
    }
}
