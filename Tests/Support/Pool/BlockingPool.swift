import Foundation
import Synchronization
import Testing

/// Threads of the tests' own for tests that block (on a process, a server, a session recording in
/// real time). Swift Testing runs every test on the concurrency pool, whose width is the number
/// of cores: on a 2-core machine two such tests held both threads while the machine sat mostly
/// idle (78–94 % idle in stretches of the main run), and the run's own bookkeeping waited behind
/// them. A suite marked `.blocking` runs its tests here instead, `width` at a time.
final class BlockingPool: TaskExecutor, Sendable {
    static let shared = BlockingPool(width: 4)

    private struct State {
        var jobs: [UnownedJob] = []
        var threads = 0
        var idle = 0
    }
    private let width: Int
    private let state = Mutex(State())
    private let wake = DispatchSemaphore(value: 0)

    init(width: Int) { self.width = width }

    /// Hands the job to an idle thread, starts a thread while fewer than `width` run, or leaves it
    /// queued for the first thread that finishes what it runs.
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        enum Next { case wake, start, wait }
        let next = state.withLock { s -> Next in
            s.jobs.append(job)
            if s.idle > 0 {
                s.idle -= 1
                return .wake
            }
            guard s.threads < width else { return .wait }
            s.threads += 1
            return .start
        }
        switch next {
        case .wake: wake.signal()
        case .start:
            let thread = Thread { [self] in work() }
            thread.stackSize = 8 << 20
            thread.start()
        case .wait: break
        }
    }

    private func work() {
        while true {
            if let job = state.withLock({ $0.jobs.isEmpty ? nil : $0.jobs.removeFirst() }) {
                job.runSynchronously(on: asUnownedTaskExecutor())
                continue
            }
            state.withLock { $0.idle += 1 }
            wake.wait()
        }
    }
}

/// Runs a suite's tests (and its nested suites') on `BlockingPool`'s threads.
package struct BlockingTrait: SuiteTrait, TestTrait, TestScoping {
    package var isRecursive: Bool { true }

    package func provideScope(for test: Test, testCase: Test.Case?,
                      performing function: @Sendable () async throws -> Void) async throws {
        try await withTaskExecutorPreference(BlockingPool.shared) { try await function() }
    }
}

extension Trait where Self == BlockingTrait {
    /// The suite's tests block their thread: they run on threads of the tests' own.
    package static var blocking: BlockingTrait { BlockingTrait() }
}
