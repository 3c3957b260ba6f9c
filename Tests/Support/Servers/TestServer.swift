import Foundation
import Glibc

/// A server a test starts on loopback and then mistreats as a camera's network would: stopped,
/// killed, frozen and continued, restarted on the same port.
public protocol TestServer: AnyObject {
    /// The running process (replaced by `restart()`).
    var process: ServerProcess { get }
    /// Starts the server again on the same port, after ending the running one if it still runs;
    /// returns once it accepts connections.
    func restart() throws
}

extension TestServer {
    /// Ends the server with SIGTERM and waits until it has exited.
    public func stop() { process.stop() }

    /// Ends the server at once with SIGKILL (no goodbye to its clients) and reaps it.
    public func kill() { process.kill() }

    /// Freezes the server (SIGSTOP) with its connections open: clients see silence, no reset.
    public func pause() { process.pause() }

    /// Continues a frozen server (SIGCONT).
    public func resume() { process.resume() }
}

/// Loopback ports for servers that must be told theirs.
public enum LoopbackPort {
    /// A port that was free a moment ago: bound to port 0 and closed. Another process may take it
    /// before the server binds it; the launchers retry with a new one when that happens.
    public static func free(udp: Bool = false) throws -> Int {
        let fd = socket(AF_INET, Int32(udp ? SOCK_DGRAM.rawValue : SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ServerFailure("socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else { throw ServerFailure("bind 127.0.0.1:0: \(String(cString: strerror(errno)))") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Runs `launch` on `port`, or when it is nil on a port that was free, again on another (up to
    /// three times) when the launch failed because another process took that port first (its
    /// failure says "in use"); returns what it made and the port.
    public static func launching<T>(_ port: Int? = nil, udp: Bool = false, _ launch: (Int) throws -> T) throws -> (T, Int) {
        var attempt = 0
        while true {
            let chosen = try port ?? free(udp: udp)
            do {
                return (try launch(chosen), chosen)
            } catch let failure as ServerFailure where port == nil && attempt < 3 && failure.description.contains("in use") {
                attempt += 1
            }
        }
    }

    /// Returns once `process` listens on 127.0.0.1:`port` (its socket is bound, as /proc shows),
    /// for servers that say nothing when they do: waking on its pidfd (which also reports an early
    /// exit) every 20 ms; 30 s is a hang guard. The failure says "(in use)" when the port was
    /// taken, so a launcher can retry with another.
    public static func waitUntilListening(_ port: Int, udp: Bool = false, process: ServerProcess, name: String) throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while !isBound(port, udp: udp, by: process.pid) {
            if process.waitForExit(timeout: .milliseconds(20)) {
                let log = process.logTail()
                throw ServerFailure("\(name) did not listen on port \(port)\(log.contains("Address already in use") ? " (in use)" : ""): \(log)")
            }
            guard ContinuousClock.now < deadline else {
                process.kill()
                throw ServerFailure("\(name) did not listen on port \(port) within 30 s: \(process.logTail())")
            }
        }
    }

    /// Whether process `pid` has a socket bound to 127.0.0.1:`port` (TCP: listening), as the
    /// kernel lists them in /proc/net and /proc/PID/fd.
    public static func isBound(_ port: Int, udp: Bool, by pid: Int32) -> Bool {
        guard let table = try? String(contentsOfFile: udp ? "/proc/net/udp" : "/proc/net/tcp", encoding: .utf8) else {
            return false
        }
        let local = String(format: "0100007F:%04X", port)
        let inodes = table.split(separator: "\n").dropFirst().compactMap { line -> String? in
            let fields = line.split(separator: " ")
            guard fields.count > 9, fields[1] == local, udp || fields[3] == "0A" else { return nil }
            return String(fields[9])
        }
        guard !inodes.isEmpty else { return false }
        let folder = "/proc/\(pid)/fd"
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        let sockets = Set(descriptors.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "\(folder)/\($0)") })
        return inodes.contains { sockets.contains("socket:[\($0)]") }
    }
}
