import Dispatch
import Media
import RecCore

/// The encode thread's side of the sound: the file's header waits for the sound encoders, and at
/// the end each sound is let run up to the last picture.
extension Recorder {
    /// Waits for every sound encoder (the file's header needs all the streams), and names each
    /// stream: `.sound(0)`, `.sound(1)`, … in input order. Empty without sound.
    func openSounds() throws(RecError) -> [StreamParameters] {
        var parameters = sourceFacts.value?.sound ?? []
        for sound in sounds { parameters.append(try sound.parameters(waitingUpTo: configuration.startTimeout)) }
        soundParameters.set(parameters)
        return parameters.enumerated().map { StreamParameters(.sound($0), $1) }
    }

    /// Every stream the recording makes, once its encoders run: the pictures, then each sound
    /// (the source's own first, then the `--audio` inputs).
    package var streams: [StreamParameters] {
        guard let video = codecParameters else { return [] }
        return [StreamParameters(.video, video)] + (soundParameters.value ?? []).enumerated().map { StreamParameters(.sound($0), $1) }
    }

    /// Hands `emit` every sound packet waiting, each named by its input's stream; returns the
    /// streams whose sound has ended (its source finished or failed) since the last call, adding
    /// them to `ended`.
    func takeSound(ended: inout Set<StreamID>, emit: (EncodedPacket) throws(FFmpegError) -> Void) throws(FFmpegError) -> [StreamID] {
        guard !sounds.isEmpty else { return [] }
        var newlyEnded: [StreamID] = []
        let base = sourceSoundCount
        for (i, sound) in sounds.enumerated() {
            let id = StreamID.sound(base + i)
            let closed = sound.inbox.isClosed
            for var p in sound.inbox.takeAll() {
                p.stream = id
                try emit(p)
            }
            if closed && ended.insert(id).inserted { newlyEnded.append(id) }
        }
        return newlyEnded
    }

    /// Once the pictures are done: lets each sound run up to their end (bounded), then writes what
    /// it made, leaving out packets that start after the last picture ends.
    /// A device that stopped answering holds the audio thread in a read nothing interrupts: after
    /// 5 s it is asked to stop, after 2 s more it is left behind (the process's exit closes it) and
    /// the file is finished with the sound it has.
    func finishSound(upTo end: Timestamp?, emit: (EncodedPacket) throws(FFmpegError) -> Void) {
        for sound in sounds where !sound.waitUntilFinished(seconds: 5) {
            sound.requestStop()
            if !sound.waitUntilFinished(seconds: 2) {
                sound.stats.withLock { s in
                    if s.failure == nil { s.failure = "the sound from \(s.device) stopped answering; the recording was finished without its last sound" }
                }
            }
        }
        let base = sourceSoundCount
        for (i, sound) in sounds.enumerated() {
            for var packet in sound.inbox.takeAll() where end.map({ packet.presentationTime < $0 }) ?? false {
                packet.stream = .sound(base + i)
                do { try emit(packet) } catch { break }
            }
        }
    }

    /// Whether the first sound (the one the live view carries) has ended (its source finished or
    /// failed) while the pictures may go on.
    var soundEnded: Bool { sounds.first?.inbox.isClosed ?? false }

    /// Each sound's telemetry, in stream order, with what its inbox let go.
    func soundStats() -> [SoundStats] {
        sounds.map { sound in
            var s = sound.stats.withLock { $0 }
            s.droppedPackets = sound.inbox.dropped
            return s
        }
    }
}
