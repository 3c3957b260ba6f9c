import Synchronization

/// The ring shared between the encoder thread (which appends) and the control server (which
/// saves): a `RingState` behind a `Mutex`. A save takes a snapshot (packet references only) under
/// the lock and muxes it outside, as OBS's `replay_buffer_save` does.
///
/// `Mutex` is `Sendable`, so this class is too without `@unchecked`.
package final class PacketRing: Sendable {
    private let state: Mutex<RingState>
    /// Where the packets' bytes are kept (`SlabWriter`); taken by the appending thread only.
    private let slabs: Mutex<SlabWriter>

    package init(limits: RingLimits = .replay) {
        state = Mutex(RingState(limits: limits))
        slabs = Mutex(SlabWriter())
    }

    /// See `RingState.append(_:)`. The bytes are copied into the ring's slabs first, outside the
    /// ring's lock: the packet's own buffer stays with whoever else holds it (the file's muxer).
    package func append(_ packet: EncodedPacket) {
        let stored = slabs.withLock { $0.store(packet) }
        state.withLock { $0.append(stored) }
    }

    /// See `RingState.snapshot(from:to:)`.
    package func snapshot(from: Timestamp, to: Timestamp) throws(RecError) -> [EncodedPacket] {
        let result = state.withLock { ring in Result { () throws(RecError) in try ring.snapshot(from: from, to: to) } }
        return try result.get()
    }

    /// See `RingState.hold(from:)`; `release` the number returned.
    package func hold(from: Timestamp) -> Int {
        state.withLock { $0.hold(from: from) }
    }

    package func release(_ hold: Int) {
        state.withLock { $0.release(hold) }
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
