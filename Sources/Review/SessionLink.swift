import Foundation
import Glibc
import Live
import RecCore
import SessionControl
import Synchronization

/// How the review server reaches one session's own live server: plain HTTP/1.0 over a loopback
/// TCP connection, with the session's token in a header (the review server runs as the session's
/// user and reads it from the session folder). HTTP/1.0 so that libmicrohttpd answers a stream
/// without chunking and ends it by closing: the body is copied to the viewer byte for byte.
struct SessionLink: Sendable {
    /// "127.0.0.1" or "::1": the session's listening address, loopback for a wildcard.
    let host: String
    let port: Int
    let token: String

    /// Parses `http://127.0.0.1:8080/` (a session folder's `http-address`).
    init?(address: String, token: String) {
        guard address.hasPrefix("http://") else { return nil }
        var rest = address.dropFirst(7)
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        let host: Substring, portText: Substring
        if rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
            host = rest[rest.index(after: rest.startIndex)..<close]
            portText = rest[rest.index(after: close)...].dropFirst()
        } else if let colon = rest.lastIndex(of: ":") {
            host = rest[..<colon]
            portText = rest[rest.index(after: colon)...]
        } else {
            return nil
        }
        guard let port = Int(portText), port > 0, port < 65536 else { return nil }
        self.host = host == "0.0.0.0" ? "127.0.0.1" : host == "::" ? "::1" : String(host)
        self.port = port
        self.token = token
    }

    /// Sends the request and reads the status line and headers; the body is the returned
    /// response's to read. `timeout` bounds each read (nil: a live stream, which waits).
    func open(_ target: String, method: String = "GET", body: [UInt8] = [], timeout: Int? = 30) throws(RecError) -> UpstreamResponse {
        let fd = try connect(timeout: timeout)
        let hostHeader = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        var head = "\(method) \(target) HTTP/1.0\r\nHost: \(hostHeader)\r\nX-Rec-Token: \(token)\r\nConnection: close\r\n"
        if !body.isEmpty { head += "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n" }
        let request = Array((head + "\r\n").utf8) + body
        var sent = 0
        while sent < request.count {
            let n = request[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 {
                close(fd)
                throw .runtime("the session's live server closed the connection", cause: "send: \(errorText(errno))")
            }
            sent += n
        }
        return try UpstreamResponse(fd: fd)
    }

    /// The whole body of a short answer (JSON, a JPEG): status, headers and at most `limit` bytes.
    func fetch(_ target: String, method: String = "GET", body: [UInt8] = [], limit: Int = 64 << 20) throws(RecError)
        -> (status: Int, headers: [(String, String)], body: [UInt8]) {
        let response = try open(target, method: method, body: body)
        defer { response.close() }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while let n = chunk.withUnsafeMutableBytes({ response.read(into: $0) }) {
            out += chunk[0..<n]
            if out.count > limit { throw .runtime("the session's answer to \(target) is over \(limit >> 20) MiB") }
        }
        return (response.status, response.headers, out)
    }

    private func connect(timeout: Int?) throws(RecError) -> Int32 {
        let ipv6 = host.contains(":")
        let fd = socket(ipv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        if fd < 0 { throw .runtime("cannot open a socket", cause: "socket: \(errorText(errno))") }
        if let timeout {
            var tv = timeval(tv_sec: timeout, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        }
        var result: Int32 = -1
        if ipv6 {
            var sa = sockaddr_in6()
            sa.sin6_family = sa_family_t(AF_INET6)
            sa.sin6_port = in_port_t(UInt16(port).bigEndian)
            inet_pton(AF_INET6, host, &sa.sin6_addr)
            result = withUnsafePointer(to: &sa) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) } }
        } else {
            var sa = sockaddr_in()
            sa.sin_family = sa_family_t(AF_INET)
            sa.sin_port = in_port_t(UInt16(port).bigEndian)
            inet_pton(AF_INET, host, &sa.sin_addr)
            result = withUnsafePointer(to: &sa) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        }
        if result != 0 {
            let e = errno
            close(fd)
            throw .runtime("the session's live server at \(host):\(port) does not answer", cause: "connect: \(errorText(e))")
        }
        return fd
    }
}

/// One answer from a session's server: its status and headers, then its body as a stream the
/// review server copies to the browser (`HTTPStream`). Owns the socket; `close()` ends it,
/// which also wakes a read blocked on a live stream.
final class UpstreamResponse: HTTPStream, @unchecked Sendable {
    // @unchecked: `fd` and `pending` are touched only by the connection thread that reads; `close`
    // may come from another and only shuts the socket down, under `closed`'s lock.
    let status: Int
    let headers: [(String, String)]
    private let fd: Int32
    private var pending: [UInt8]
    private let closed = Mutex(false)

    init(fd: Int32) throws(RecError) {
        self.fd = fd
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 8192)
        var headEnd: Int?
        while headEnd == nil {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 {
                Glibc.close(fd)
                throw .runtime("the session's live server sent no answer", cause: n < 0 ? "recv: \(errorText(errno))" : "closed")
            }
            buffer += chunk[0..<n]
            headEnd = Self.headerEnd(buffer)
            if headEnd == nil && buffer.count > 64 << 10 {
                Glibc.close(fd)
                throw .runtime("the session's live server sent a header over 64 KiB")
            }
        }
        guard let end = headEnd else {
            Glibc.close(fd)
            throw .runtime("the session's live server sent no header")
        }
        let lines = String(decoding: buffer[0..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusWords = lines.first?.split(separator: " ") ?? []
        status = statusWords.count >= 2 ? Int(statusWords[1]) ?? 502 : 502
        headers = lines.dropFirst().compactMap { line in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        pending = Array(buffer[(end + 4)...])
    }

    func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        if !pending.isEmpty {
            let n = min(buffer.count, pending.count)
            guard let target = buffer.baseAddress else { return 0 }
            pending.withUnsafeBytes { source in
                if let from = source.baseAddress { target.copyMemory(from: from, byteCount: n) }
            }
            pending.removeFirst(n)
            return n
        }
        let n = recv(fd, buffer.baseAddress, buffer.count, 0)
        return n > 0 ? n : nil
    }

    func close() {
        closed.withLock { done in
            guard !done else { return }
            done = true
            shutdown(fd, Int32(SHUT_RDWR))
        }
    }

    deinit { Glibc.close(fd) }

    private static func headerEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for i in 0...(bytes.count - 4) where bytes[i] == 13 && bytes[i + 1] == 10 && bytes[i + 2] == 13 && bytes[i + 3] == 10 {
            return i
        }
        return nil
    }
}
