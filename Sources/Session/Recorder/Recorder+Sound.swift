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
    func finishSound(upTo end: Timestamp?, emit: (EncodedPacket) throws(FFmpegError) -> Void) {
        guard let sound else { return }
        DispatchQueue.global().asyncAfter(deadline: .now() + 5) { sound.requestStop() }
        sound.waitUntilFinished()
        for packet in sound.inbox.takeAll() where end.map({ packet.presentationTime < $0 }) ?? false {
            do { try emit(packet) } catch { break }
        }
    }
}
