/// What `--audio` names: no sound, a sound server's or ALSA's input, the source file's own sound,
/// or the stand-in tone. Parsed here (pure); Capture opens it through libavdevice.
package enum AudioSpec: Sendable, Equatable, CustomStringConvertible {
    /// `none`: silent video (the default: a camera session records only what it was asked to).
    case none
    /// `default`: the sound server's default input (PulseAudio or PipeWire's pulse server).
    case pulse(device: String?)
    /// `desktop`: what the speakers play, the sound server's default output's monitor
    /// (PulseAudio's or PipeWire's `@DEFAULT_MONITOR@`).
    case desktop
    /// `alsa:hw:1,0`: an ALSA capture device.
    case alsa(device: String)
    /// `file`: the sound of a `file:` source, on the same timeline as its pictures.
    case file
    /// `source`: the source's own sound, whatever the source: a file's sound tracks (as `file`),
    /// a network camera's sound as it came.
    case source
    /// `test`: a 440 Hz tone with a click at every whole second of the session timeline, at the
    /// instants the stand-in camera's picture marks the second. `test:skew=0.002` makes its clock
    /// run 0.2 % fast (a test-only knob: drift correction must hide it); `test:skew=0.002,uncorrected`
    /// also turns the correction off, to show what it hides.
    case test(skew: Double, uncorrected: Bool = false)

    package static func parse(_ text: String?) throws(RecError) -> AudioSpec {
        guard let text, !text.isEmpty, text != "none" else { return .none }
        if text == "default" || text == "pulse" { return .pulse(device: nil) }
        if text.hasPrefix("pulse:") {
            let name = String(text.dropFirst(6))
            return .pulse(device: name.isEmpty || name == "default" ? nil : name)
        }
        if text.hasPrefix("alsa:") {
            let name = String(text.dropFirst(5))
            guard !name.isEmpty else { throw .usage("'alsa:' needs a device, e.g. --audio alsa:hw:1,0 (see 'rec devices')") }
            return .alsa(device: name)
        }
        if text == "desktop" { return .desktop }
        if text == "file" { return .file }
        if text == "source" { return .source }
        if text == "test" { return .test(skew: 0) }
        if text.hasPrefix("test:skew=") {
            var value = text.dropFirst(10)
            let uncorrected = value.hasSuffix(",uncorrected")
            if uncorrected { value = value.dropLast(12) }
            guard let skew = Double(value), skew.isFinite, abs(skew) <= 0.05 else {
                throw .usage("'\(text)' is not a test skew; write test:skew=0.002 (a fraction, at most ±0.05)")
            }
            return .test(skew: skew, uncorrected: uncorrected)
        }
        throw .usage("unknown audio source '\(text)'; use none, default, desktop, pulse:NAME, alsa:DEVICE, source, file or test (see 'rec devices')")
    }

    package var isNone: Bool { self == .none }

    /// Whether the clock model corrects drift (always, except the stand-in's test knob).
    package var correctsDrift: Bool {
        if case .test(_, true) = self { return false }
        return true
    }

    package var description: String {
        switch self {
        case .none: return "none"
        case .pulse(let d): return "pulse:\(d ?? "default")"
        case .desktop: return "desktop"
        case .alsa(let d): return "alsa:\(d)"
        case .file: return "file"
        case .source: return "source"
        case .test(let skew, let uncorrected):
            return skew == 0 && !uncorrected ? "test" : "test:skew=\(skew)" + (uncorrected ? ",uncorrected" : "")
        }
    }
}
