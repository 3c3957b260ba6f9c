import Foundation
import RecCore

/// Runs a blocking call (a wait on the recorder, a save that encodes) on a thread of its own and
/// resumes the caller when it returns, so the cooperative thread pool never blocks on rec's waits.
func offThread<T: Sendable>(_ body: @escaping @Sendable () throws(RecCore.RecError) -> T) async throws(RecError) -> T {
    let result: Result<T, RecCore.RecError> = await withCheckedContinuation { continuation in
        Thread.detachNewThread {
            continuation.resume(returning: Result { () throws(RecCore.RecError) -> T in try body() })
        }
    }
    do { return try result.get() } catch { throw RecError(error) }
}

/// `offThread` for a call that cannot fail.
func offThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread.detachNewThread { continuation.resume(returning: body()) }
    }
}
