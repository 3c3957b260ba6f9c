import Media
import RecCore

/// How a recording runs: encoding, optional filter, where the file goes, pacing and limits.
package struct RecorderConfiguration: Sendable {
    package enum Pace: String, Sendable, CaseIterable {
        /// Deliver frames at their timestamps, like a camera; late frames are dropped and counted.
        case realtime
        /// Deliver frames as fast as the encoder takes them; the capture thread waits, nothing drops.
        case off
    }

    /// What to do when the camera is unplugged mid-recording.
    package enum OnUnplug: Sendable, Equatable {
        /// Finish the file and end the recording (the default).
        case stop
        /// Wait up to this many seconds for the same camera to return, then go on on the same
        /// timeline; the time it was away is a gap in the file.
        case wait(seconds: Double)
    }

    package struct Output: Sendable {
        package var path: String
        package var container: ContainerFormat
        /// With `--segment`: a new file every `length`, `path` naming them (see `SegmentNaming`).
        package var segments: SegmentSettings?
        /// Hears of each finished file and holds off retention from files not yet copied (the
        /// `--upload` queue).
        package var observer: (any RecordingFileObserver)?
        package init(path: String, container: ContainerFormat, segments: SegmentSettings? = nil,
                    observer: (any RecordingFileObserver)? = nil) {
            self.path = path
            self.container = container
            self.segments = segments
            self.observer = observer
        }
    }

    /// The encoder; a zero width or height means "the source's (after the filter)".
    package var encoder: EncoderSettings
    /// Keyframe interval in seconds; turned into frames from the source's rate when it is known.
    package var keyframeSeconds: Double
    package var filter: String?
    /// The file to write, or nil to keep only the ring (a replay buffer).
    package var output: Output?
    package var pace: Pace
    package var frameLimit: Int?
    package var durationLimit: Timestamp?
    /// Frames that may wait between capture and encoder before late ones are dropped.
    package var queueCapacity: Int
    /// Seconds `start()` waits for the first frame before giving up.
    package var startTimeout: Double
    package var onUnplug: OnUnplug = .stop
    /// When writing the file fails (a full disk), go on encoding into the ring (a session) rather
    /// than end the recording.
    package var keepsRingWhenFileFails = false
    /// How the sound is encoded, when the recording has a sound source (`--audio`); nil takes the
    /// container's default (`AudioEncoding.standard`).
    package var audio: AudioEncoding?
    /// Whether the sound's clock drift is corrected (`AudioClock.Policy.standard`); off only for
    /// the test knob that shows what the correction hides.
    package var correctsAudioDrift = true
    /// Told, on the capture thread, of every picture or compressed frame as it is captured,
    /// before it is queued for the encoder (the Swift API's frame callback and stream).
    package var onCapture: (@Sendable (CapturedFrame) -> Void)?
    /// Someone may watch the pictures live (`--http`): the encoder holds as few pictures as it can
    /// without costing the file (`EncoderLatency.liveOptions`), 200 ms less at 30 fps.
    package var lowDelay = false
    /// The session's motion detector (`--motion`), told of the pictures it wants on the capture
    /// thread; nil costs nothing.
    package var motion: (any MotionFeed)?

    /// Store the source's own compressed frames (`copy` presets, MJPEG cameras) instead of encoding.
    package var copiesCompressedFrames: Bool { encoder.copiesInput }

    package init(encoder: EncoderSettings, keyframeSeconds: Double = 1, filter: String? = nil, output: Output?,
                pace: Pace = .realtime, frameLimit: Int? = nil, durationLimit: Timestamp? = nil,
                queueCapacity: Int = 16, startTimeout: Double = 5) {
        self.encoder = encoder
        self.keyframeSeconds = keyframeSeconds
        self.filter = filter
        self.output = output
        self.pace = pace
        self.frameLimit = frameLimit
        self.durationLimit = durationLimit
        self.queueCapacity = queueCapacity
        self.startTimeout = startTimeout
    }
}

/// A frame as the capture thread hands it to `RecorderConfiguration.onCapture`.
package enum CapturedFrame: Sendable {
    /// A picture of its own over the recording's pixels (`VideoFrame.clone`): the encode thread
    /// stamps fields on the one it is given, never on this one.
    case picture(VideoFrame, number: Int)
    /// The source's own compressed frame (a copy recording), with the stream it belongs to.
    case packet(EncodedPacket, time: Timestamp, number: Int, parameters: CodecParameters?)
}
