import Foundation
import RecCore

/// Finishes rotated-out segment files on its own thread ("rec.finish"), oldest first, so the
/// encode thread never waits for a trailer or an MP4 rewrite (`AssetWriter.finish`).
///
/// `@unchecked Sendable`: it owns `condition`, and `pending` and `closed` are touched only while
/// holding it. Each writer is handed over by the encode thread, which never uses it again, and is
/// then used only by the finisher thread: one owner at a time.
final class SegmentFinisher: @unchecked Sendable {
    private let condition = NSCondition()
    private var pending: [AssetWriter] = []
    private var closed = false
    private let exited = Latch()
    /// Called on the finisher thread after each file, with its path and the error if it failed.
    private let onFinished: @Sendable (String, FFmpegError?) -> Void

    init(onFinished: @escaping @Sendable (String, FFmpegError?) -> Void) {
        self.onFinished = onFinished
        let thread = Thread { [self] in run() }
        thread.name = "rec.finish"
        thread.start()
    }

    /// Queues `writer` to be finished; returns at once. Do not use `writer` after this call.
    func finish(_ writer: AssetWriter) {
        condition.lock()
        pending.append(writer)
        condition.signal()
        condition.unlock()
    }

    /// Finishes everything queued, then ends the thread; returns when it has. Safe to call again.
    func drain() {
        condition.lock()
        closed = true
        condition.signal()
        condition.unlock()
        exited.wait()
    }

    private func run() {
        while true {
            condition.lock()
            while pending.isEmpty && !closed { condition.wait() }
            guard !pending.isEmpty else {
                condition.unlock()
                break
            }
            let writer = pending.removeFirst()
            condition.unlock()
            var failure: FFmpegError?
            do { try writer.finish() } catch { failure = error }
            onFinished(writer.path, failure)
        }
        exited.release()
    }
}
