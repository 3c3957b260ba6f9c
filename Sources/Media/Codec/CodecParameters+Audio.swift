import CFFmpeg

/// A sound stream's shape, as the encoder or demuxer left it in `AVCodecParameters`.
extension CodecParameters {
    package var isAudio: Bool { pointer.pointee.codec_type == AVMEDIA_TYPE_AUDIO }
    /// Samples per second; 0 for video.
    package var sampleRate: Int { Int(pointer.pointee.sample_rate) }
    package var channels: Int { Int(pointer.pointee.ch_layout.nb_channels) }
    /// Samples per frame the encoder makes; 0 when it varies (PCM).
    package var frameSize: Int { Int(pointer.pointee.frame_size) }
    /// Samples the decoder outputs before the first real one, which players skip: AAC's priming
    /// (1024), libopus's pre-skip (312 at 48 kHz). Muxers write it (MP4's edit list, Ogg and
    /// Matroska's pre-skip and codec delay). `AVCodecParameters.initial_padding`.
    package var initialPadding: Int { Int(pointer.pointee.initial_padding) }
}
