import Foundation
import Glibc
import Synchronization

/// Debian's OpenSSH server on 127.0.0.1, started by the test as a second "box" (issue 23): its own
/// host key, a client key authorized for one ordinary user, password logins off, and SFTP
/// (`internal-sftp`) for the copies to an SFTP remote.
///
/// Everything lives in one folder of its own (removed with the server): the keys, the server's
/// configuration, a `known_hosts` that already trusts the host key, and an `ssh_config` for the
/// client (`ssh -F server.clientConfig …`, or `REC_SSH_CONFIG` for rec) that names the key and that
/// `known_hosts`, so nothing is read from or written to the test user's own `~/.ssh`.
///
/// The user is `SSHTestServer.defaultUser` (`recbox`), created on first use when the tests run as
/// root (as CI does); otherwise the server runs as the current user and only that user can log in.
/// Each server gives the user's sessions a runtime folder of its own (`XDG_RUNTIME_DIR`, set by
/// the server's `SetEnv`, as a real box's login would), so two servers are two boxes.
public final class SSHTestServer: TestServer {
    public static let defaultUser = "recbox"

    /// The folder with the keys and configurations; readable by the user, as a box's /etc is.
    public let folder: String
    /// The user that logs in.
    public let user: String
    public private(set) var port: Int
    public private(set) var process: ServerProcess
    /// The client's private key (ed25519, no passphrase), its public half at `identityFile + ".pub"`.
    public var identityFile: String { folder + "/client_key" }
    /// A known_hosts file that trusts this server's host key at `[127.0.0.1]:port`.
    public var knownHostsFile: String { folder + "/known_hosts" }
    /// An ssh_config for the client: this key, this known_hosts, batch mode, no agent.
    public var clientConfig: String { folder + "/ssh_config" }
    /// The user's runtime folder on this "box" (`XDG_RUNTIME_DIR` of every login).
    public var runtimeFolder: String { folder + "/run" }
    /// `ssh://user@127.0.0.1:port`, the box as rec's `--host` names it.
    public var url: String { "ssh://\(user)@127.0.0.1:\(port)" }
    private let environment: [String: String]

    /// Makes the keys and configuration and starts sshd on a free port; returns once it listens.
    /// `environment` is set in every login with sshd's `SetEnv` (after the runtime folder), such as
    /// a `PATH` that holds the box's own install of a program.
    public init(environment: [String: String] = [:]) throws {
        let account = try Self.account()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rec-sshd-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        do {
            (process, port) = try Self.setUp(folder: folder, account: account, environment: environment)
        } catch {
            try? FileManager.default.removeItem(atPath: folder)
            throw error
        }
        self.folder = folder
        user = account.name
        self.environment = environment
    }

