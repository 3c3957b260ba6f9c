import Capture
import Media
import TrimCLI
import RecCore

/// This machine's answers to `HardwareCheck`: libavcodec's encoders, /dev/dri render nodes
/// opened with `av_hwdevice_ctx_create`, and V4L2 M2M encoder nodes.
enum HardwareSupport {
    static var probe: HardwareProbe {
        HardwareProbe(hasEncoder: { EncoderCatalog.hasVideoEncoder($0) },
                      renderNodes: { HardwareNodes.renderNodes() },
                      openDevice: { HardwareDevice.probe($0, path: $1) },
                      m2mEncoders: { family in
                          M2MNodes.m2m(family)
                      })
    }

    /// Throws when `preset` needs hardware this machine lacks, naming what is missing.
    static func require(_ preset: Preset, probe: HardwareProbe = HardwareSupport.probe) throws(RecError) {
        try EncodingChoice.require(preset, hardware: probe)
    }

}

/// The V4L2 side, kept apart so the closure above captures nothing that is not Sendable.
enum M2MNodes {
    static func m2m(_ family: String) -> [String] {
        guard let code = M2MEncoderProbe.fourCC(family: family) else { return [] }
        return M2MEncoderProbe.encoders(offering: code)
    }
}
