import Capture
import Media
import RecClient
import TrimCLI
import RecCore
import Session

/// The capture options of `rec record` and `rec start`, checked and turned into a source and a
/// recorder configuration.
struct RecordingSetup {
    var spec: SourceSpec
    var choice: EncodingChoice
    var size: (width: Int, height: Int)?
    var fps: Int?
    var filter: String?
    var duration: Timestamp?
    var pixelFormat: String?
    /// The preset's camera controls with `--control` on top, checked against the camera when it opens.
    var controls: [ControlSetting]
    var onUnplug: RecorderConfiguration.OnUnplug
    /// `--audio`: where the sound comes from (none by default).
    var audio: AudioSpec

    init(capture: CaptureOptions, environment: [String: String]) throws(RecError) {
        spec = try SourceSpec.parse(capture.source)
        choice = try EncodingChoice.resolve(preset: capture.preset, environment: environment,
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
        onUnplug = capture.onUnplug == "wait" ? .wait(seconds: 60) : .stop
        audio = try AudioSpec.parse(capture.audio)
        if case .file = audio, case .file = spec {} else if case .file = audio {
            throw .usage("--audio file records the sound of a file: source; give --source file:PATH, or choose another --audio")
        }
        if !audio.isNone, choice.audio == nil {
            throw .usage("preset '\(choice.name)' records no sound (\"audio\": \"none\"); drop --audio \(audio), or choose another --preset")
        }
        if let d = capture.duration {
            let parsed = try TimeParser.duration(d)
            guard parsed > .zero else { throw .usage("--duration \(d) is not a length of time; use e.g. 10s or 1m30s") }
            duration = parsed
        }
    }

    /// The container for an output path, checked against what the preset's encoder makes.
    func container(for path: String) throws(RecError) -> ContainerFormat {
        let container = try OutputFile.container(for: path, presetContainer: choice.container)
        if !audio.isNone, let sound = choice.audio, let family = PresetAudio.families[sound.encoder],
           let refusal = container.audioRefusal(of: family, encoder: sound.encoder) {
            throw .usage("\(refusal); or name the output for another container, or record without --audio")
        }
        let family = choice.settings.encoder == "copy" ? "mjpeg" : EncoderCatalog.codecFamily(of: choice.settings.encoder)
        if let family, !container.holds(family) {
            let fits = Container.holding(family).map { ".\($0.rawValue)" }.joined(separator: ", ")
            throw .usage("preset '\(choice.name)' makes \(family), which a .\(container.rawValue) file cannot hold; name the output \(fits.isEmpty ? ".mkv" : fits) or pick another --preset")
        }
        return container
    }

    func makeSource(warn: (String) -> Void = { _ in }) throws(RecError) -> FrameSource {
        try SourceFactory.make(spec, size: size, fps: fps, pixelFormat: pixelFormat, controls: controls, warn: warn)
    }

    /// The sound source `--audio` names, not yet started; nil for `none`.
    func makeSound() throws(RecError) -> AudioSource? {
        try AudioSourceFactory.make(audio, video: spec)
    }

    func configuration(output: RecorderConfiguration.Output?, pace: RecorderConfiguration.Pace) -> RecorderConfiguration {
        var c = RecorderConfiguration(encoder: choice.settings, keyframeSeconds: choice.keyframeSeconds,
                                      filter: filter, output: output, pace: pace)
        c.durationLimit = duration
        c.onUnplug = onUnplug
        c.audio = choice.audio
        c.correctsAudioDrift = audio.correctsDrift
        return c
    }
}
