import Glibc
import RecCore

/// The few socket calls the control server and client share, over Glibc.
enum UnixSocket {
    /// Longest path a `sockaddr_un` holds, without its NUL.
    static let maxPathBytes = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    /// A new `AF_UNIX` stream socket, close-on-exec. The corresponding C function is `socket`.
    static func make() throws(RecError) -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        if fd < 0 { throw .runtime("cannot create a control socket", cause: "socket: \(errorText(errno))") }
        return fd
    }

    /// Calls `body` with `path` as a socket address; paths longer than `sun_path` are refused.
    static func withAddress<R>(_ path: String,
                               _ body: (UnsafePointer<sockaddr>, socklen_t) -> R) throws(RecError) -> R {
        let bytes = Array(path.utf8)
        guard bytes.count <= maxPathBytes else {
            throw .runtime("the control socket path is \(bytes.count) bytes, over the \(maxPathBytes)-byte limit: \(path); use a shorter XDG_RUNTIME_DIR or session name")
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
        }
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }

    /// Connects a new socket to `path`: the fd, or the `errno` of the failure. The corresponding C
    /// function is `connect`.
    static func connect(to path: String) throws(RecError) -> Result<Int32, Errno> {
        let fd = try make()
        let result = try withAddress(path) { Glibc.connect(fd, $0, $1) }
        if result == 0 { return .success(fd) }
        let error = errno
        close(fd)
        return .failure(Errno(code: error))
    }

    /// Writes all of `bytes`, never raising SIGPIPE. False when the peer is gone or the write timed out.
    static func sendAll(_ fd: Int32, _ bytes: [UInt8], flags: Int32 = 0) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL) | flags) }
            if n < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += n
        }
        return true
    }

    /// Sends a last reply and lets the client read it: writes `reply`, shuts down the sending
    /// side (the client sees the end after the reply), then drains what the client sent, at most
    /// 64 KiB and for at most `linger`, so the close does not reset the connection under a
    /// reply still unread. The caller closes `fd`.
    static func refuse(_ fd: Int32, _ reply: [UInt8], linger: Duration) {
        guard sendAll(fd, reply, flags: Int32(MSG_DONTWAIT)) else { return }
        shutdown(fd, Int32(SHUT_WR))
        let deadline = ContinuousClock.now + linger
        var drained = 0
        var buffer = [UInt8](repeating: 0, count: 4096)
        while drained < 64 * 1024 {
            let left = deadline - ContinuousClock.now
            if left > .zero && !waitReadable(fd, milliseconds: max(1, milliseconds(left))) { return }
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return }
            drained += n
        }
    }

    /// Waits up to `milliseconds` for `fd` to be readable (or closed). The corresponding C function is `poll`.
    static func waitReadable(_ fd: Int32, milliseconds: Int32) -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while true {
            let n = poll(&entry, 1, milliseconds)
            if n < 0 && errno == EINTR { continue }
            return n > 0
        }
    }

    /// The uid of the process at the other end. The corresponding C call is
    /// `getsockopt(fd, SOL_SOCKET, SO_PEERCRED, struct ucred)`; `struct ucred` is pid, uid, gid as
    /// three 32-bit fields, read here into a homogeneous tuple because Glibc does not export it to Swift.
    static func peerUID(_ fd: Int32) -> UInt32? {
        var credentials: (pid: UInt32, uid: UInt32, gid: UInt32) = (0, 0, 0)
        var length = socklen_t(MemoryLayout.size(ofValue: credentials))
        let result = withUnsafeMutablePointer(to: &credentials) {
            getsockopt(fd, SOL_SOCKET, SO_PEERCRED, $0, &length)
        }
        return result == 0 ? credentials.uid : nil
    }

    /// Sets how long a blocked `send` may wait (`SO_SNDTIMEO`).
    static func setSendTimeout(_ fd: Int32, _ duration: Duration) {
        let ms = milliseconds(duration)
        var value = timeval(tv_sec: Int(ms / 1000), tv_usec: Int(ms % 1000) * 1000)
        _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
    }

    /// A duration in whole milliseconds, clamped to what `poll` takes.
    static func milliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        let ms = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        return Int32(clamping: max(0, ms))
    }
}

/// A C `errno` value, with its text.
struct Errno: Error, Equatable {
    var code: Int32
    var description: String { errorText(code) }
}

/// `strerror` text for an errno value.
package func errorText(_ code: Int32) -> String {
    String(cString: strerror(code))
}
