import Glibc
import RecCore

extension ControlServer {
    /// One client's thread: check its uid, then read requests and write replies until it hangs up,
    /// goes idle too long, is evicted for a newer client, or the server stops.
    func serve(id: UInt64, fd: Int32) {
        state.withLock { $0.connections[id]?.thread = pthread_self() }
        defer {
            state.withLock { state in
                state.connections[id] = nil
                state.slots.remove(id)
                close(fd)
            }
            threadEnded.pulse()
        }
        UnixSocket.setSendTimeout(fd, options.sendTimeout)
        let policy = PeerPolicy(allowedUID: options.allowedUID)
        guard let uid = UnixSocket.peerUID(fd) else { return }
        if let refusal = policy.check(peerUID: uid) { return refuse(fd, refusal) }
        var framer = LineFramer(maxLineBytes: options.maxLineBytes)
        var buffer = [UInt8](repeating: 0, count: 4096)
        var deadline = ContinuousClock.now + options.idleTimeout
        while true {
            let left = deadline - ContinuousClock.now
            guard left > .zero else {
                return refuse(fd, ControlError(.runtime, "closed: no complete request within \(options.idleTimeout); send each request as one line ending in a newline, then reconnect"))
            }
            guard UnixSocket.waitReadable(fd, milliseconds: max(1, UnixSocket.milliseconds(left))) else { continue }
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 {
                if state.withLock({ $0.connections[id]?.evicted ?? false }) {
                    return refuse(fd, ControlError(.runtime, "closed: this connection was idle and session '\(session)' needed its slot for a new client; reconnect"))
                }
                if n == 0, let last = framer.finish() { _ = answer(last, id: id, on: fd) }
                return
            }
            for event in framer.feed(buffer[..<n]) {
                guard answer(event, id: id, on: fd) else { return }
                deadline = ContinuousClock.now + options.idleTimeout
            }
        }
    }

    /// Sends `refusal` as a proper reply, then lets the client read it before the close.
    private func refuse(_ fd: Int32, _ refusal: ControlError) {
        UnixSocket.refuse(fd, ControlCodec.encode(ControlResponse(id: nil, reply: .error(refusal))), linger: options.linger)
    }

    /// Writes the reply to one framed event; false when the client is gone.
    private func answer(_ event: LineFramer.Event, id: UInt64, on fd: Int32) -> Bool {
        defer { state.withLock { $0.slots.end(id) } }
        return UnixSocket.sendAll(fd, ControlCodec.encode(response(to: event, connection: id, peer: ControlPeer(fd: fd))))
    }

    /// The reply to one framed event: protocol errors from the codec, `hello` from the server,
    /// a refusal when too many slow requests run, the rest from the handler.
    func response(to event: LineFramer.Event, connection: UInt64, peer: ControlPeer) -> ControlResponse {
        switch event {
        case .oversized(let limit):
            return ControlCodec.oversized(limit: limit)
        case .line(let line):
            switch ControlCodec.decodeRequest(line) {
            case .rejected(let response):
                return response
            case .request(let request):
                if case .hello = request.command {
                    return ControlResponse(id: request.id, reply: .ok(.hello(HelloBody(session: session, pid: getpid()))))
                }
                if let busy = state.withLock({ $0.slots.begin(connection, slow: request.command.isSlow) }) {
                    return ControlResponse(id: request.id, reply: .error(busy))
                }
                return ControlResponse(id: request.id, reply: handler.handle(request, peer: peer))
            }
        }
    }
}
