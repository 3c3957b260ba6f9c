import CFFmpeg
import Foundation
import Glibc
import Synchronization
import RecCore

/// Work that must never take the CPU a live encoder needs: a save's clip is written on a thread
/// of its own at a lower priority (nice +10 by default; Linux keeps the nice value per thread,
/// and threads a codec starts from it inherit it), and the caller waits for it.
package enum BackgroundWork {
    /// Runs `body` on a new thread at `niceness` and returns what it returns.
    package static func run<T: Sendable>(niceness: Int32 = 10,
                                        _ body: @escaping @Sendable () throws(RecError) -> T) throws(RecError) -> T {
        let outcome = Outcome<T>()
        let thread = Thread {
            // Lowering one's own priority needs no privilege; failing to is no reason not to save.
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(cffmpeg_gettid()), niceness)
            let result: Result<T, RecError>
            do throws(RecError) { result = .success(try body()) } catch { result = .failure(error) }
            outcome.finish(result)
        }
        thread.name = "rec-save"
        thread.start()
        return try outcome.wait().get()
    }

    /// The calling thread's nice value (field 19 of /proc/thread-self/stat).
    package static var currentNiceness: Int32? {
        guard let stat = try? String(contentsOfFile: "/proc/thread-self/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // Fields after the name start at 3 (state); nice is field 19.
        return fields.count > 16 ? Int32(fields[16]) : nil
    }
}

/// A result handed from the worker thread to the waiting one.
private final class Outcome<T: Sendable>: Sendable {
    private let state = Mutex<Result<T, RecError>?>(nil)
    private let done = Latch()

    func finish(_ result: Result<T, RecError>) {
        state.withLock { $0 = result }
        done.release()
    }

    func wait() -> Result<T, RecError> {
        done.wait()
        return state.withLock { $0 } ?? .failure(.runtime("the save's thread ended without a result"))
    }
}
