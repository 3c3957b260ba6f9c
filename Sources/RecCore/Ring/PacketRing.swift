import Synchronization

/// The ring shared between the encoder thread (which appends) and the control server (which
/// saves): a `RingState` behind a `Mutex`. A save takes a snapshot (packet references only) under
/// the lock and muxes it outside, as OBS's `replay_buffer_save` does.
///
/// `Mutex` is `Sendable`, so this class is too without `@unchecked`.
package final class PacketRing: Sendable {
    private let state: Mutex<RingState>

    package init(limits: RingLimits = .replay) {
        state = Mutex(RingState(limits: limits))
    }

    /// See `RingState.append(_:)`.
    package func append(_ packet: EncodedPacket) {
        state.withLock { $0.append(packet) }
    }

    /// See `RingState.snapshot(from:to:)`.
    package func snapshot(from: Timestamp, to: Timestamp) throws(RecError) -> [EncodedPacket] {
        let result = state.withLock { ring in Result { () throws(RecError) in try ring.snapshot(from: from, to: to) } }
        return try result.get()
    }

    /// See `RingState.clear(upTo:)`.
    @discardableResult
    package func clear(upTo time: Timestamp) -> Int {
        state.withLock { $0.clear(upTo: time) }
    }

    /// See `RingState.presentationTime(atCapture:)`.
    package func presentationTime(atCapture captureTime: Timestamp) -> Timestamp? {
        state.withLock { $0.presentationTime(atCapture: captureTime) }
    }

    package var stats: RingStats {
        state.withLock { $0.stats }
    }
}
