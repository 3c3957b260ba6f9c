import Media
import RecCore

/// Turns a parsed `--audio` into the source that records it. Nothing is opened here: a device or
/// file is opened, and its errors reported, by the source's `start(epoch:)`.
public enum AudioSourceFactory {
    /// nil for `--audio none`. `--audio file` takes the sound of the `file:` video source, so it
    /// needs one.
    public static func make(_ spec: AudioSpec, video: SourceSpec) throws(RecError) -> AudioSource? {
        switch spec {
        case .none:
            return nil
        case .pulse(let device):
            return DeviceAudioSource(backend: .pulse, device: device)
        case .alsa(let device):
            return DeviceAudioSource(backend: .alsa, device: device)
        case .file:
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
