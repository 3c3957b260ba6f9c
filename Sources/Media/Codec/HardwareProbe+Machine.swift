import RecCore
import VideoDevices

extension HardwareProbe {
    /// This machine's answers to `HardwareCheck`: libavcodec's encoders, /dev/dri render nodes
    /// opened with `av_hwdevice_ctx_create`, and the V4L2 memory-to-memory encoders
    /// `M2MEncoderProbe` finds (asking the kernel, as FFmpeg's `*_v4l2m2m` encoders do).
    /// What `rec record`, `rec presets` and `rec trim --reencode` check presets against.
    package static var machine: HardwareProbe {
        HardwareProbe(hasEncoder: { EncoderCatalog.hasVideoEncoder($0) },
                      renderNodes: { HardwareNodes.renderNodes() },
                      openDevice: { HardwareDevice.probe($0, path: $1) },
                      m2mEncoders: { family in
                          guard let code = M2MEncoderProbe.fourCC(family: family) else { return [] }
                          return M2MEncoderProbe.encoders(offering: code)
                      })
    }
}
