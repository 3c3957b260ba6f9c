import Dispatch
import Foundation
import Live
import RecCore
import Synchronization

/// `GET /api/grid?cams=a,b,c` (docs/REVIEW.md): every named camera's live stream in one response,
/// as `GridRecord`s, so that a page plays a grid of 16 cameras over one of the browser's 6
/// connections to this server. Each camera's stream comes from its `CameraFeed`, read once from its
/// session for every viewer of the server: a start record and the init segment with a keyframe's
/// fragment, then a record per fragment, and an end record when the session's stream ends (the
/// feed opens it again and a start follows). A viewer that stops reading is dropped (`GridQueue`):
/// its response ends and it leaves every feed, so no session keeps a viewer for it. `close()` (the
/// connection is gone) leaves every feed.
final class GridStream: HTTPStream {
    /// At most this many cameras in one request.
    static let maxCameras = 32

    struct State {
        var queue: GridQueue
        var pending = OutgoingBytes()
        var closed = false
        /// The feeds this viewer has joined, with its number in each.
        var joined: [(feed: CameraFeed, id: Int)] = []
    }

    private let feeds: [CameraFeed]
    private let state: Mutex<State>
    /// The connection's thread waits on it for records; pushes and `close()` signal it.
    private let wake = DispatchSemaphore(value: 0)

    /// Streams `feeds` (one per camera of `names`, in order).
    init(names: [String], feeds: [CameraFeed], queue: GridQueue = GridQueue()) {
        self.feeds = feeds
        var queue = queue
        let list = "[" + names.map { Preset.quote($0) }.joined(separator: ",") + "]"
        _ = queue.push(GridRecord.make(.cameras, camera: 0, payload: Array(list.utf8)), now: Self.now())
        state = Mutex(State(queue: queue))
    }

    /// Joins the cameras' feeds.
    func start() {
        for (index, feed) in feeds.enumerated() {
            let id = feed.join { [self] event in receive(event, index) }
            let over = state.withLock { s in
                s.joined.append((feed, id))
                return s.closed || s.queue.dropped
            }
            if over { return leaveAll() }
        }
    }

    /// The response to `GET /api/grid?cams=…`: 400, 404 or 409 before anything streams.
    static func response(cams: String?, cameras: BoxCameras, feeds: CameraFeeds) -> HTTPResponse {
        let names = (cams ?? "").split(separator: ",").map(String.init)
        guard !names.isEmpty else { return .error(400, "name the cameras: /api/grid?cams=front,door") }
        guard names.count <= maxCameras else { return .error(400, "at most \(maxCameras) cameras in one grid; ask for the others in a second one") }
        for name in names {
            guard let camera = cameras.named(name) else { return .error(404, "no session '\(name)' is running on this box") }
            guard camera.link != nil else {
                return .error(409, "session '\(name)' serves no live page; start it with 'rec start --http 0' to see it here")
            }
        }
        let stream = GridStream(names: names, feeds: names.map { feeds.feed($0) })
        stream.start()
        return HTTPResponse(headers: [("Content-Type", "application/octet-stream")], body: .stream(stream))
    }

    // MARK: - The connection's side

    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        while true {
            let n: Int? = state.withLock { s in
                if s.closed || s.queue.dropped { return -1 }
                if s.pending.isEmpty { s.pending = OutgoingBytes(s.queue.drain()) }
                let count = s.pending.copy(into: buffer)
                if count <= 0 { return nil }
                return count
            }
            if let n { return n < 0 ? nil : n }
            wake.wait()  // each push and `close()` signal it
        }
    }

    func close() {
        state.withLock { $0.closed = true }
        wake.signal()
        leaveAll()
    }

    private func leaveAll() {
        let joined = state.withLock { s in
            defer { s.joined = [] }
            return s.joined
        }
        for (feed, id) in joined { feed.leave(id) }
    }

    // MARK: - The feeds' side

    /// Camera `index`'s feed has something for this viewer; false once the viewer is closed or dropped.
    private func receive(_ event: FeedEvent, _ index: Int) -> Bool {
        switch event {
        case .start(let mime, let first): push(.start, index, Array(mime.utf8)) && push(.data, index, first)
        case .data(let bytes): push(.data, index, bytes)
        case .end(let why): push(.end, index, Array(why.utf8))
        }
    }

    /// Queues a record; false once the viewer is closed or dropped (its connection then ends).
    private func push(_ kind: GridRecord.Kind, _ index: Int, _ payload: [UInt8]) -> Bool {
        let record = GridRecord.make(kind, camera: index, payload: payload), now = Self.now()
        let queued = state.withLock { s in !s.closed && s.queue.push(record, now: now) }
        wake.signal()  // a record, or the drop: the connection's read ends
        return queued
    }

    private static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
}
