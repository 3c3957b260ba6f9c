import Foundation
import Glibc

/// A bare Unix-socket client that does whatever a test tells it, badly behaved included: send
/// garbage, half-close, never read, hang up mid-request.
final class RawClient {
    private(set) var fd: Int32

    /// Connects to `path`, or nil when the socket refuses.
    init?(path: String) {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        let result = withSocketAddress(path) { [fd] in Glibc.connect(fd, $0, $1) }
        if fd < 0 || result != 0 {
            if fd >= 0 { Glibc.close(fd) }
            return nil
        }
        // Never let a stuck write hang a test: give up after 2 s.
        var limit = timeval(tv_sec: 2, tv_usec: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close() }

    /// Writes `bytes`; false when the session closed or the write timed out.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return false }
            offset += n
        }
        return true
    }

    @discardableResult
    func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    func shutdownWrite() { _ = shutdown(fd, Int32(SHUT_WR)) }

    /// Reads until a newline, EOF, or `timeoutMs`; nil when nothing complete arrived.
    func readLine(timeoutMs: Int32 = 5_000) -> String? {
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, timeoutMs) > 0, recv(fd, &byte, 1, 0) == 1 else { return nil }
            if byte == UInt8(ascii: "\n") { return String(decoding: line, as: UTF8.self) }
            line.append(byte)
        }
    }

    func close() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
    }
}

/// A stand-in session socket that refuses every client the blunt way: it writes `reply` and
/// closes at once, without reading the request.
final class RefusingListener: Sendable {
    let fd: Int32

    init(path: String, reply: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        let bound = withSocketAddress(path) { [fd] in bind(fd, $0, $1) }
        guard bound == 0, listen(fd, 8) == 0 else { throw POSIXError(.EADDRINUSE) }
        let listener = fd
        Thread {
            while true {
                let client = accept(listener, nil, nil)
                if client < 0 { return }
                _ = Array((reply + "\n").utf8).withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                Glibc.close(client)
            }
        }.start()
    }

    deinit {
        shutdown(fd, Int32(SHUT_RDWR))
        close(fd)
    }
}

/// Calls `body` with `path` as a `sockaddr_un` (cut to `sun_path`'s size).
func withSocketAddress(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32 {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes.prefix($0.count - 1)) }
    return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
}
