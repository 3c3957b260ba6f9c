import RecCore

/// A clip's sound in a container that cannot hold it as it was recorded, re-encoded for the clip:
/// a camera's G.711, kept as it came in a Matroska or MOV recording and in the ring, saved as an
/// MP4 clip (FFmpeg 5.1's MP4 muxer has no tag for it) becomes AAC, as the recording itself would
/// have in MP4 (`SoundPlan`). Before, such a clip had no sound at all. Runs on the saving thread:
/// the ring's whole sound of the stream goes through one `SoundTranscoder` (decoding G.711 and
/// encoding AAC at 48 kHz is far quicker than real time), keeping its timeline, so the clip's cut
/// to the sample works on the new packets as on any. A stream the container cannot hold even
/// re-encoded stays as it is (and the clip leaves it out, as before).
package enum ClipSoundFit {
    package static func fit(_ packets: [EncodedPacket], streams: [StreamParameters],
                            into container: Container) throws(RecError) -> (packets: [EncodedPacket], streams: [StreamParameters]) {
        var (packets, streams) = (packets, streams)
        for (i, stream) in streams.enumerated().dropFirst() where stream.parameters.streamKind == .sound {
            guard container.cannotHold(stream.parameters) != nil else { continue }
            let encoded: [EncodedPacket]
            let transcoder: SoundTranscoder
            do {
                transcoder = try SoundTranscoder(input: stream.parameters, encoding: .standard(for: container))
                guard container.cannotHold(transcoder.parameters) == nil else { continue }
                var out: [EncodedPacket] = []
                for p in packets where p.stream == stream.id { try transcoder.transcode(p) { out.append($0) } }
                try transcoder.finish { out.append($0) }
                encoded = out
            } catch {
                throw error.recError("cannot re-encode the \(stream.parameters.codecName) sound for a .\(container.rawValue) clip")
            }
            packets.removeAll { $0.stream == stream.id }
            packets += encoded
            streams[i] = StreamParameters(stream.id, transcoder.parameters)
        }
        return (packets, streams)
    }
}
