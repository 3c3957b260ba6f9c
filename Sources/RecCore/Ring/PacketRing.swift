import Synchronization

/// The ring shared between the encoder thread (which appends) and the control server (which
/// saves): a `RingState` behind a `Mutex`. A save takes a snapshot (packet references only) under
/// the lock and muxes it outside, as OBS's `replay_buffer_save` does.
///
/// `Mutex` is `Sendable`, so this class is too without `@unchecked`.
public final class PacketRing: Sendable {
    private let state: Mutex<RingState>

    public init(limits: RingLimits = .replay) {
        state = Mutex(RingState(limits: limits))
    }

    /// See `RingState.append(_:)`.
    public func append(_ packet: EncodedPacket) {
        state.withLock { $0.append(packet) }
    }

    /// See `RingState.snapshot(from:to:)`.
    public func snapshot(from: Timestamp, to: Timestamp) throws(RecError) -> [EncodedPacket] {
        let result = state.withLock { ring in Result { () throws(RecError) in try ring.snapshot(from: from, to: to) } }
        return try result.get()
    }

    /// The video packets and the sound a cut of `[from, to)` needs, taken under one lock so the
    /// two cover the same span. See `RingState.snapshot(from:to:)` and `soundSnapshot(from:to:)`.
    public func snapshotWithSound(from: Timestamp, to: Timestamp) throws(RecError) -> (video: [EncodedPacket], sound: [EncodedPacket]) {
        let result = state.withLock { ring in
            Result { () throws(RecError) in
                let video = try ring.snapshot(from: from, to: to)
                // The pictures may present from their keyframe (--keyframe) and to their last
                // frame's end: the sound covers whatever they can.
                let start = min(from, video.map(\.presentationTime).min() ?? from)
                let end = max(to, video.map(\.endTime).max() ?? to)
                return (video, ring.soundSnapshot(from: start, to: end))
            }
        }
        return try result.get()
    }

    /// See `RingState.clear(upTo:)`.
    @discardableResult
    public func clear(upTo time: Timestamp) -> Int {
        state.withLock { $0.clear(upTo: time) }
    }

    /// See `RingState.presentationTime(atCapture:)`.
    public func presentationTime(atCapture captureTime: Timestamp) -> Timestamp? {
        state.withLock { $0.presentationTime(atCapture: captureTime) }
    }

    public var stats: RingStats {
        state.withLock { $0.stats }
    }
}
