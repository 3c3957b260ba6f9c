import CFFmpeg
import RecCore

/// What a sample-exact cut needs of a sound stream's `AVCodecParameters` (the plain fields are
/// in CodecParameters+Audio).
extension CodecParameters {
    /// How far before a cut's first sample decoding must start for that sample to decode as it
    /// would in the whole stream: AAC overlaps each frame with the one before; Opus asks for
    /// 80 ms (RFC 7845 §4.6); FLAC and PCM frames decode on their own.
    package var seekPreroll: Int64 {
        switch codec {
        case .opus: Int64(sampleRate) * 80 / 1000
        case .aac, .mp3, .vorbis, .ac3, .eac3: Int64(frameSize > 0 ? frameSize : 1024)
        case .flac, .pcmALaw, .pcmMuLaw, .h264, .hevc, .ffv1, .mjpeg, .other: 0
        }
    }

    /// A copy that says `samples` are to be skipped at the start (`initial_padding`; for Opus
    /// also the OpusHead pre-skip, which Matroska's CodecDelay must equal). The corresponding C
    /// function is `avcodec_parameters_copy`.
    package func withInitialPadding(_ samples: Int) throws(FFmpegError) -> CodecParameters {
        let copy = try CodecParameters(copying: pointer, timeBase: timeBase)
        copy.pointer.pointee.initial_padding = Int32(clamping: samples)
        if codec == .opus, let d = copy.pointer.pointee.extradata, copy.pointer.pointee.extradata_size >= 19 {
            // OpusHead: magic (8), version (1), channels (1), pre-skip (2, little-endian at 48 kHz).
            let skip = UInt16(clamping: samples)
            d[10] = UInt8(skip & 0xFF)
            d[11] = UInt8(skip >> 8)
        }
        return copy
    }
}

extension PacketSideData {
    /// `AV_PKT_DATA_SKIP_SAMPLES`: samples to drop at the start and end of a sound packet's
    /// decoded output (Matroska writes the end as the block's DiscardPadding).
    package static func skipSamples(start: Int, end: Int) -> PacketSideData {
        var bytes = [UInt8](repeating: 0, count: 10)
        for i in 0..<4 {
            bytes[i] = UInt8(truncatingIfNeeded: UInt32(clamping: start) >> (8 * i))
            bytes[4 + i] = UInt8(truncatingIfNeeded: UInt32(clamping: end) >> (8 * i))
        }
        return PacketSideData(kind: skipSamplesKind, bytes: bytes)
    }

    package var isSkipSamples: Bool { kind == Self.skipSamplesKind }

    /// For skip-samples side data: how many samples the decoder drops at the packet's end.
    package var discardedAtEnd: Int {
        guard isSkipSamples, bytes.count >= 8 else { return 0 }
        return (0..<4).reduce(0) { $0 | Int(bytes[4 + $1]) << (8 * $1) }
    }
}
