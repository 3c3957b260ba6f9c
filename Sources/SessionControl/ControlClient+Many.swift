import Foundation
import RecCore
import Synchronization

extension ControlClient {
    /// One request to each of several sessions (`rec status --all`, `rec save --all`), all at
    /// once, each on a thread of its own: the replies, or each session's error, in the order
    /// asked. A session that does not answer within `timeout` gets that error in its place and
    /// holds up no other; the call returns once every session has answered, or a second after
    /// `timeout` whatever a session does (even one whose socket never takes the connection).
    public static func sendEach(_ requests: [(session: String, command: ControlCommand)],
                                runtime: RuntimeDirectory = .current(), timeout: Duration) -> [Result<ControlReply, RecError>] {
        let replies = Replies(count: requests.count)
        for (index, request) in requests.enumerated() {
            let thread = Thread {
                let result: Result<ControlReply, RecError>
                do throws(RecError) {
                    result = .success(try send(request.command, session: request.session, runtime: runtime, timeout: timeout))
                } catch {
                    result = .failure(error)
                }
                replies.store(result, at: index)
            }
            thread.name = "rec-client"
            thread.start()
        }
        let (seconds, attoseconds) = timeout.components
        let limit = Double(seconds) + Double(attoseconds) / 1e18 + 1
        _ = replies.arrived.wait(until: .after(limit)) { replies.isComplete }
        return replies.results.enumerated().map { index, result in
            result ?? .failure(.runtime("session '\(requests[index].session)' did not take the connection within \(timeout); it may be stopped or overloaded"))
        }
    }
}

/// The replies of `sendEach` as they arrive, one slot per session; `arrived` pulses on each.
private final class Replies: Sendable {
    private let slots: Mutex<[Result<ControlReply, RecError>?]>
    let arrived = Latch()

    init(count: Int) {
        slots = Mutex(Array(repeating: nil, count: count))
    }

    func store(_ result: Result<ControlReply, RecError>, at index: Int) {
        slots.withLock { $0[index] = result }
        arrived.pulse()
    }

    var isComplete: Bool { slots.withLock { $0.allSatisfy { $0 != nil } } }

    var results: [Result<ControlReply, RecError>?] { slots.withLock { $0 } }
}
