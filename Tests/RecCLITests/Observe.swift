import Foundation
import Glibc
import SessionControl
import TestFileWatch

/// Waits for what a test can observe, on events rather than a clock: file-system events through
/// `FileWatch`, a pidfd for a process's exit.
enum Observe {
    /// Checks `condition` after each change in `paths`, as `FileWatch.wait`.
    static func until(watching paths: [String], timeout: Double = 60, _ condition: () throws -> Bool) rethrows -> Bool {
        try FileWatch(paths).wait(timeout: timeout, until: condition)
    }

    /// A handle on process `pid`'s exit (its pidfd): open it before whatever makes it exit.
    static func exit(of pid: Int32) -> ProcessExit? {
        if case .watching(let handle) = ProcessExit.open(pid: pid) { return handle }
        return nil
    }
}
