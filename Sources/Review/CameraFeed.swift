import Foundation
import Live
import Media
import RecCore
import Synchronization

/// What a camera's feed tells one viewer.
enum FeedEvent: Sendable {
    /// The camera's stream begins for this viewer: its Content-Type, and its init segment with the
    /// first fragment that starts at a keyframe.
    case start(mime: String, first: [UInt8])
    /// The next fragment.
    case data([UInt8])
    /// The stream ended (the text says why); a start follows when it opens again.
    case end(String)
}

/// One camera's live stream, read once from its session for every grid viewer of the review
/// server (docs/REVIEW.md): the session sends each picture once however many people watch, and a
/// viewer that joins starts at the next keyframe with the init segment the feed kept
/// (`FragmentSplitter`). The feed's thread runs while anyone watches: it opens the session's
/// `/live.mp4`, hands each fragment to every viewer, and when the stream ends or cannot be opened
/// tells them so and opens it again after a back-off (0.5 s, doubling to 4 s), looking the session
/// up afresh. A viewer's `send` never waits (a `GridQueue` behind it); one that answers false is
/// gone. When the last viewer leaves, the upstream is closed at once.
final class CameraFeed: Sendable {
    typealias Send = @Sendable (FeedEvent) -> Bool

    private struct Viewer {
        let id: Int
        let send: Send
        var started = false
    }

    private struct State {
        var viewers: [Viewer] = []
        var nextID = 0
        var running = false
        var upstream: UpstreamResponse?
    }

    let name: String
    private let lookUp: @Sendable () -> SessionLink?
    private let state = Mutex(State())
    /// Pulsed when the last viewer leaves: ends a back-off at once.
    private let left = Latch()

    init(name: String, lookUp: @escaping @Sendable () -> SessionLink?) {
        self.name = name
        self.lookUp = lookUp
    }

    /// Adds a viewer; the number given back takes it away (`leave`).
    func join(_ send: @escaping Send) -> Int {
        let (id, startThread) = state.withLock { s in
            let id = s.nextID
            s.nextID += 1
            s.viewers.append(Viewer(id: id, send: send))
            defer { s.running = true }
            return (id, !s.running)
        }
        if startThread {
            let thread = Thread { [self] in
                ThreadName.set("rec.feed")
                run()
            }
            thread.name = "rec.feed"
            thread.start()
        }
        return id
    }

    func leave(_ id: Int) {
        let upstream = state.withLock { s -> UpstreamResponse? in
            s.viewers.removeAll { $0.id == id }
            return s.viewers.isEmpty ? s.upstream : nil
        }
        upstream?.close()
        left.pulse()
    }

    // MARK: - The feed's thread

    private func run() {
        var backOff = 0.5
        while true {
            let (why, flowed) = copy()
            _ = deliver { _ in .end(why) }
            backOff = flowed ? 0.5 : min(4, backOff * 2)
            _ = left.wait(until: .after(backOff)) { state.withLock { $0.viewers.isEmpty } }
            // Nobody watches: the thread ends (a viewer who comes later starts another).
            let ended = state.withLock { s in
                if s.viewers.isEmpty { s.running = false }
                return !s.running
            }
            if ended { return }
        }
    }

    /// One opening of the session's `/live.mp4`; says why it ended and whether fragments came.
    private func copy() -> (String, Bool) {
        guard let link = lookUp() else { return ("no session '\(name)' with a live page is running", false) }
        let upstream: UpstreamResponse
        do { upstream = try link.open("/live.mp4", timeout: nil) } catch { return (error.message, false) }
        let watched = state.withLock { s in
            if !s.viewers.isEmpty { s.upstream = upstream }
            return !s.viewers.isEmpty
        }
        defer {
            state.withLock { $0.upstream = nil }
            upstream.close()
        }
        guard watched else { return ("nobody watches", false) }
        guard upstream.status == 200 else { return ("the session answered \(upstream.status)", false) }
        let mime = upstream.header("Content-Type") ?? "video/mp4"
        var splitter = FragmentSplitter(), initSegment: [UInt8] = [], flowed = false
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while let n = buffer.withUnsafeMutableBytes({ upstream.read(into: $0) }) {
            let pieces: [FragmentSplitter.Piece]
            do { pieces = try splitter.push(buffer[0..<n]) } catch { return ("the session's live stream is unreadable: \(error)", flowed) }
            for piece in pieces {
                switch piece {
                case .initSegment(let bytes): initSegment = bytes
                case .fragment(let bytes, let keyframe):
                    flowed = true
                    let watched = deliver { started -> FeedEvent? in
                        started ? .data(bytes) : keyframe ? .start(mime: mime, first: initSegment + bytes) : nil
                    }
                    if !watched { return ("nobody watches", flowed) }
                }
            }
        }
        return ("the session's live stream ended", flowed)
    }

    /// Gives each viewer what `event` makes of it (from whether its stream has started; nil: nothing
    /// yet), outside the lock; forgets viewers whose `send` says they are gone, marks started
    /// those given a start and not started those given an end. False when nobody watches any more.
    private func deliver(_ event: (Bool) -> FeedEvent?) -> Bool {
        let viewers = state.withLock { $0.viewers }
        var gone: [Int] = [], changed: [(Int, Bool)] = []
        for viewer in viewers {
            guard let e = event(viewer.started) else { continue }
            if !viewer.send(e) {
                gone.append(viewer.id)
            } else if case .start = e {
                changed.append((viewer.id, true))
            } else if case .end = e {
                changed.append((viewer.id, false))
            }
        }
        return state.withLock { s in
            s.viewers.removeAll { gone.contains($0.id) }
            for (id, started) in changed {
                if let i = s.viewers.firstIndex(where: { $0.id == id }) { s.viewers[i].started = started }
            }
            return !s.viewers.isEmpty
        }
    }
}

/// Every camera's feed, made when first watched and kept while the server runs (a feed without
/// viewers has no thread and no connection).
final class CameraFeeds: Sendable {
    private let feeds = Mutex<[String: CameraFeed]>([:])
    private let lookUp: @Sendable (String) -> SessionLink?

    init(lookUp: @escaping @Sendable (String) -> SessionLink?) {
        self.lookUp = lookUp
    }

    func feed(_ name: String) -> CameraFeed {
        feeds.withLock { all in
            if let feed = all[name] { return feed }
            let lookUp = self.lookUp
            let feed = CameraFeed(name: name) { lookUp(name) }
            all[name] = feed
            return feed
        }
    }
}
