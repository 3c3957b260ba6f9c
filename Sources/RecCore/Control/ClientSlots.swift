/// Who the control server lets in, and which requests it starts: the policy that keeps a session
/// reachable however many clients connect. Pure state: the server holds it under its lock and
/// acts on the answers (closing an evicted connection, refusing with the reply given here).
///
/// - At most `maxClients` connections are open. When a new one arrives and all are taken, the
///   oldest *idle* one (waiting for a request) is evicted to make room, so idle or abandoned
///   connections never lock a session out; only when every connection is busy is the new one
///   refused.
/// - At most `maxSlowRequests` (`save`, `snapshot`, `control`, a `status` that waits) run at once, fewer than `maxClients`, so some
///   connections are always idle or on a quick request (`hello`, `status`, `stop`): a `status` or
///   `stop` always finds a connection to evict and gets in.
package struct ClientSlots: Sendable {
    /// The limits; the defaults suit a session.
    package struct Limits: Sendable, Equatable {
        /// Connections open at once.
        package var maxClients: Int
        /// `save`, `snapshot`, `control` and waiting `status` requests running at once.
        package var maxSlowRequests: Int

        package init(maxClients: Int = 32, maxSlowRequests: Int = 28) {
            precondition(maxClients > 0 && maxSlowRequests > 0, "client limits must be positive")
            self.maxClients = maxClients
            self.maxSlowRequests = min(maxSlowRequests, maxClients)
        }
    }

    /// What a connection is doing.
    package enum Activity: Sendable, Equatable {
        /// Waiting for its next request: may be evicted.
        case idle
        /// Answering `hello`, `status` or `stop`.
        case quick
        /// Answering `save` or `snapshot`.
        case slow
    }

    /// The answer to a new connection.
    package enum Admission: Sendable, Equatable {
        /// Serve it as `id`; first close `evicting`, if given, which was idle longest.
        case admitted(id: UInt64, evicting: UInt64?)
        /// Refuse it with this error.
        case refused(ControlError)
    }

    package let limits: Limits
    /// The session's name, for messages.
    package let session: String
    /// Open connections in the order they arrived (or last went idle), oldest first.
    private var clients: [(id: UInt64, activity: Activity)] = []
    private var lastID: UInt64 = 0

    package init(limits: Limits = Limits(), session: String) {
        self.limits = limits
        self.session = session
    }

    /// Connections open now.
    package var count: Int { clients.count }

    /// What `id` is doing, or nil when it is not open.
    package func activity(of id: UInt64) -> Activity? {
        clients.first { $0.id == id }?.activity
    }

    /// A new connection: admitted (perhaps evicting the longest-idle one) or refused.
    package mutating func admit() -> Admission {
        var evicting: UInt64?
        if clients.count >= limits.maxClients {
            guard let oldest = clients.firstIndex(where: { $0.activity == .idle }) else {
                return .refused(ControlError(.runtime, "session '\(session)' is busy answering \(clients.count) requests; try again in a moment"))
            }
            evicting = clients.remove(at: oldest).id
        }
        lastID += 1
        clients.append((lastID, .idle))
        return .admitted(id: lastID, evicting: evicting)
    }

    /// `id` starts answering a request; a slow one beyond the limit is refused with this error
    /// (the connection stays open and idle).
    package mutating func begin(_ id: UInt64, slow: Bool) -> ControlError? {
        guard let index = clients.firstIndex(where: { $0.id == id }) else { return nil }
        if slow && clients.count(where: { $0.activity == .slow }) >= limits.maxSlowRequests {
            return ControlError(.runtime, "session '\(session)' is already busy with \(limits.maxSlowRequests) clips, snapshots or waits; try again when one finishes")
        }
        clients[index].activity = slow ? .slow : .quick
        return nil
    }

    /// `id` has answered its request and waits for the next: it becomes the newest idle one.
    package mutating func end(_ id: UInt64) {
        guard let index = clients.firstIndex(where: { $0.id == id }) else { return }
        clients.remove(at: index)
        clients.append((id, .idle))
    }

    /// `id` is closed.
    package mutating func remove(_ id: UInt64) {
        clients.removeAll { $0.id == id }
    }
}

extension ControlCommand {
    /// True for requests that may take long (they write files, wait for the capture thread, or
    /// wait for a condition), which `ClientSlots` bounds.
    package var isSlow: Bool {
        switch self {
        case .save, .snapshot, .control: true
        case .status(let request): request.wait != nil
        case .hello, .stop, .events: false
        }
    }
}
