import Glibc
import RecCore

extension ControlServer {
    /// One client's thread: check its uid, then read requests and write replies until it hangs up
    /// or the server stops.
    func serve(id: UInt64, fd: Int32) {
        state.withLock { $0.connections[id]?.thread = pthread_self() }
        defer {
            state.withLock { state in
                state.connections[id] = nil
                close(fd)
            }
            threadEnded.signal()
        }
        UnixSocket.setSendTimeout(fd, options.sendTimeout)
        let policy = PeerPolicy(allowedUID: options.allowedUID)
        guard let uid = UnixSocket.peerUID(fd) else { return }
        if let refusal = policy.check(peerUID: uid) {
            _ = UnixSocket.sendAll(fd, ControlCodec.encode(ControlResponse(id: nil, reply: .error(refusal))))
            return
        }
        var framer = LineFramer(maxLineBytes: options.maxLineBytes)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 {
                if n == 0, let last = framer.finish() { _ = answer(last, on: fd) }
                return
            }
            for event in framer.feed(buffer[..<n]) where !answer(event, on: fd) {
                return
            }
        }
    }

    /// Writes the reply to one framed event; false when the client is gone.
    private func answer(_ event: LineFramer.Event, on fd: Int32) -> Bool {
        UnixSocket.sendAll(fd, ControlCodec.encode(response(to: event)))
    }

    /// The reply to one framed event: protocol errors from the codec, `hello` from the server,
    /// the rest from the handler.
    func response(to event: LineFramer.Event) -> ControlResponse {
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
                return ControlResponse(id: request.id, reply: handler.handle(request))
            }
        }
    }
}