    /// Keys, the user's runtime folder, sshd started on a free port, then the client's files.
    private static func setUp(folder: String, account: Account, environment: [String: String]) throws -> (ServerProcess, Int) {
        let runtime = folder + "/run"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        guard chown(runtime, account.uid, account.gid) == 0 else {
            throw ServerFailure("chown \(runtime): \(String(cString: strerror(errno)))")
        }
        try keygen(folder + "/host_key")
        try keygen(folder + "/client_key")
        try FileManager.default.copyItem(atPath: folder + "/client_key.pub", toPath: folder + "/authorized_keys")
        // sshd refuses to run without its privilege separation folder, which Debian's init creates.
        try FileManager.default.createDirectory(atPath: "/run/sshd", withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o755])
        var attempt = 0
        var started: (ServerProcess, Int)
        while true {
            let chosen = try LoopbackPort.free()
            do {
                started = (try launch(folder: folder, port: chosen, user: account.name, environment: environment), chosen)
                break
            } catch let failure as ServerFailure where attempt < 3 && failure.description.contains("in use") {
                attempt += 1     // another process took the free port first
            }
        }
        let hostKey = try String(contentsOfFile: folder + "/host_key.pub", encoding: .utf8)
            .split(separator: " ").prefix(2).joined(separator: " ")
        try "[127.0.0.1]:\(started.1) \(hostKey)\n".write(toFile: folder + "/known_hosts", atomically: true, encoding: .utf8)
        try clientConfigText(folder: folder).write(toFile: folder + "/ssh_config", atomically: true, encoding: .utf8)
        return started
    }

    deinit {
        process.kill()
        try? FileManager.default.removeItem(atPath: folder)
    }

    public func restart() throws {
        process.stop()
        process = try Self.launch(folder: folder, port: port, user: user, environment: environment)
    }

    /// Runs `command` on the box as the user, through the ssh client with `clientConfig`; its status,
    /// standard output and standard error. For the tests' own set-up of the box (starting sessions).
    public func ssh(_ command: String, timeout: Duration = .seconds(60)) throws -> (status: Int32, output: String, error: String) {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("rec-ssh-\(UUID()).out").path
        let descriptor = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw ServerFailure("cannot create \(out): \(String(cString: strerror(errno)))") }
        defer { close(descriptor); unlink(out) }
        let client = try ServerProcess("/usr/bin/ssh", ["-F", clientConfig, "-p", String(port), "\(user)@127.0.0.1", command],
                                       output: descriptor)
        guard client.waitForExit(timeout: timeout) else {
            client.kill()
            throw ServerFailure("ssh \(command) did not finish within \(timeout): \(client.logTail())")
        }
        let status = client.status.map { ($0 >> 8) & 0xff } ?? -1
        let output = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
        return (Int32(status), output, client.logTail(4000))
    }

    // MARK: - Set-up

    /// A user the tests run servers as (also the PipeWire tests' desktop user).
    public struct Account: Sendable {
        public var name: String
        public var uid: uid_t
        public var gid: gid_t
    }

    /// Creating the user is done once per test process, whatever number of servers start at once.
    private static let accountLock = Mutex(false)

    /// The user that logs in: `recbox` when root (created if missing, with no password and not
    /// locked, since sshd refuses a locked account even with a key), else the current user.
    public static func account() throws -> Account {
        guard getuid() == 0 else {
            guard let entry = getpwuid(getuid()) else { throw ServerFailure("getpwuid: who is this user?") }
            return Account(name: String(cString: entry.pointee.pw_name), uid: entry.pointee.pw_uid, gid: entry.pointee.pw_gid)
        }
        return try accountLock.withLock { ready in
            if !ready {
                if getpwnam(defaultUser) == nil {
                    try run("/usr/sbin/useradd", ["--create-home", "--shell", "/bin/sh", "--comment", "rec test box", defaultUser])
                }
                // `*`: no password can match and the account is not locked (`!`), which sshd would refuse.
                try run("/usr/sbin/usermod", ["-p", "*", defaultUser])
                ready = true
            }
            guard let entry = getpwnam(defaultUser) else { throw ServerFailure("useradd \(defaultUser) made no user") }
            return Account(name: defaultUser, uid: entry.pointee.pw_uid, gid: entry.pointee.pw_gid)
        }
    }

    private static func keygen(_ path: String) throws {
        try run("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "rec-test", "-f", path])
    }

    /// Runs a set-up tool to its end; throws with its log if it fails.
    private static func run(_ executable: String, _ arguments: [String]) throws {
        let tool = try ServerProcess(executable, arguments)
        guard tool.waitForExit(timeout: .seconds(60)), tool.status == 0 else {
            tool.kill()
            throw ServerFailure("\(executable) \(arguments.joined(separator: " ")) failed: \(tool.logTail())")
        }
    }

    private static func launch(folder: String, port: Int, user: String, environment: [String: String]) throws -> ServerProcess {
        let settings = ["XDG_RUNTIME_DIR": folder + "/run"].merging(environment) { _, given in given }
        let config = """
            ListenAddress 127.0.0.1
            Port \(port)
            HostKey \(folder)/host_key
            PidFile none
            AllowUsers \(user)
            AuthorizedKeysFile \(folder)/authorized_keys
            PubkeyAuthentication yes
            PasswordAuthentication no
            KbdInteractiveAuthentication no
            UsePAM no
            # The keys are in a folder under /tmp, which StrictModes refuses (its parents are world-writable).
            StrictModes no
            PermitRootLogin no
            X11Forwarding no
            PrintMotd no
            LogLevel VERBOSE
            SetEnv \(settings.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " "))
            Subsystem sftp internal-sftp

            """
        let path = folder + "/sshd_config"
        try config.write(toFile: path, atomically: true, encoding: .utf8)
        let process = try ServerProcess("/usr/sbin/sshd", ["-D", "-e", "-f", path])
        try LoopbackPort.waitUntilListening(port, process: process, name: "sshd")
        return process
    }

    private static func clientConfigText(folder: String) -> String {
        """
        Host *
          IdentityFile \(folder)/client_key
          IdentitiesOnly yes
          IdentityAgent none
          UserKnownHostsFile \(folder)/known_hosts
          GlobalKnownHostsFile /dev/null
          StrictHostKeyChecking yes
          UpdateHostKeys no
          BatchMode yes
          LogLevel ERROR

        """
    }
}
