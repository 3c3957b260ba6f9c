import Dispatch
import Foundation
import Live
import RecCore
import Synchronization

/// `GET /api/grid?cams=a,b,c` (docs/REVIEW.md): every named camera's live stream in one response,
/// as `GridRecord`s, so that a page plays a grid of 16 cameras over one of the browser's 6
/// connections to this server. One reader thread per camera copies its session's `/live.mp4`
/// into this viewer's `GridQueue` as it comes; when that stream ends or cannot be opened, the
/// camera gets an end record and is opened again after a short back-off (0.5 s, doubling to 4 s),
/// looking the session up afresh. A viewer that stops reading is dropped (`GridQueue`): its
/// response ends and every upstream is closed at once, so no session keeps a viewer for it.
/// `close()` (the connection is gone) ends every upstream and every reader thread.
final class GridStream: HTTPStream {
    /// At most this many cameras in one request.
    static let maxCameras = 32

    struct State {
        var queue: GridQueue
        var pending = OutgoingBytes()
        var closed = false
        /// Each camera's open upstream, for `close()` to end.
        var upstreams: [Int: UpstreamResponse] = [:]
    }

    let names: [String]
    private let lookUp: @Sendable (String) -> SessionLink?
    private let state: Mutex<State>
    /// The connection's thread waits on it for records; pushes and `close()` signal it.
    private let wake = DispatchSemaphore(value: 0)
    /// Each camera's thread waits on its own between attempts; `close()` signals them all.
    /// Released by `close()`: ends a camera's back-off at once.
    private let closing = Latch()

    /// Streams `names`; `lookUp` finds a camera's session each time its stream is (re)opened.
    init(names: [String], queue: GridQueue = GridQueue(), lookUp: @escaping @Sendable (String) -> SessionLink?) {
        self.names = names
        self.lookUp = lookUp
        var queue = queue
        let list = "[" + names.map { Preset.quote($0) }.joined(separator: ",") + "]"
        _ = queue.push(GridRecord.make(.cameras, camera: 0, payload: Array(list.utf8)), now: Self.now())
        state = Mutex(State(queue: queue))
    }

    /// Starts the cameras' reader threads.
    func start() {
        for index in names.indices {
            let thread = Thread { [self] in follow(index) }
            thread.name = "rec-grid-\(index)"
            thread.start()
        }
    }

    /// The response to `GET /api/grid?cams=…`: 400, 404 or 409 before anything streams.
    static func response(cams: String?, cameras: BoxCameras) -> HTTPResponse {
        let names = (cams ?? "").split(separator: ",").map(String.init)
        guard !names.isEmpty else { return .error(400, "name the cameras: /api/grid?cams=front,door") }
        guard names.count <= maxCameras else { return .error(400, "at most \(maxCameras) cameras in one grid; ask for the others in a second one") }
        for name in names {
            guard let camera = cameras.named(name) else { return .error(404, "no session '\(name)' is running on this box") }
            guard camera.link != nil else {
                return .error(409, "session '\(name)' serves no live page; start it with 'rec start --http 0' to see it here")
            }
        }
        let stream = GridStream(names: names) { cameras.named($0)?.link }
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
        let upstreams = state.withLock { s in
            s.closed = true
            return Array(s.upstreams.values)
        }
        end(upstreams)
    }

    private func end(_ upstreams: [UpstreamResponse]) {
        for upstream in upstreams { upstream.close() }
        wake.signal()
        closing.release()
    }

    var isClosed: Bool { state.withLock { $0.closed || $0.queue.dropped } }

    /// Queues a record; false once the viewer is closed or dropped (then every upstream is ended).
    @discardableResult
    private func push(_ kind: GridRecord.Kind, _ index: Int, _ payload: some Collection<UInt8>) -> Bool {
        let record = GridRecord.make(kind, camera: index, payload: payload), now = Self.now()
        let (queued, dropped) = state.withLock { s -> (Bool, [UpstreamResponse]) in
            if s.closed || s.queue.dropped { return (false, []) }
            if s.queue.push(record, now: now) { return (true, []) }
            return (false, Array(s.upstreams.values))  // dropped just now
        }
        if queued { wake.signal() } else { end(dropped) }
        return queued
    }

    // MARK: - A camera's side

    /// Camera `index`'s thread: its stream, again and again, until the viewer is gone.
    private func follow(_ index: Int) {
        var backOff = 0.5
        while !isClosed {
            let (why, flowed) = copy(index)
            if isClosed { break }
            push(.end, index, Array(why.utf8))
            backOff = flowed ? 0.5 : min(4, backOff * 2)
            closing.wait(until: .after(backOff))
        }
    }

    /// Copies one opening of camera `index`'s `/live.mp4`; says why it ended and whether bytes came.
    private func copy(_ index: Int) -> (String, Bool) {
        let name = names[index]
        guard let link = lookUp(name) else { return ("no session '\(name)' with a live page is running", false) }
        let upstream: UpstreamResponse
        do { upstream = try link.open("/live.mp4", timeout: nil) } catch { return (error.message, false) }
        let registered = state.withLock { s in
            if s.closed || s.queue.dropped { return false }
            s.upstreams[index] = upstream
            return true
        }
        defer {
            _ = state.withLock { $0.upstreams.removeValue(forKey: index) }
            upstream.close()
        }
        guard registered else { return ("closed", false) }
        guard upstream.status == 200 else { return ("the session answered \(upstream.status)", false) }
        guard push(.start, index, Array((upstream.header("Content-Type") ?? "video/mp4").utf8)) else { return ("closed", false) }
        var buffer = [UInt8](repeating: 0, count: 64 << 10), flowed = false
        while let n = buffer.withUnsafeMutableBytes({ upstream.read(into: $0) }) {
            guard push(.data, index, buffer[0..<n]) else { break }
            flowed = true
        }
        return ("the session's live stream ended", flowed)
    }

    private static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
}
