import Dispatch
import Media
import RecCore

/// The encode thread's side of the sound: the file's header waits for the sound encoder, and at
/// the end the sound is let run up to the last picture.
extension Recorder {
    /// Waits for the sound's encoder (the file's header needs both streams); nil without sound.
    func openSound() throws(RecError) -> CodecParameters? {
        guard let sound else { return nil }
        let parameters = try sound.parameters(waitingUpTo: configuration.startTimeout)
        soundParameters.withLock { $0 = parameters }
        return parameters
    }

    /// Once the pictures are done: lets the sound run up to their end (bounded), then writes what
    /// it made, leaving out packets that start after the last picture ends.
    /// A device that stopped answering holds the audio thread in a read nothing interrupts: after
    /// 5 s it is asked to stop, after 2 s more it is left behind (the process's exit closes it) and
    /// the file is finished with the sound it has.
    func finishSound(upTo end: Timestamp?, emit: (EncodedPacket) throws(FFmpegError) -> Void) {
        guard let sound else { return }
        if !sound.waitUntilFinished(seconds: 5) {
            sound.requestStop()
            if !sound.waitUntilFinished(seconds: 2) {
                sound.stats.withLock { s in
                    if s.failure == nil { s.failure = "the sound from \(s.device) stopped answering; the recording was finished without its last sound" }
                }
            }
        }
        for packet in sound.inbox.takeAll() where end.map({ packet.presentationTime < $0 }) ?? false {
            do { try emit(packet) } catch { break }
        }
    }

    /// Whether the sound has ended (its source finished or failed) while the pictures may go on.
    var soundEnded: Bool { sound?.inbox.isClosed ?? false }

    /// The sound's telemetry, with what the inbox let go.
    func soundStats() -> SoundStats? {
        guard let sound else { return nil }
        var s = sound.stats.withLock { $0 }
        s.droppedPackets = sound.inbox.dropped
        return s
    }
}
