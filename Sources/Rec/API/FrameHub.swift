import Media
import RecCore
import Session
import Synchronization

/// Hands each captured frame to the session's callbacks and frame streams, on the capture thread.
final class FrameHub: Sendable {
    typealias Callback = @Sendable (borrowing Frame) -> Void
    typealias Continuation = AsyncThrowingStream<Frame, any Error>.Continuation

    private struct State {
        var callbacks: [Callback] = []
        var streams: [Int: Continuation] = [:]
        var nextStream = 0
        /// Set once the session has ended: nil for a clean end, else why it failed.
        var ended: RecError??
    }

    private let state = Mutex(State())

    func add(callback: @escaping Callback) {
        state.withLock { $0.callbacks.append(callback) }
    }

    /// Registers a stream; one added after the session ended finishes at once.
    func add(stream continuation: Continuation) -> Int {
        let (id, ended): (Int, RecError??) = state.withLock { s in
            defer { s.nextStream += 1 }
            if s.ended == nil { s.streams[s.nextStream] = continuation }
            return (s.nextStream, s.ended)
        }
        if let ended { continuation.finish(throwing: ended) }
        return id
    }

    /// Forgets a stream; false if the session had already ended it.
    @discardableResult
    func remove(stream id: Int) -> Bool {
        state.withLock { $0.streams.removeValue(forKey: id) } != nil
    }

    /// Called on the capture thread for every frame.
    func deliver(_ captured: CapturedFrame) {
        let (callbacks, streams) = state.withLock { ($0.callbacks, Array($0.streams.values)) }
        guard !callbacks.isEmpty || !streams.isEmpty else { return }
        let frame: Frame = switch captured {
        case .picture(let picture, let number): Frame(picture: picture, number: number)
        case .packet(let packet, let time, let number, let parameters):
            Frame(packet: packet, time: time, number: number, parameters: parameters)
        }
        for callback in callbacks { callback(frame) }
        for stream in streams { stream.yield(frame) }
    }

    /// Ends every stream: cleanly, or with the session's failure.
    func finish(failure: String?) {
        let error = failure.map { RecError(kind: .runtime, message: $0) }
        let streams = state.withLock { s in
            s.ended = .some(error)
            defer { s.streams = [:] }
            return Array(s.streams.values)
        }
        for stream in streams {
            if let error { stream.finish(throwing: error) } else { stream.finish() }
        }
    }
}

/// The frames of a ``CaptureSession`` as they arrive, for `for try await`.
///
/// Each iteration over ``CaptureSession/frames`` is a consumer of its own. It ends when the
/// session ends; breaking out of it or cancelling its task stops the session.
public struct Frames: AsyncSequence, Sendable {
    public typealias Element = Frame
    public typealias Failure = RecError

    private let hub: FrameHub
    private let keeping: Int
    private let stop: @Sendable () -> Void

    init(hub: FrameHub, keeping: Int, stop: @escaping @Sendable () -> Void) {
        self.hub = hub
        self.keeping = keeping
        self.stop = stop
    }

    public func makeAsyncIterator() -> AsyncIterator {
        let (stream, continuation) = AsyncThrowingStream<Frame, any Error>.makeStream(bufferingPolicy: .bufferingNewest(keeping))
        let subscription = Subscription(hub: hub, id: hub.add(stream: continuation), stop: stop)
        // Weak: the hub holds the continuation, and the subscription must go with the iterator.
        continuation.onTermination = { [weak subscription] termination in
            if case .cancelled = termination { subscription?.end() }
        }
        return AsyncIterator(base: stream.makeAsyncIterator(), subscription: subscription)
    }

    /// One consumer's place in the hub: when it goes (the loop ended early, its task was
    /// cancelled) while the session still runs, the session stops.
    final class Subscription: Sendable {
        let hub: FrameHub
        let id: Int
        let stop: @Sendable () -> Void

        init(hub: FrameHub, id: Int, stop: @escaping @Sendable () -> Void) {
            (self.hub, self.id, self.stop) = (hub, id, stop)
        }

        func end() {
            if hub.remove(stream: id) { stop() }
        }

        deinit { end() }
    }

    /// Gives the frames one by one.
    public struct AsyncIterator: AsyncIteratorProtocol {
        public typealias Failure = RecError
        var base: AsyncThrowingStream<Frame, any Error>.AsyncIterator
        let subscription: Subscription

        /// The next frame, or nil once the session has ended.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(RecError) -> Frame? {
            do { return try await base.next(isolation: actor) } catch {
                throw error as? RecError ?? RecError(kind: .runtime, message: "\(error)")
            }
        }

        public mutating func next() async throws(RecError) -> Frame? {
            try await next(isolation: nil)
        }
    }
}
