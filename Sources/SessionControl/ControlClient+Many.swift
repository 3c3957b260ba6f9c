import Foundation
import RecCore

extension ControlClient {
    /// One request to each of several sessions (`rec status --all`, `rec save --all`), all at
    /// once, each on a thread of its own: the replies, or each session's error, in the order
    /// asked. A session that does not answer within `timeout` gets that error in its place and
    /// holds up no other; the call returns once every session has answered, or a second after
    /// `timeout` whatever a session does (even one whose socket never takes the connection).
    package static func sendEach(_ requests: [(session: String, command: ControlCommand)],
                                runtime: RuntimeDirectory = .current(), timeout: Duration) -> [Result<ControlReply, RecError>] {
        let (seconds, attoseconds) = timeout.components
        let limit = Double(seconds) + Double(attoseconds) / 1e18 + 1
        let results = EachOnAThread.run(requests.count, name: "rec-client", limit: limit) { index -> Result<ControlReply, RecError> in
            do throws(RecError) {
                return .success(try send(requests[index].command, session: requests[index].session, runtime: runtime, timeout: timeout))
            } catch {
                return .failure(error)
            }
        }
        return results.enumerated().map { index, result in
            result ?? .failure(.runtime("session '\(requests[index].session)' did not take the connection within \(timeout); it may be stopped or overloaded"))
        }
    }
}
