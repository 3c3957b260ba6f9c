import Media
import RecCore

/// Turns a parsed `--audio` into the source that records it. Nothing is opened here: a device or
/// file is opened, and its errors reported, by the source's `start(epoch:)`.
package enum AudioSourceFactory {
    /// Every source `spec` names: `--audio file` takes each sound track of the `file:` source,
    /// in the file's order (a file that cannot be read yet gets one, which reports why when it
    /// starts); any other spec one source, or none.
    package static func makeAll(_ spec: AudioSpec, video: SourceSpec) throws(RecError) -> [AudioSource] {
        if spec == .file || spec == .source, case .file(let path) = video, let count = FileAudioSource.soundTracks(in: path), count > 1 {
            return (0..<count).map { FileAudioSource(path: path, track: $0) }
        }
        return try make(spec, video: video).map { [$0] } ?? []
    }

    /// nil for `--audio none`. `--audio file` takes the sound of the `file:` video source, so it
    /// needs one.
    package static func make(_ spec: AudioSpec, video: SourceSpec) throws(RecError) -> AudioSource? {
        switch spec {
        case .none:
            return nil
        case .pulse(let device):
            return DeviceAudioSource(backend: .pulse, device: device)
        case .desktop:
            // The sound server resolves the name to its default output's monitor when the
            // stream opens (PulseAudio's namereg, and PipeWire's pulse server, both know it).
            return DeviceAudioSource(backend: .pulse, device: DeviceAudioSource.desktopMonitor)
        case .alsa(let device):
            return DeviceAudioSource(backend: .alsa, device: device)
        case .file, .source:
            guard case .file(let path) = video else {
                throw .usage("--audio file needs --source file:PATH (it records that file's sound); for the \(video) source "
                             + "use --audio default, a microphone from `rec devices`, or --audio test")
            }
            return FileAudioSource(path: path)
        case .test(let skew, _):
            return TestToneSource(skew: skew)
        }
    }
}
