import RecCore

/// A clip input whose sound tracks the clip's container cannot hold as recorded are re-encoded
/// as the clip is written: a camera's G.711, kept as it came in a Matroska or MOV recording, its
/// segments and the ring, saved or trimmed into an MP4 clip (FFmpeg 5.1's MP4 muxer has no tag
/// for it) becomes AAC, as the recording itself would have in MP4 (`SoundPlan`). Whatever the
/// clip is cut from: the ring, segment files, a recording file (`ClipWriter.write` wraps every
/// input). Before, only a save from the ring kept such sound, re-encoded whole before the cut.
///
/// Each such track's packets go through one `SoundTranscoder` as `replay` hands them over, on the
/// thread writing the clip (decoding G.711 and encoding AAC at 48 kHz is far quicker than real
/// time), and come out on the input's timeline. The clip's cut to the sample is planned before
/// anything is decoded, from the new packets' times as `ReencodedSoundTimings` works them out of
/// the input's; the k-th packet out is the k-th planned. A track the container cannot hold even
/// re-encoded stays as it is (the clip leaves it out).
package struct ClipSoundFit: ClipInput {
    /// One track re-encoded: its stream, the input's parameters, and the encoding.
    struct Refit: Sendable {
        var stream: StreamID
        var input: CodecParameters
        var encoding: AudioEncoding
        /// How many packets the cut was planned on: any the transcoder gives beyond them (its
        /// rounding at the end) are not handed over.
        var packets: Int
    }

    let base: any ClipInput
    let refits: [Refit]
    package let tracks: [ClipTrack]
    package var timings: [PacketTiming] { base.timings }
    package var timeBase: Rational { base.timeBase }
    package var reorderDepth: Int { base.reorderDepth }

    /// Whether a clip in `container` re-encodes a sound stream of `parameters`.
    package static func reencodes(_ parameters: CodecParameters, in container: ContainerFormat) -> Bool {
        parameters.isAudio && container.cannotHold(parameters) != nil
    }

    /// `input` with the sound tracks `container` cannot hold re-encoded, or `input` itself when
    /// it has none. Opens each encoder once to learn the new track's parameters.
    package static func fitting(_ input: any ClipInput, into container: ContainerFormat) throws(RecError) -> any ClipInput {
        var tracks = input.tracks
        var refits: [Refit] = []
        for (i, track) in tracks.enumerated().dropFirst()
        where reencodes(track.parameters, in: container) && track.soundTimeBase != nil {
            let encoding = AudioEncoding.standard(for: container)
            let output: CodecParameters
            do {
                output = try SoundTranscoder(input: track.parameters, encoding: encoding).parameters
            } catch {
                throw error.recError("cannot re-encode the \(track.parameters.codecName) sound for a .\(container.rawValue) clip")
            }
            guard container.cannotHold(output) == nil, let tb = track.soundTimeBase else { continue }
            // The decoder takes the packets' times in its own time base, the stream's.
            let decoderTB = track.parameters.timeBase
            func rescaled(_ v: Int64) -> Int64 { Timestamp.rescale(v, from: tb, to: decoderTB) }
            let input = track.soundTimings.map { t in
                PacketTiming(pts: rescaled(t.pts), dts: rescaled(t.dts), duration: rescaled(t.duration), isKeyframe: t.isKeyframe)
            }
            let timings = ReencodedSoundTimings.predict(input: input, timeBase: decoderTB, rate: output.sampleRate,
                                                        frameSize: output.frameSize, priming: output.initialPadding)
            tracks[i] = ClipTrack(stream: track.stream, parameters: output, disposition: track.disposition, packetCount: timings.count,
                                  soundTimings: timings, soundTimeBase: Rational(1, Int32(output.sampleRate)))
            refits.append(Refit(stream: track.stream, input: track.parameters, encoding: encoding, packets: timings.count))
        }
        return refits.isEmpty ? input : ClipSoundFit(base: input, refits: refits, tracks: tracks)
    }

    /// The input's packets, those of each re-encoded track replaced by the transcoder's as they
    /// come out (a frame or two after the input packets that make them), the rest at the end.
    package func replay(_ body: (EncodedPacket) throws -> Void) throws {
        var transcoders: [StreamID: SoundTranscoder] = [:]
        var left: [StreamID: Int] = [:]
        for r in refits {
            transcoders[r.stream] = try SoundTranscoder(input: r.input, encoding: r.encoding)
            left[r.stream] = r.packets
        }
        var out: [EncodedPacket] = []
        func handOver(_ stream: StreamID) throws {
            for p in out where left[stream, default: 0] > 0 {
                left[stream, default: 0] -= 1
                try body(p)
            }
            out.removeAll(keepingCapacity: true)
        }
        try base.replay { p in
            guard let transcoder = transcoders[p.stream] else { return try body(p) }
            try transcoder.transcode(p) { out.append($0) }
            try handOver(p.stream)
        }
        for r in refits {
            try transcoders[r.stream]?.finish { out.append($0) }
            try handOver(r.stream)
        }
    }
}
