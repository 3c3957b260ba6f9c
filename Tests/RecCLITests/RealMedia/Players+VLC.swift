import Foundation
import Glibc
import TestServers

extension Players {
    /// Every frame VLC 3.0 (Debian's `vlc`: its own MP4, MOV and Matroska demuxers, libavcodec
    /// inside) hands on for a clip, in order: its stream output decodes the clip and writes each
    /// picture as raw I420 (`#transcode{vcodec=I420}:std{mux=raw}`), as fast as it decodes, with no
    /// display clock to drop late pictures. VLC refuses to run as root, so when the tests are root
    /// it runs as the ordinary user the SSH and PipeWire tests use (`SSHTestServer.account()`),
    /// through `runuser`, in a folder of its own that user may write.
    static func vlc(_ path: String, width: Int, height: Int) throws -> [Signature] {
        guard let cvlc = Tool.path("cvlc") else { throw Tool.Failure("vlc is not installed; scripts/setup.sh installs it") }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rec-vlc-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let clip = folder + "/clip." + (path as NSString).pathExtension, raw = folder + "/frames.yuv"
        try FileManager.default.copyItem(atPath: path, toPath: clip)
        var command = ["env", "-i", "PATH=/usr/bin:/bin", "HOME=\(folder)", "LANG=C.UTF-8", cvlc, "--quiet", "--no-audio",
                       "--no-sub-autodetect-file", clip, "--sout", "#transcode{vcodec=I420}:std{access=file,mux=raw,dst=\(raw)}",
                       "vlc://quit"]
        if getuid() == 0 {
            let account = try SSHTestServer.account()
            guard chown(folder, account.uid, account.gid) == 0, chown(clip, account.uid, account.gid) == 0 else {
                throw Tool.Failure("cannot give \(folder) to \(account.name)")
            }
            command = ["runuser", "-u", account.name, "--", "/usr/bin/env"] + command.dropFirst()
        }
        let run = try Tool.run(command[0], Array(command.dropFirst()), check: false)
        guard let data = FileManager.default.contents(atPath: raw), !data.isEmpty else {
            throw Tool.Failure("VLC wrote no frames of \(path) (exit \(run.status)): \(run.stderr.suffix(600))")
        }
        // I420: each picture is its luma plane followed by the two quarter-size chroma planes.
        let bytes = [UInt8](data), luma = width * height, size = luma + 2 * ((width + 1) / 2) * ((height + 1) / 2)
        return stride(from: 0, to: bytes.count - size + 1, by: size).map {
            Signature(gray: bytes[$0..<($0 + luma)], width: width, height: height)
        }
    }
}
