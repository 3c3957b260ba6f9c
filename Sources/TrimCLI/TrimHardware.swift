import Glibc
import Media
import RecCore

extension HardwareProbe {
    /// This machine's answers to `HardwareCheck`: libavcodec's encoders, /dev/dri render nodes
    /// opened with `av_hwdevice_ctx_create`, and the V4L2 M2M encoder nodes `m2mEncoders` finds.
    public static func machine(m2mEncoders: @escaping @Sendable (String) -> [String]) -> HardwareProbe {
        HardwareProbe(hasEncoder: { EncoderCatalog.hasVideoEncoder($0) },
                      renderNodes: { HardwareNodes.renderNodes() },
                      openDevice: { HardwareDevice.probe($0, path: $1) },
                      m2mEncoders: m2mEncoders)
    }
}

/// What `rec trim --reencode` knows of the machine's hardware encoders. Like `rec record`'s probe,
/// except for V4L2 memory-to-memory encoders: `rec-trim` links no V4L2 code, so any
/// `/dev/video*` node counts, and a node that is not an encoder fails when the encoder opens,
/// with FFmpeg's reason.
enum TrimHardware {
    static var probe: HardwareProbe { .machine { _ in videoNodes() } }
    private static func videoNodes() -> [String] {
        guard let dir = opendir("/dev") else { return [] }
        defer { closedir(dir) }
        var nodes: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasPrefix("video") { nodes.append("/dev/" + name) }
        }
        return nodes.sorted()
    }
}
