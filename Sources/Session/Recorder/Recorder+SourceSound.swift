import Foundation
import Media
import RecCore

/// The sound a source brings itself (a network camera's), and the wall clock it tells.
extension Recorder {
    /// On the capture thread, after each picture is read: queues the sound the source read on the
    /// way, ahead of that picture (or hands it to `sink`, when this thread writes the copy), and takes the source's wall clock once it knows it.
    /// `wallClockKnown` is the caller's: set once the camera's time is in `stats`, which is then
    /// not locked again for it.
    /// `packets` is the caller's too, empty between calls: the buffer the source's sound is
    /// swapped into (`SourceSound.takeSound(into:)`), its capacity kept from call to call.
    func queueSourceSound(_ capabilities: SourceCapabilities, into sink: RecordingSink?, wallClockKnown: inout Bool,
                          packets: inout [EncodedPacket]) {
        if !wallClockKnown, let zero = capabilities.clock?.wallClockAtZero {
            wallClockKnown = true
            stats.withLock { s in
                guard s.wallClockSource == nil else { return }
                s.startedAt = Date(timeIntervalSince1970: zero.seconds)
                s.wallClockSource = "camera"
            }
        }
        guard let sound = capabilities.sound else { return }
        // Moved out one by one, oldest first, rather than copied by a loop over the array; the
        // array is left empty with its capacity, for the next swap.
        sound.takeSound(into: &packets)
        packets.reverse()
        while let packet = packets.popLast() {
            if let sink { sink.hold(packet) } else { queue.pushAlways(.sound(packet)) }
        }
    }

    /// Writes the held sound of the source that starts before `end` (the pictures' end so far),
    /// in order, and keeps the rest; with no pictures yet, nothing.
    func releaseSourceSound(_ held: inout [EncodedPacket], before end: Timestamp?,
                            emit: (EncodedPacket) throws(FFmpegError) -> Void) throws(FFmpegError) {
        guard let end, !held.isEmpty, held[0].presentationTime < end else { return }
        let due = held.firstIndex { !($0.presentationTime < end) } ?? held.count
        for i in 0..<due { try emit(held[i]) }
        if due == held.count { held.removeAll(keepingCapacity: true) } else { held.removeFirst(due) }
    }

    /// How many sound streams the source brings itself: they come first, `.sound(0)` on, and
    /// the `--audio` inputs after them.
    var sourceSoundCount: Int { sourceFacts.value?.sound.count ?? 0 }
}
