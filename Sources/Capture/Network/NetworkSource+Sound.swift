import Media
import RecCore

/// The camera's sound streams: each copied, re-encoded or left out (`SoundPlan`), and numbered in
/// the recording as the ones kept come: `.sound(0)`, `.sound(1)`, … A camera with two sound
/// streams (a microphone and a line input, say) kept only its first before.
extension NetworkSource {
    /// Where one of the camera's sound streams goes: its stream in the recording, and its
    /// re-encoder when the container cannot take it as it came (G.711 into MP4).
    struct SoundRoute {
        let output: Int
        let transcoder: SoundTranscoder?
        /// Set when re-encoding failed midway: the rest goes on without this sound.
        var stopped = false
    }

    /// Copy, re-encode or leave out one of the camera's sound streams (the next by place), for
    /// the recording's container.
    func planSound(_ input: CodecParameters) {
        let encoding = settings.soundEncoding ?? AudioEncoding.standard(for: settings.container)
        var route: SoundRoute?
        switch SoundPlan.forCamera(codec: input.codec, container: settings.container, encoding: encoding) {
        case .copy:
            route = SoundRoute(output: soundStreams.count, transcoder: nil)
            soundStreams.append(input)
        case .reencode(let encoding):
            do {
                let transcoder = try SoundTranscoder(input: input, encoding: encoding)
                route = SoundRoute(output: soundStreams.count, transcoder: transcoder)
                soundStreams.append(transcoder.parameters)
            } catch {
                soundNote = "the camera's \(input.codecName) sound cannot be re-encoded (\(error.text)); recording without it"
            }
        case .drop(let reason):
            soundNote = "the camera's \(input.codecName) sound is left out: \(reason)"
        }
        soundRoutes.append(route)
    }

    /// A sound packet whose duration is known goes to `pendingSound` as its recorded stream,
    /// re-encoded first where its route says; a sound left out goes nowhere.
    func routeSound(_ p: consuming EncodedPacket) {
        let place = p.stream.number
        guard place < soundRoutes.count, let route = soundRoutes[place], !route.stopped else { return }
        let output = StreamID.sound(route.output)
        guard let transcoder = route.transcoder else {
            var packet = p
            packet.stream = output
            return pendingSound.append(packet)
        }
        do {
            try transcoder.transcode(p) { encoded in
                var packet = encoded
                packet.stream = output
                pendingSound.append(packet)
            }
        } catch {
            // A sound that cannot go on leaves the pictures (and the other sounds) recording.
            soundNote = "the camera's sound stopped: \(error.description)"
            soundRoutes[place]?.stopped = true
        }
    }
}
