import Foundation
import Synchronization

/// The session's log file: one line per event (start, each save, errors, stop), with the time.
public final class SessionLog: Sendable {
    private let handle: Mutex<FileHandle?>

    public init(path: String) {
        let h = FileHandle(forWritingAtPath: path)
        _ = try? h?.seekToEnd()
        handle = Mutex(h)
    }

    public func write(_ line: String) {
        let stamp = ISOTimeText.local(Date())
        let data = Data("\(stamp) \(line)\n".utf8)
        handle.withLock { h in try? h?.write(contentsOf: data) }
    }
}
