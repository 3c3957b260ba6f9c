import Foundation
import Glibc

/// Debian's mosquitto broker on 127.0.0.1, started by the test (never the system's service): a
/// free port, its configuration, password file and certificates in a folder of its own (removed
/// with the server), no persistence, so a restart forgets retained messages and sessions as a
/// broker that lost its disk would.
///
/// - `users` empty: anonymous clients; otherwise a password file made with `mosquitto_passwd -b`
///   and anonymous clients refused.
/// - `tls`: a second listener (`tlsPort`) with a server certificate for 127.0.0.1 and localhost,
///   signed by a CA made for this server (`caFile`) with `openssl`.
///
/// Readiness is the broker's own "running" line on its standard output, read as it is written.
/// The third party the tests check rec against is mosquitto's own clients: `publish` runs
/// `mosquitto_pub`, `subscribe` starts a `mosquitto_sub` (`MosquittoSubscriber`).
public final class MosquittoTestServer: TestServer {
    public let folder: String
    public private(set) var process: ServerProcess
    public private(set) var port: Int
    /// The TLS listener's port; nil without `tls`.
    public let tlsPort: Int?
    /// The CA certificate that signed the TLS listener's certificate (PEM).
    public var caFile: String { folder + "/ca.crt" }
    public let users: [String: String]

    /// Starts the broker on `port`, or on a free port when nil.
    public init(port: Int? = nil, users: [String: String] = [:], tls: Bool = false) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("rec-mosquitto-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        self.users = users
        let folder = folder
        do {
            try Self.makeCredentials(folder: folder, users: users, tls: tls)
            let tlsPort = tls ? try LoopbackPort.free() : nil
            (process, self.port) = try LoopbackPort.launching(port) { try Self.launch(folder: folder, port: $0, tlsPort: tlsPort, users: users) }
            self.tlsPort = tlsPort
        } catch {
            try? FileManager.default.removeItem(atPath: folder)
            throw error
        }
    }

    deinit {
        process.kill()
        try? FileManager.default.removeItem(atPath: folder)
    }

    public func restart() throws {
        process.stop()
        process = try Self.launch(folder: folder, port: port, tlsPort: tlsPort, users: users)
    }

    /// `mqtt://[user:password@]127.0.0.1:port[/prefix]`, or the TLS listener's `mqtts://` with `query`.
    public func url(user: String? = nil, password: String? = nil, tls: Bool = false, prefix: String = "", query: String = "") -> String {
        let credentials = user.map { user in password.map { "\(user):\($0)@" } ?? "\(user)@" } ?? ""
        let scheme = tls ? "mqtts" : "mqtt"
        return "\(scheme)://\(credentials)127.0.0.1:\(tls ? tlsPort ?? port : port)\(prefix.isEmpty ? "" : "/" + prefix)"
            + (query.isEmpty ? "" : "?" + query)
    }

    /// The options every mosquitto client needs for this broker: host, port, the first user's
    /// credentials, and the CA for the TLS listener.
    public func clientArguments(tls: Bool = false) -> [String] {
        var arguments = ["-h", "127.0.0.1", "-p", String(tls ? tlsPort ?? port : port)]
        if let (user, password) = users.min(by: { $0.key < $1.key }) { arguments += ["-u", user, "-P", password] }
        if tls { arguments += ["--cafile", caFile] }
        return arguments
    }

    /// Publishes `payload` (its exact bytes, from a file) with `mosquitto_pub` and returns once it
    /// has been sent (QoS 1: the broker acknowledged it).
    public func publish(_ topic: String, _ payload: [UInt8], retain: Bool = false) throws {
        let file = folder + "/payload-\(UUID())"
        try Data(payload).write(to: URL(fileURLWithPath: file))
        defer { unlink(file) }
        try Self.run("/usr/bin/mosquitto_pub", clientArguments() + ["-q", "1", "-t", topic, "-f", file] + (retain ? ["-r"] : []))
    }

    /// Starts `mosquitto_sub` on `filter` and returns once the broker has acknowledged its subscription.
    public func subscribe(_ filter: String, tls: Bool = false) throws -> MosquittoSubscriber {
        try MosquittoSubscriber(clientArguments(tls: tls) + ["-t", filter])
    }

    // MARK: - Set-up

    private static func makeCredentials(folder: String, users: [String: String], tls: Bool) throws {
        for (index, (user, password)) in users.sorted(by: { $0.key < $1.key }).enumerated() {
            try run("/usr/bin/mosquitto_passwd", (index == 0 ? ["-c"] : []) + ["-b", folder + "/passwd", user, password])
        }
        guard tls else { return }
        let key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try run("/usr/bin/openssl", ["req", "-x509"] + key + ["-keyout", folder + "/ca.key", "-out", folder + "/ca.crt",
                                                           "-days", "2", "-subj", "/CN=rec test CA"])
        try run("/usr/bin/openssl", ["req"] + key + ["-keyout", folder + "/server.key", "-out", folder + "/server.csr",
                                                     "-subj", "/CN=localhost"])
        try "subjectAltName=IP:127.0.0.1,DNS:localhost\n".write(toFile: folder + "/server.ext", atomically: true, encoding: .utf8)
        try run("/usr/bin/openssl", ["x509", "-req", "-in", folder + "/server.csr", "-CA", folder + "/ca.crt",
                                     "-CAkey", folder + "/ca.key", "-CAcreateserial", "-out", folder + "/server.crt",
                                     "-days", "2", "-extfile", folder + "/server.ext"])
    }

    private static func launch(folder: String, port: Int, tlsPort: Int?, users: [String: String]) throws -> ServerProcess {
        // Run as whoever runs the tests: as root, mosquitto would otherwise become the `mosquitto`
        // user, who cannot read this folder's password file and keys.
        let me = getpwuid(getuid()).map { String(cString: $0.pointee.pw_name) } ?? "root"
        var configuration = """
            user \(me)
            persistence false
            per_listener_settings false
            allow_anonymous \(users.isEmpty)
            \(users.isEmpty ? "" : "password_file \(folder)/passwd")
            log_dest stdout
            log_dest stderr
            log_type error
            log_type warning
            log_type notice
            log_type information
            connection_messages true
            listener \(port) 127.0.0.1

            """
        if let tlsPort {
            configuration += """
                listener \(tlsPort) 127.0.0.1
                cafile \(folder)/ca.crt
                certfile \(folder)/server.crt
                keyfile \(folder)/server.key

                """
        }
        try configuration.write(toFile: folder + "/mosquitto.conf", atomically: true, encoding: .utf8)
        // Standard output is read up to the "running" line, line-buffered through stdbuf (the
        // broker does not flush it); the broker ignores SIGPIPE, so its later lines go to standard
        // error (the log) alone.
        let arguments = ["-oL", "/usr/sbin/mosquitto", "-c", folder + "/mosquitto.conf"]
        return try ServerProcess.announcing("/usr/bin/stdbuf", arguments, timeout: .seconds(30)) {
            $0.contains(" running")
        }.0
    }

    /// Runs a tool to its end; throws with its log if it fails.
    static func run(_ executable: String, _ arguments: [String]) throws {
        let tool = try ServerProcess(executable, arguments)
        guard tool.waitForExit(timeout: .seconds(30)), tool.status == 0 else {
            tool.kill()
            throw ServerFailure("\(executable) \(arguments.first ?? "") failed: \(tool.logTail())")
        }
    }
}
