/// An encoding preset: which encoder, settings and container a recording uses. Presets are JSON
/// files (docs/PRESETS.md); `Preset.parse` validates one strictly, `PresetLibrary` finds them, and
/// Media's `EncoderCatalog.validate` checks the parts only the installed FFmpeg can judge.
package struct Preset: Sendable, Equatable {
    /// The preset's name: its file name without ".json".
    package var name: String
    /// One line saying what the preset is for.
    package var description: String
    package var container: Container
    /// A libavcodec encoder name ("libx264"), or "copy" to store a camera's MJPEG as it comes.
    package var encoder: String
    /// An FFmpeg pixel format name; nil means the source's own format when the encoder takes it,
    /// else the encoder's closest (`avcodec_find_best_pix_fmt_of_list`).
    package var pixelFormat: String?
    /// Nil leaves the encoder's own default (crf 23 for libx264, lossless for ffv1).
    package var rateControl: RateControl?
    /// Seconds between keyframes; the GOP size is this times the frame rate.
    package var keyframeInterval: Double
    /// Maximum consecutive B-frames (`AVCodecContext.max_b_frames`); nil keeps the encoder's.
    package var bframes: Int?
    /// The encoder's speed/quality trade-off, its `preset` option ("veryfast").
    package var speed: String?
    /// The encoder's `tune` option ("film", "zerolatency").
    package var tune: String?
    /// A libavfilter graph applied to every frame before encoding ("hflip,eq=gamma=1.2").
    package var filter: String?
    /// The picture size to record; the source is asked for it and frames are scaled otherwise.
    package var size: FrameSize?
    /// The frame rate to record; the source is asked for it.
    package var fps: Rational?
    /// Passed to the encoder as an `AVDictionary` (`avcodec_open2`), after the settings above,
    /// so an option here wins.
    package var options: [String: String]
    /// Camera controls to set when the camera opens, in the file's order ("controls" key);
    /// checked against the camera then (`ControlPlan`).
    package var controls: [ControlSetting] = []
    /// The sound keys as the file states them; `audioEncoding` is what a recording uses.
    package var audio = PresetAudio()

    package init(name: String, description: String = "", container: Container, encoder: String,
                pixelFormat: String? = nil, rateControl: RateControl? = nil, keyframeInterval: Double = 1.0,
                bframes: Int? = nil, speed: String? = nil, tune: String? = nil, filter: String? = nil,
                size: FrameSize? = nil, fps: Rational? = nil, options: [String: String] = [:]) {
        self.name = name
        self.description = description
        self.container = container
        self.encoder = encoder
        self.pixelFormat = pixelFormat
        self.rateControl = rateControl
        self.keyframeInterval = keyframeInterval
        self.bframes = bframes
        self.speed = speed
        self.tune = tune
        self.filter = filter
        self.size = size
        self.fps = fps
        self.options = options
    }

    /// True when frames are stored as the camera sends them, with no encoder.
    package var isCopy: Bool { encoder == Self.copyEncoder }
    /// The encoder name that means "no encoder: store the camera's MJPEG as it comes".
    package static let copyEncoder = "copy"

    /// The codec family ("h264"), when known without FFmpeg.
    package var codecFamily: String? { KnownEncoder.family(of: encoder) }

    /// The GOP size in frames at a frame rate: the keyframe interval times the rate, at least 1.
    package func gopSize(frameRate: Rational) -> Int {
        max(1, Int((keyframeInterval * frameRate.doubleValue).rounded()))
    }

    /// "18" for 18.0, "18.5" for 18.5.
    static func formatNumber(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? "\(Int(value))" : "\(value)"
    }
}
