import Media
import RecCore
import Session
import Synchronization

/// Hands each captured frame to the session's callbacks and frame streams, on the capture thread.
final class FrameHub: Sendable {
    typealias Callback = @Sendable (Frame) -> Void
    typealias Continuation = AsyncThrowingStream<Frame, any Error>.Continuation

    private struct State {
        /// In the order they were added: delivery reads them as they are, on every frame.
        var callbacks: [(id: Int, call: Callback)] = []
        var nextCallback = 0
        var streams: [Int: Continuation] = [:]
        var nextStream = 0
        /// Set once the session has ended: nil for a clean end, else why it failed.
        var ended: RecError??
    }

    private let state = Mutex(State())

    func add(callback: @escaping Callback) -> Int {
        state.withLock { s in
            defer { s.nextCallback += 1 }
            s.callbacks.append((s.nextCallback, callback))
            return s.nextCallback
        }
    }

    func remove(callback id: Int) {
        state.withLock { $0.callbacks.removeAll { $0.id == id } }
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
        for callback in callbacks { callback.call(frame) }
        for stream in streams { stream.yield(frame) }
    }

    /// Ends every stream: cleanly, or with the session's failure.
    func finish(failure error: RecError?) {
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
/// A `Frames` value is one consumer, subscribed when it is made: take it before
/// ``CaptureSession/start()`` to see the first frame, and iterate it once. It ends when the
/// session ends. Leaving the loop (`break`) only stops watching; cancelling the task that
/// iterates it stops the session.
public struct Frames: AsyncSequence, Sendable {
    public typealias Element = Frame
    public typealias Failure = RecError

    private let stream: AsyncThrowingStream<Frame, any Error>
    private let subscription: Subscription
    private let stop: @Sendable () -> Void

    init(hub: FrameHub, keeping: Int, stop: @escaping @Sendable () -> Void) {
        let (stream, continuation) = AsyncThrowingStream<Frame, any Error>.makeStream(bufferingPolicy: .bufferingNewest(keeping))
        let subscription = Subscription(hub: hub, id: hub.add(stream: continuation))
        // The stream ends (its iterator dropped by a `break`, or its task cancelled): no more
        // frames for it. Weak: the hub holds the continuation, and the subscription goes with
        // its consumer.
        continuation.onTermination = { [weak subscription] _ in subscription?.end() }
        (self.stream, self.subscription, self.stop) = (stream, subscription, stop)
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: stream.makeAsyncIterator(), subscription: subscription, stop: stop)
    }

    /// One consumer's place in the hub, given up when the consumer goes.
    final class Subscription: Sendable {
        let hub: FrameHub
        let id: Int

        init(hub: FrameHub, id: Int) {
            (self.hub, self.id) = (hub, id)
        }

        /// Stops the frames coming; false if the session had already ended them.
        @discardableResult
        func end() -> Bool { hub.remove(stream: id) }

        deinit { end() }
    }

    /// Gives the frames one by one.
    public struct AsyncIterator: AsyncIteratorProtocol {
        public typealias Failure = RecError
        var base: AsyncThrowingStream<Frame, any Error>.AsyncIterator
        let subscription: Subscription
        let stop: @Sendable () -> Void

        /// The next frame, or nil once the session has ended (or the task is cancelled, which
        /// stops the session).
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(RecError) -> Frame? {
            do {
                let frame = try await base.next(isolation: actor)
                // A cancelled task's stream ends at once: cancelling the consumer stops the
                // session. A `break` never gets here, so it leaves the session recording.
                if frame == nil, Task.isCancelled { stop() }
                return frame
            } catch {
                throw error as? RecError ?? RecError(kind: .failed, message: "\(error)")
            }
        }

        /// The next frame, or nil once the session has ended.
        public mutating func next() async throws(RecError) -> Frame? {
            try await next(isolation: nil)
        }
    }
}

/// What ``CaptureSession/onFrame(_:)`` returns: cancel it to stop the calls.
public final class FrameObservation: Sendable {
    private let hub: FrameHub
    private let id: Int

    init(hub: FrameHub, id: Int) {
        (self.hub, self.id) = (hub, id)
    }

    /// Removes the callback: a call already running finishes, and a frame being handed out as
    /// this returns may still reach it; none after. Calling it again does nothing.
    public func cancel() { hub.remove(callback: id) }
}
