import Foundation
import RecCore

/// Writes one recording's encoded video to a file that survives a crash and ends up standard.
///
/// While recording, MP4/MOV are written fragmented (a fragment per keyframe) and Matroska with
/// short clusters, and bytes are pushed to the OS after every keyframe: a SIGKILL loses at most the
/// fragment being written, about a keyframe interval. `finish()` writes the trailer and, for MP4/MOV,
/// rewrites the file once as a standard, fast-start MP4 (moov first, right duration, instant seeks)
/// through a temporary file renamed over the original — if that step is interrupted, the fragmented
/// file is still there and plays. Owned by the encode thread.
public final class AssetWriter {
    public let path: String
    public let container: ContainerFormat
    private var muxer: Muxer?
    public private(set) var packetsWritten = 0
    public private(set) var lastPacketEnd: Timestamp?

    public init(path: String, container: ContainerFormat, video: CodecParameters) throws(FFmpegError) {
        self.path = path
        self.container = container
        self.muxer = try Muxer(path: path, container: container.muxerName, streams: [video],
                               options: container.crashSafeOptions)
    }

    public var bytesWritten: Int64 { muxer?.bytesWritten ?? 0 }

    public func append(_ packet: EncodedPacket) throws(FFmpegError) {
        guard let muxer else { return }
        var p = packet
        p.streamIndex = 0
        try muxer.write(p)
        packetsWritten += 1
        lastPacketEnd = max(lastPacketEnd ?? packet.endTime, packet.endTime)
        if packet.isKeyframe { muxer.flush() }
    }

    /// Finishes the file; see the type's description. Safe to call once; later calls do nothing.
    public func finish() throws(FFmpegError) {
        guard let muxer else { return }
        self.muxer = nil
        try muxer.finish()
        if container == .mp4 || container == .mov, packetsWritten > 0 {
            let temporary = OutputPath.temporarySibling(of: path)
            try Remuxer.remux(from: path, to: temporary, container: container.muxerName,
                              options: ["movflags": "+faststart"], startAtZero: true)
            guard rename(temporary, path) == 0 else {
                let e = errno
                unlink(temporary)
                throw FFmpegError(code: -e, operation: "rename(\(temporary), \(path))")
            }
        }
    }
}
