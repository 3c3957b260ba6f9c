import Glibc
import RecCore

/// One open connection to a session's control socket, for one thread: send requests, read
/// replies with a timeout. Closed by `close()` or when released.
package final class ControlConnection {
    /// The session's name, for messages.
    package let session: String
    private var fd: Int32
    private var framer = LineFramer(maxLineBytes: ControlConnection.maxReplyBytes)
    private var pending: [LineFramer.Event] = []
    private var nextID: Int64 = 1

    /// Replies may be larger than requests; this bounds them.
    package static let maxReplyBytes = 1 << 20

    /// Connects to the socket at `socketPath`. A missing socket or a refused connection are
    /// runtime errors that say how to start the session.
    package init(socketPath: String, session: String) throws(RecError) {
        self.session = session
        switch try UnixSocket.connect(to: socketPath) {
        case .success(let fd):
            self.fd = fd
        case .failure(let error):
            throw ControlConnection.connectError(error, session: session, path: socketPath)
        }
    }

    deinit {
        if fd >= 0 { Glibc.close(fd) }
    }

    /// Closes the connection; further calls fail.
    package func close() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
    }

    /// Sends `command` with the next id and returns the reply to it. `timeout` bounds the wait
    /// for the reply (a long save needs more than a status).
    package func send(_ command: ControlCommand, timeout: Duration = ControlClient.defaultTimeout) throws(RecError) -> ControlReply {
        let id = ControlID.number(nextID)
        nextID += 1
        let line = try ControlCodec.encode(ControlRequest(id: id, command: command))
        do {
            try sendLine(line)
        } catch let sendError {
            // A session that refuses a client (busy, idle too long, another user) replies, then
            // closes: our write may fail with EPIPE, but its reason is waiting to be read.
            guard let refusal = try? receive(timeout: .seconds(1)), refusal.id == nil else { throw sendError }
            return refusal.reply
        }
        let response = try receive(timeout: timeout)
        if let echoed = response.id, echoed != id {
            throw .runtime("session '\(session)' answered request \(echoed) instead of \(id); this rec and the session disagree on the protocol")
        }
        return response.reply
    }

    /// Writes raw bytes (one or more lines, or anything else: tests use it to send garbage).
    package func sendLine(_ bytes: [UInt8]) throws(RecError) {
        guard fd >= 0, UnixSocket.sendAll(fd, bytes) else {
            throw .runtime("lost the connection to session '\(session)' while sending", cause: errorText(errno))
        }
    }

    /// Reads the next reply, waiting at most `timeout`.
    package func receive(timeout: Duration = ControlClient.defaultTimeout) throws(RecError) -> ControlResponse {
        let deadline = ContinuousClock.now + timeout
        var buffer = [UInt8](repeating: 0, count: 4096)
        while pending.isEmpty {
            let left = deadline - ContinuousClock.now
            guard fd >= 0, left > .zero, UnixSocket.waitReadable(fd, milliseconds: max(1, UnixSocket.milliseconds(left))) else {
                throw .runtime("session '\(session)' did not answer within \(timeout); it may be busy, try again (or give a longer timeout)")
            }
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 {
                // EOF or ECONNRESET: whatever arrived before it is still a reply.
                if let last = framer.finish() { pending.append(last); break }
                throw .runtime("session '\(session)' closed the connection without answering; it may have stopped or crashed (see its log)")
            }
            pending += framer.feed(buffer[..<n])
        }
        switch pending.removeFirst() {
        case .oversized(let limit):
            throw .runtime("session '\(session)' sent a reply over \(limit) bytes")
        case .line(let line):
            return try ControlCodec.decodeResponse(line)
        }
    }

    /// Waits up to `timeout` for the session to close this connection (it does as it exits);
    /// true if it did. Whatever it sends meanwhile is read and dropped.
    package func waitForClose(timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        var buffer = [UInt8](repeating: 0, count: 4096)
        while fd >= 0 {
            let left = deadline - ContinuousClock.now
            guard left > .zero, UnixSocket.waitReadable(fd, milliseconds: max(1, UnixSocket.milliseconds(left))) else { return false }
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return true }
        }
        return true
    }

    private static func connectError(_ error: Errno, session: String, path: String) -> RecError {
        switch error.code {
        case ENOENT, ENOTDIR:
            return .runtime("no session '\(session)' is running; start one with '\(SessionName.startCommand(for: session))'")
        case ECONNREFUSED:
            return .runtime("session '\(session)' is not answering (its socket refuses connections; it probably crashed); start it again with '\(SessionName.startCommand(for: session))'")
        case EACCES, EPERM:
            return .runtime("cannot reach session '\(session)': permission denied on \(path); it belongs to another user")
        default:
            return .runtime("cannot connect to session '\(session)'", cause: "connect \(path): \(error.description)")
        }
    }
}
