import Foundation
import Glibc
import Media
import RecCore
import SessionControl
import Testing
import TestServers

/// A scratch folder for the `--upload` tests: its own runtime folder for sessions, an rclone
/// configuration naming `dav` (a `rclone serve webdav` on loopback, serving `remote/`), and
/// checks that what arrived is what was recorded.
final class UploadBox {
    let folder: String
    let server: WebDAVTestServer
    let environment: [String: String]
    /// Where the copies land on this machine: `dav:cams`, or after `useSFTP`, `sftp:` + this folder.
    var remote: String

    init() throws {
        folder = try RecBinary.temporaryFolder()
        let runtime = folder + "/run"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        server = try WebDAVTestServer(root: folder + "/remote")
        remote = server.root + "/cams"
        try server.writeConfig(to: folder + "/rclone.conf")
        var env = ProcessInfo.processInfo.environment
        env["XDG_RUNTIME_DIR"] = runtime
        env["XDG_CONFIG_HOME"] = folder + "/.config"
        env["XDG_STATE_HOME"] = folder + "/state"
        env["RCLONE_CONFIG"] = folder + "/rclone.conf"
        env.removeValue(forKey: "REC_SESSION_CHILD")
        environment = env
    }

    deinit {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder + "/run/rec")) ?? [] {
            _ = try? rec(["stop", "--session", name])
        }
        server.stop()
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Adds remote `sftp` (rclone's SFTP backend with the server's key and known_hosts) to the
    /// configuration and makes the copies land in a folder of the server's user: returns the
    /// destination to give `--upload`.
    func useSFTP(_ ssh: SSHTestServer) throws -> String {
        let landing = ssh.folder + "/upload"
        try FileManager.default.createDirectory(atPath: landing, withIntermediateDirectories: true)
        let account = try #require(getpwnam(ssh.user))
        try #require(chown(landing, account.pointee.pw_uid, account.pointee.pw_gid) == 0)
        let section = "\n[sftp]\ntype = sftp\nhost = 127.0.0.1\nport = \(ssh.port)\nuser = \(ssh.user)\n"
            + "key_file = \(ssh.identityFile)\nknown_hosts_file = \(ssh.knownHostsFile)\n"
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: folder + "/rclone.conf"))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(section.utf8))
        try handle.close()
        remote = landing
        return "sftp:" + landing
    }

    @discardableResult
    func rec(_ arguments: [String], environment extra: [String: String] = [:]) throws -> RecBinary.Result {
        try RecBinary.run(arguments, in: folder, environment: environment.merging(extra) { _, b in b })
    }

    func path(_ name: String) -> String { folder + "/" + name }

    /// The session's process id, from its runtime folder.
    func pid(_ session: String = "default") throws -> Int32 {
        try #require(try RuntimeDirectory(path: folder + "/run/rec").folder(named: session).readPID(), "no pid for \(session)")
    }

    /// The session's log so far.
    func log(_ session: String = "default") -> String {
        (try? String(contentsOfFile: folder + "/run/rec/\(session)/log", encoding: .utf8)) ?? ""
    }

    /// Each segment in `folder` with its size in bytes, for a failure's message.
    func segmentSizes(_ folder: String) -> String {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
        return names.map { name in
            let size = (try? FileManager.default.attributesOfItem(atPath: folder + "/" + name)[.size] as? Int) ?? -1
            return "\(name) \(size)"
        }.joined(separator: ", ")
    }

    /// Local files whose names start with `prefix`, sorted (segment names sort by start time).
    func local(_ prefix: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasPrefix(prefix) }.sorted()
    }

    /// Every file in the remote folder, hidden ones too.
    func remoteFiles() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: remote)) ?? []).sorted()
    }

    static func size(_ path: String) -> Int64? {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.int64Value
    }

    /// Whether `name` is at the destination with the local file's size.
    func arrived(_ name: String, localFolder: String? = nil) -> Bool {
        guard let there = Self.size(remote + "/" + name) else { return false }
        return there == Self.size((localFolder ?? folder) + "/" + name)
    }

    /// Waits (on the remote folder's events; 90 s is a hang guard) until every one of `names`
    /// has arrived with its local size.
    func waitForArrival(_ names: @autoclosure () -> [String], timeout: Double = 90) -> Bool {
        try? FileManager.default.createDirectory(atPath: remote, withIntermediateDirectories: true)
        return Observe.until(watching: [remote], timeout: timeout) { names().allSatisfy { arrived($0) } }
    }

    /// Waits (on the local folder's events) until at least `count` files start with `prefix`.
    func waitForLocal(_ prefix: String, count: Int, timeout: Double = 60) -> Bool {
        Observe.until(watching: [folder], timeout: timeout) { local(prefix).count >= count }
    }

    /// Waits on the session log until it holds `text`.
    func waitForLog(_ text: String, session: String = "default", timeout: Double = 60) -> Bool {
        Observe.until(watching: [folder + "/run/rec/\(session)/log"], timeout: timeout) { log(session).contains(text) }
    }

    /// Every one of `names` arrived once, whole: the same bytes as the local file, so the same
    /// decoded frames (checked with FrameReader as well), and no file is left at the destination
    /// under a name that is not a finished file's.
    func expectArrivedWhole(_ names: [String], localFolder: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let here = localFolder ?? folder
        var empty: [String] = []
        for name in names {
            let local = here + "/" + name, there = remote + "/" + name
            guard FileManager.default.fileExists(atPath: there) else {
                Issue.record("\(name) did not arrive; the destination holds \(remoteFiles())", sourceLocation: sourceLocation)
                continue
            }
            #expect(FileManager.default.contentsEqual(atPath: local, andPath: there), "\(name) differs", sourceLocation: sourceLocation)
            let frames = try FrameReader.read(path: local).frames.count
            let arrived = try FrameReader.read(path: there).frames.count
            #expect(arrived == frames, "\(name): \(arrived) frames of \(frames)", sourceLocation: sourceLocation)
            if frames == 0 { empty.append(name) }
        }
        // Every file holds footage: an empty one is lost footage (a one-frame MP4 segment read back
        // empty until issue 39; SegmentedWriterOneFrameTests).
        if !empty.isEmpty {
            Issue.record("no frames in \(empty): \(segmentSizes(here)); session log: \(log().suffix(3000))",
                         sourceLocation: sourceLocation)
        }
        let visible = remoteFiles().filter { !$0.hasPrefix(".") }
        #expect(Set(visible) == Set(names), "the destination holds \(visible), not \(names)", sourceLocation: sourceLocation)
    }

    /// The queue its journal describes now.
    static func queue(journal: String) -> UploadQueue {
        let bytes = FileManager.default.contents(atPath: journal).map { Array($0) } ?? []
        return UploadQueue.replay(UploadJournal.parse(bytes).records)
    }
}
