import RecCore

/// Everything a video encoder is opened with. Made from a preset plus the source's format.
package struct EncoderSettings: Sendable, Equatable {
    package enum RateControl: Sendable, Equatable {
        /// Constant quality (x264/x265 `crf`, libvpx `crf` with zero bitrate, SVT-AV1 `crf`).
        case crf(Double)
        /// Average bitrate in bits per second.
        case bitrate(Int)
        /// A fixed quantiser scale (MJPEG's `-q:v`, 2 = best … 31 = worst).
        case qscale(Double)
        /// The encoder's own default (lossless codecs).
        case encoderDefault
    }

    /// libavcodec encoder name: "libx264", "libx265", "libvpx-vp9", "libsvtav1", "ffv1", "mjpeg";
    /// or `Preset.copyEncoder`, which is no encoder (`copiesInput`).
    package var encoder: String
    /// No encoder: the source's own compressed frames (a camera's MJPEG) are stored as they come.
    /// Decided once, when the settings are made from the preset's encoder name; everything after
    /// asks this, not the name.
    package let copiesInput: Bool
    package var width: Int
    package var height: Int
    /// The pixel format the encoder takes; frames in other formats are converted with libswscale.
    package var pixelFormat: PixelFormat
    /// The encoder's time base. Capture times (microseconds) are rescaled into it once.
    package var timeBase: Rational
    /// The nominal frame rate, a hint for rate control; timestamps stay variable.
    package var frameRate: Rational
    /// A keyframe at least every this many frames (`gop_size`).
    package var keyframeInterval: Int
    package var rateControl: RateControl
    /// Maximum consecutive B-frames (`max_b_frames`); nil keeps the encoder's default.
    package var bFrames: Int?
    /// Encoder speed preset ("veryfast") and tune ("zerolatency"), where the encoder has them.
    package var speed: String?
    package var tune: String?
    /// Passed through to the encoder with `av_opt_set` semantics (an AVDictionary for `avcodec_open2`).
    package var options: [String: String]
    /// Extradata in the container's global header (MP4, Matroska) rather than in-band.
    package var globalHeader: Bool
    /// Encoder threads; 0 lets the encoder choose.
    package var threads: Int
    /// What the encoder tags its stream with (range, matrix, primaries, transfer, chroma siting,
    /// pixel aspect); `EncodingPipeline` sets it from the source (`ColourPolicy.target`).
    package var colour: ColourDescription
    /// Interlaced pictures and their first field (true: top), from the source's first frame; nil
    /// for progressive. The stream says so (`field_order`: Matroska FieldOrder, MOV fiel), and
    /// x264 codes the fields as fields.
    package var interlacedTopFirst: Bool?

    package init(encoder: String, width: Int, height: Int, pixelFormat: PixelFormat,
                timeBase: Rational = Rational(1, 90_000), frameRate: Rational = Rational(30, 1),
                keyframeInterval: Int = 30, rateControl: RateControl = .encoderDefault,
                bFrames: Int? = nil, speed: String? = nil, tune: String? = nil,
                options: [String: String] = [:], globalHeader: Bool = true, threads: Int = 0,
                colour: ColourDescription = .unspecified) {
        self.encoder = encoder
        self.copiesInput = encoder == Preset.copyEncoder
        self.width = width
        self.height = height
        self.pixelFormat = pixelFormat
        self.timeBase = timeBase
        self.frameRate = frameRate
        self.keyframeInterval = keyframeInterval
        self.rateControl = rateControl
        self.bFrames = bFrames
        self.speed = speed
        self.tune = tune
        self.options = options
        self.globalHeader = globalHeader
        self.threads = threads
        self.colour = colour
    }
}
