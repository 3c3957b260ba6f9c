import Capture
import Media
import SessionControl
import RecCore
import Session

/// The capture options of `rec record` and `rec start`, checked and turned into a source and a
/// recorder configuration.
package struct RecordingSetup {
    package var spec: SourceSpec
    package var choice: EncodingChoice
    package var size: (width: Int, height: Int)?
    package var fps: Int?
    package var filter: String?
    package var duration: Timestamp?
    package var pixelFormat: String?
    /// The preset's camera controls with `--control` on top, checked against the camera when it opens.
    package var controls: [ControlSetting]
    package var onUnplug: RecorderConfiguration.OnUnplug
    /// `--audio`, each time it is given: where the sounds come from (none by default), without
    /// a network camera's own sound, which the source itself brings (`keepsSourceSound`).
    package var audio: [AudioSpec]
    /// Record a network camera's own sound: with no `--audio`, or `--audio source`.
    package var keepsSourceSound = false
    /// A screen's choices: the pointer, and every grab kept (a constant-rate file) when the
    /// preset names a frame rate.
    package var screen = SourceFactory.ScreenOptions()

    package init(capture: CaptureChoices, environment: [String: String]) throws(RecError) {
        spec = try SourceSpec.parse(capture.source)
        // A network camera's stream is stored as it comes unless a preset says otherwise.
        choice = try EncodingChoice.resolve(preset: capture.preset ?? (spec.isNetwork ? "camera-copy" : nil), environment: environment,
                                              hardware: HardwareProbe.machine)
        if let s = capture.size { size = try SourceSpec.parseSize(s) } else { size = choice.size }
        if let f = capture.fps {
            guard f > 0, f <= 1000, f == f.rounded() else {
                throw .usage("--fps \(f) is not a whole number of frames per second from 1 to 1000")
            }
            fps = Int(f)
        } else {
            fps = choice.fps
        }
        let filters = (choice.filter.map { [$0] } ?? []) + capture.filters
        filter = filters.isEmpty ? nil : filters.joined(separator: ",")
        pixelFormat = capture.pixelFormat
        var given: [ControlSetting] = []
        for text in capture.controls { given.append(try ControlSetting.parse(text)) }
        if let twice = given.first(where: { s in given.filter { $0.name == s.name }.count > 1 }) {
            throw .usage("--control \(twice.name) is given twice; give each control once")
        }
        controls = ControlSetting.merged(choice.controls, given)
        switch capture.onUnplug {
        case "stop": onUnplug = .stop
        case "wait": onUnplug = .wait(seconds: spec.isNetwork ? .infinity : 60)
        default: onUnplug = spec.isNetwork ? .wait(seconds: .infinity) : .stop
        }
        var sounds: [AudioSpec] = []
        for text in capture.audio { sounds.append(try AudioSpec.parse(text)) }
        if spec.isNetwork {
            if sounds.contains(.file) {
                throw .usage("--audio file records the sound of a file: source; for a network camera's own sound use --audio source")
            }
            keepsSourceSound = sounds.isEmpty || sounds.contains(.source)
            sounds.removeAll { $0 == .source }
        }
        audio = sounds.filter { !$0.isNone }
        if audio.count < sounds.count, !audio.isEmpty {
            throw .usage("--audio none records no sound; drop it, or drop the other --audio")
        }
        if let twice = audio.first(where: { a in audio.count { $0 == a } > 1 }) {
            throw .usage("--audio \(twice) is given twice; give each sound once")
        }
        if audio.contains(.file) || audio.contains(.source), !{ if case .file = spec { true } else { false } }() {
            throw .usage("--audio \(audio.contains(.file) ? "file" : "source") records the source's own sound, which only a file: "
                         + "or network source has; give --source file:PATH or a camera URL, or choose another --audio")
        }
        if let first = audio.first, choice.audio == nil {
            throw .usage("preset '\(choice.name)' records no sound (\"audio\": \"none\"); drop --audio \(first), or choose another --preset")
        }
        if let cursor = capture.cursor {
            guard spec.isScreen else {
                throw .usage("--cursor applies only to screen sources (--source screen, x11… or wayland), not to --source \(spec); leave it out")
            }
            screen.cursor = cursor == "on"
        }
        screen.constantRate = choice.fps != nil
        screen.keyframeSeconds = choice.keyframeSeconds
        // yuv420p, the default preset's, is converted on the screen's capture thread; a filter
        // sees the pictures as grabbed, and any other format is left to the encoder.
        if filter == nil, choice.settings.pixelFormat == .yuv420p { screen.pixelFormat = .yuv420p }
        if let d = capture.duration {
            let parsed = try TimeParser.duration(d)
            guard parsed > .zero else { throw .usage("--duration \(d) is not a length of time; use e.g. 10s or 1m30s") }
            duration = parsed
        }
    }

    /// The container for an output path, checked against what the preset's encoder makes.
    /// - Parameter copied: the codec a copy stores when it is known before the source opens
    ///   (packets handed to the Swift API's `AssetWriter`).
    package func container(for path: String, copying copied: String? = nil) throws(RecError) -> ContainerFormat {
        let container = try OutputFile.container(for: path, presetContainer: choice.container)
        if !audio.isEmpty, let sound = choice.audio, let family = PresetAudio.families[sound.encoder],
           let refusal = container.audioRefusal(of: family, encoder: sound.encoder) {
            throw RecError.usage("\(refusal); or name the output for another container, or record without --audio").because(.unsupported)
        }
        // A network camera's codec is known once it answers; the recorder checks it then.
        let family = choice.settings.copiesInput ? (copied ?? (spec.isNetwork ? nil : "mjpeg")) : EncoderCatalog.codecFamily(of: choice.settings.encoder)
        if let family, !container.holds(family) {
            let fits = Container.holding(family).map { ".\($0.rawValue)" }.joined(separator: ", ")
            throw RecError.usage("preset '\(choice.name)' makes \(family), which a .\(container.rawValue) file cannot hold; name the output \(fits.isEmpty ? ".mkv" : fits) or pick another --preset").because(.unsupported)
        }
        return container
    }

    /// - Parameter container: the recording's (a network camera's sound is copied or re-encoded
    ///   to fit it); MP4, the clips' default, for a ring alone.
    package func makeSource(container: ContainerFormat = .mp4, warn: (String) -> Void = { _ in }) throws(RecError) -> FrameSource {
        try SourceFactory.make(spec, size: size, fps: fps, pixelFormat: pixelFormat, controls: controls,
                               network: NetworkSource.Settings(copies: choice.settings.copiesInput, keepsSound: keepsSourceSound,
                                                               container: container, soundEncoding: choice.audio),
                               screen: screen, warn: warn)
    }

    /// The sound sources `--audio` names, not yet started, in the order given (`file`: each of
    /// the file's sound tracks); none for `none`.
    package func makeSounds() throws(RecError) -> [AudioSource] {
        var sources: [AudioSource] = []
        for a in audio { sources += try AudioSourceFactory.makeAll(a, video: spec) }
        return sources
    }

    package func configuration(output: RecorderConfiguration.Output?, pace: RecorderConfiguration.Pace) -> RecorderConfiguration {
        var c = RecorderConfiguration(encoder: choice.settings, keyframeSeconds: choice.keyframeSeconds,
                                      filter: filter, output: output, pace: pace)
        c.durationLimit = duration
        c.onUnplug = onUnplug
        // Connecting, then a first keyframe that may be a GOP away.
        if spec.isNetwork { c.startTimeout = 20 }
        c.audio = choice.audio
        c.correctsAudioDrift = audio.allSatisfy(\.correctsDrift)
        return c
    }
}
