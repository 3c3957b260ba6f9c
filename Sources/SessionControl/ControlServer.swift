import Dispatch
import Foundation
import Glibc
import RecCore
import Synchronization

/// Listens on a session's control socket and answers requests through a `ControlHandler`.
///
/// One dedicated thread accepts; each client gets its own thread, which checks the peer's uid
/// (`SO_PEERCRED`), reads lines through a `LineFramer`, decodes them with `ControlCodec` and
/// writes one reply per request. Bad input gets an error reply and the connection reads on.
package final class ControlServer: Sendable {
    /// Limits and policy; the defaults suit a session (docs/PROTOCOL.md, "Limits").
    package struct Options: Sendable {
        /// Longest request accepted, in bytes.
        package var maxLineBytes = LineFramer.defaultMaxLineBytes
        /// Connections open at once, and `save`/`snapshot` requests running at once.
        package var clients = ClientSlots.Limits()
        /// The uid allowed to connect (the session's own by default).
        package var allowedUID: UInt32 = getuid()
        /// How long writing a reply may block on a client that does not read.
        package var sendTimeout: Duration = .seconds(10)
        /// How long a connection may go without sending a complete request before it is closed.
        package var idleTimeout: Duration = .seconds(10)
        /// How long a refused or timed-out client is given to read its reply before the close.
        package var linger: Duration = .seconds(1)

        package init() {}
    }

    /// The socket's path.
    package let socketPath: String
    /// The session name given in `hello` replies.
    package let session: String
    let handler: any ControlHandler
    let options: Options
    let state: Mutex<State>
    /// Pulsed by each thread as it ends, so `stop()` waits for the last one without a clock.
    let threadEnded = Latch()
    /// Released by `stop()`: wakes the accept thread's back-off when descriptors run out.
    let stopping = Latch()

    struct State {
        enum Phase { case idle, listening, stopping, stopped }
        var phase = Phase.idle
        var listenFD: Int32 = -1
        var accepting = false
        var slots: ClientSlots
        /// Live connections by id: their fd (for `shutdown` at stop or eviction) and thread.
        var connections: [UInt64: Connection] = [:]
    }

    struct Connection {
        var fd: Int32
        var thread: pthread_t?
        /// Set when a newer client took this idle connection's place.
        var evicted = false
    }

    package init(socketPath: String, session: String, handler: some ControlHandler, options: Options = Options()) {
        self.socketPath = socketPath
        self.session = session
        self.handler = handler
        self.options = options
        self.state = Mutex(State(slots: ClientSlots(limits: options.clients, session: session)))
    }

    /// A server on `folder`'s `control.sock`.
    package convenience init(folder: SessionFolder, handler: some ControlHandler, options: Options = Options()) {
        self.init(socketPath: folder.socketPath, session: folder.name, handler: handler, options: options)
    }

    /// Creates the socket (`socket`, `bind`, `chmod 0600`, `listen`) and starts the accept thread.
    package func start() throws(RecError) {
        guard state.withLock({ $0.phase == .idle }) else {
            throw .runtime("this control server was already started; make a new one")
        }
        let fd = try UnixSocket.make()
        do {
            try bindAndListen(fd)
        } catch {
            close(fd)
            throw error
        }
        let started = state.withLock { state -> Bool in
            guard state.phase == .idle else { return false }
            state.phase = .listening
            state.listenFD = fd
            state.accepting = true
            return true
        }
        guard started else {
            close(fd)
            unlink(socketPath)
            throw .runtime("this control server was already started")
        }
        let thread = Thread { [self] in acceptLoop(fd) }
        thread.name = "rec-control-accept"
        thread.start()
    }

    /// True between `start()` and `stop()`.
    package var isListening: Bool { state.withLock { $0.phase == .listening } }

    /// Clients connected right now.
    package var clientCount: Int { state.withLock { $0.connections.count } }

    /// Blocks until at most `count` clients are connected (each connection's thread wakes it as
    /// it ends) or `deadline` passes; true if they were.
    package func waitForClients(atMost count: Int, until deadline: Latch.Deadline) -> Bool {
        threadEnded.wait(until: deadline) { clientCount <= count } == .met
    }

    /// Stops accepting, removes the socket, lets requests being handled finish and send their
    /// replies, then returns once every server thread has ended. Safe to call twice, and from a
    /// handler (that connection's thread is not waited for; it ends after its reply).
    package func stop() {
        let me = pthread_self()
        let wasListening = state.withLock { state -> Bool in
            guard state.phase == .listening else { return false }
            state.phase = .stopping
            shutdown(state.listenFD, Int32(SHUT_RDWR))
            for connection in state.connections.values {
                shutdown(connection.fd, Int32(SHUT_RD))
            }
            return true
        }
        if wasListening { unlink(socketPath) }
        stopping.release()
        // Every reply being written is out when its thread ends: a `stop` reply reaches its client.
        _ = threadEnded.wait {
            state.withLock { state in
                !state.accepting && state.connections.values.allSatisfy { $0.thread.map { pthread_equal($0, me) != 0 } ?? false }
            }
        }
        state.withLock { $0.phase = .stopped }
    }

    private func bindAndListen(_ fd: Int32) throws(RecError) {
        let bound = try UnixSocket.withAddress(socketPath) { bind(fd, $0, $1) }
        if bound != 0 {
            let error = errno
            if error == EADDRINUSE {
                throw .runtime("the control socket \(socketPath) already exists; is another session using this folder?")
            }
            throw .runtime("cannot create the control socket \(socketPath)", cause: "bind: \(errorText(error))")
        }
        guard chmod(socketPath, 0o600) == 0, listen(fd, 16) == 0 else {
            let error = errno
            unlink(socketPath)
            throw .runtime("cannot listen on the control socket \(socketPath)", cause: errorText(error))
        }
    }

    private func acceptLoop(_ listenFD: Int32) {
        defer {
            state.withLock { state in
                state.accepting = false
                close(listenFD)
                state.listenFD = -1
            }
            threadEnded.pulse()
        }
        while state.withLock({ $0.phase == .listening }) {
            guard UnixSocket.waitReadable(listenFD, milliseconds: 500) else { continue }
            let fd = accept(listenFD, nil, nil)
            if fd < 0 {
                switch errno {
                case EINTR, ECONNABORTED, EAGAIN: continue
                case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                    // Out of descriptors or memory: back off until a client leaves (freeing
                    // one) or 50 ms pass; a stop ends the wait at once.
                    let ended = threadEnded.pulses
                    _ = stopping.wait(until: .after(0.05)) { threadEnded.pulses != ended }
                    continue
                default: return
                }
            }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            admit(fd)
        }
    }

    /// Registers a new client and starts its thread (evicting the longest-idle client if all
    /// slots are taken), or turns it away with a reply saying why.
    private func admit(_ fd: Int32) {
        let admission = state.withLock { state -> ClientSlots.Admission in
            guard state.phase == .listening else {
                return .refused(ControlError(.runtime, "session '\(session)' is stopping"))
            }
            let admission = state.slots.admit()
            if case .admitted(let id, let evicting) = admission {
                state.connections[id] = Connection(fd: fd)
                if let evicting, let victim = state.connections[evicting] {
                    state.connections[evicting]?.evicted = true
                    shutdown(victim.fd, Int32(SHUT_RD))
                }
            }
            return admission
        }
        switch admission {
        case .refused(let refusal):
            // The accept thread must not wait: the reply fits the empty socket buffer, and
            // whatever the client already sent is drained without blocking.
            UnixSocket.refuse(fd, ControlCodec.encode(ControlResponse(id: nil, reply: .error(refusal))), linger: .zero)
            close(fd)
        case .admitted(let id, _):
            let thread = Thread { [self] in serve(id: id, fd: fd) }
            thread.name = "rec-control-client"
            thread.start()
        }
    }
}
