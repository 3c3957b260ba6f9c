import Capture
import RecCore
import TrimCLI

/// This machine's hardware as `rec record` and `rec presets` see it, V4L2 M2M encoders included.
enum HardwareSupport {
    static var probe: HardwareProbe { .machine { family in M2MNodes.m2m(family) } }
}

/// The V4L2 side, kept apart so the closure above captures nothing that is not Sendable.
enum M2MNodes {
    static func m2m(_ family: String) -> [String] {
        guard let code = M2MEncoderProbe.fourCC(family: family) else { return [] }
        return M2MEncoderProbe.encoders(offering: code)
    }
}
