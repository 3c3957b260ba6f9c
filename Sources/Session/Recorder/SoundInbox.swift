import RecCore
import Synchronization

/// Sound packets on their way from the audio thread to the encode thread, which writes them
/// into the file beside the pictures and hands them to the ring. The audio thread never waits:
/// if the encode thread stops taking them (it has failed), the oldest are let go past `limit`.
final class SoundInbox: Sendable {
    private struct State {
        var packets: [EncodedPacket] = []
        var closed = false
        var dropped = 0
    }
    private let state = Mutex(State())
    /// Over two minutes of AAC (6000 × 1024 samples at 48 kHz) or Opus (20 ms): longer than
    /// `--on-unplug wait` waits for a camera, during which the encode thread takes nothing.
    static let limit = 6000

    func push(_ packet: EncodedPacket) {
        state.withLock {
            $0.packets.append(packet)
            if $0.packets.count > Self.limit {
                $0.dropped += $0.packets.count - Self.limit
                $0.packets.removeFirst($0.packets.count - Self.limit)
            }
        }
    }

    /// Packets let go past `limit`, so far.
    var dropped: Int { state.withLock { $0.dropped } }

    /// Everything waiting, oldest first.
    func takeAll() -> [EncodedPacket] {
        state.withLock { s in
            defer { s.packets.removeAll(keepingCapacity: true) }
            return s.packets
        }
    }

    /// The audio thread has finished: nothing more will come.
    func close() { state.withLock { $0.closed = true } }
    var isClosed: Bool { state.withLock { $0.closed } }
}
