import RecCore

/// A clip's sound in a container that cannot hold it as it was recorded, re-encoded for the clip:
/// a camera's G.711, kept as it came in a Matroska or MOV recording and in the ring, saved as an
/// MP4 clip (FFmpeg 5.1's MP4 muxer has no tag for it) becomes AAC, as the recording itself would
/// have in MP4 (`SoundPlan`). Before, such a clip had no sound at all. Runs where the clip is
/// written (`BackgroundWork`, never capture's thread): each such stream's packets go through one
/// `SoundTranscoder` (decoding G.711 and encoding AAC at 48 kHz is far quicker than real time),
/// keeping their timeline, so the clip's cut to the sample works on the new packets as on any. A
/// stream the container cannot hold even re-encoded stays as it is (the clip leaves it out).
package enum ClipSoundFit {
    package static func fit(_ source: ClipSource, into container: Container) throws(RecError) -> ClipSource {
        var fitted = source
        for (i, stream) in source.streams.enumerated().dropFirst()
        where stream.parameters.streamKind == .sound && container.cannotHold(stream.parameters) != nil {
            do {
                let transcoder = try SoundTranscoder(input: stream.parameters, encoding: .standard(for: container))
                guard container.cannotHold(transcoder.parameters) == nil else { continue }
                var encoded: [EncodedPacket] = []
                for p in stream.packets { try transcoder.transcode(p) { encoded.append($0) } }
                try transcoder.finish { encoded.append($0) }
                fitted.streams[i] = ClipSource.Stream(id: stream.id, parameters: transcoder.parameters, packets: encoded,
                                                      frameRate: stream.frameRate, disposition: stream.disposition)
            } catch {
                throw error.recError("cannot re-encode the \(stream.parameters.codecName) sound for a .\(container.rawValue) clip")
            }
        }
        return fitted
    }
}
