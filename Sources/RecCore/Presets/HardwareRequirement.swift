/// The hardware an encoder needs beyond libavcodec: a VAAPI render node (Intel/AMD GPUs), a CUDA
/// device (NVIDIA's NVENC), or a V4L2 memory-to-memory encoder node (a Raspberry Pi's).
package enum HardwareAPI: String, Sendable, CaseIterable {
    case vaapi, cuda, v4l2m2m

    /// The API an encoder name needs ("h264_vaapi" → .vaapi), nil for a software encoder.
    package static func required(by encoder: String) -> HardwareAPI? {
        if encoder.hasSuffix("_vaapi") { return .vaapi }
        if encoder.hasSuffix("_nvenc") { return .cuda }
        if encoder.hasSuffix("_v4l2m2m") { return .v4l2m2m }
        return nil
    }
}

/// What this machine has, as the checks need it; Media and Capture fill it in for real, tests
/// with whatever they simulate.
package struct HardwareProbe: Sendable {
    /// Whether libavcodec has an encoder of this name.
    package var hasEncoder: @Sendable (String) -> Bool
    /// The DRM render nodes: "/dev/dri/renderD128", ….
    package var renderNodes: @Sendable () -> [String]
    /// Opens a device of the API (`av_hwdevice_ctx_create`) at a path (nil: the default one);
    /// nil when it opened, else why not.
    package var openDevice: @Sendable (HardwareAPI, String?) -> String?
    /// The V4L2 memory-to-memory nodes whose capture side offers this codec family ("h264").
    package var m2mEncoders: @Sendable (String) -> [String]

    package init(hasEncoder: @escaping @Sendable (String) -> Bool, renderNodes: @escaping @Sendable () -> [String],
                openDevice: @escaping @Sendable (HardwareAPI, String?) -> String?,
                m2mEncoders: @escaping @Sendable (String) -> [String]) {
        self.hasEncoder = hasEncoder
        self.renderNodes = renderNodes
        self.openDevice = openDevice
        self.m2mEncoders = m2mEncoders
    }
}

/// Whether a preset's encoder can run here, and if not, a message naming what is missing.
package enum HardwareCheck {
    /// What to try when a hardware preset cannot run.
    static let fallback = "choose the default preset (--preset default), which encodes on the CPU"

    /// The device a hardware encoder would use ("/dev/dri/renderD128", "CUDA device 0",
    /// "/dev/video11"), or nil when it cannot run; with the reason then.
    package static func check(encoder: String, probe: HardwareProbe) -> (device: String?, problem: String?) {
        guard let api = HardwareAPI.required(by: encoder) else { return (nil, nil) }
        guard probe.hasEncoder(encoder) else {
            return (nil, "\(encoder) is not in this FFmpeg's libavcodec (`ffmpeg -encoders` lists what it has); \(fallback)")
        }
        switch api {
        case .vaapi:
            let nodes = probe.renderNodes()
            guard !nodes.isEmpty else {
                return (nil, "\(encoder) needs a VAAPI render node (/dev/dri/renderD128): none found; this machine has no GPU rec can use — \(fallback)")
            }
            var failures: [String] = []
            for node in nodes {
                guard let why = probe.openDevice(.vaapi, node) else { return (node, nil) }
                failures.append("\(node): \(why)")
            }
            return (nil, "\(encoder) needs a VAAPI render node, and none opened as a VAAPI device (\(failures.joined(separator: "; "))); "
                    + "install the GPU's VAAPI driver (intel-media-va-driver or mesa-va-drivers) and check you may open /dev/dri (the render group), or \(fallback)")
        case .cuda:
            if let why = probe.openDevice(.cuda, nil) {
                return (nil, "\(encoder) needs an NVIDIA GPU with its driver (libcuda), and no CUDA device opened (\(why)); \(fallback)")
            }
            return ("CUDA device 0", nil)
        case .v4l2m2m:
            let family = encoder.split(separator: "_").first.map(String.init) ?? "h264"
            guard let node = probe.m2mEncoders(family).first else {
                return (nil, "\(encoder) needs a V4L2 memory-to-memory \(family.uppercased()) encoder (a /dev/video* node with V4L2_CAP_VIDEO_M2M "
                        + "whose capture side offers \(family.uppercased()), as on a Raspberry Pi): none found; \(fallback)")
            }
            return (node, nil)
        }
    }
}
