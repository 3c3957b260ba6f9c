import Foundation
import Glibc

/// A minimal HTTP/1.0 client over a loopback TCP socket for the live page tests: one request per
/// connection, reads to the end (or `limit` bytes), bounded by a receive timeout.
enum HTTPTestClient {
    struct Response {
        var status: Int
        var headers: [String: String]
        var body: [UInt8]
        var text: String { String(decoding: body, as: UTF8.self) }
        var json: [String: Any] { ((try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any]) ?? [:] }
    }

    static func request(port: Int, _ method: String = "GET", _ path: String, headers: [String: String] = [:],
                        body: [UInt8] = [], limit: Int = 64 << 20) throws -> Response {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var sa = sockaddr_in()
        sa.sin_family = sa_family_t(AF_INET)
        sa.sin_port = in_port_t(UInt16(port).bigEndian)
        sa.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &sa) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
        var all = headers
        if all["Host"] == nil { all["Host"] = "127.0.0.1:\(port)" }
        if !body.isEmpty { all["Content-Length"] = String(body.count) }
        var head = "\(method) \(path) HTTP/1.0\r\n"
        for (k, v) in all where !v.isEmpty { head += "\(k): \(v)\r\n" }
        let message = Array((head + "\r\n").utf8) + body
        _ = message.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while received.count < limit {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            received += buffer[0..<n]
        }
        guard let split = (0..<max(0, received.count - 3)).first(where: { received[$0..<$0 + 4].elementsEqual([13, 10, 13, 10]) }) else {
            throw POSIXError(.EBADMSG)
        }
        let lines = String(decoding: received[..<split], as: UTF8.self).components(separatedBy: "\r\n")
        let status = Int(lines[0].split(separator: " ")[1]) ?? 0
        var parsed: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            parsed[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Response(status: status, headers: parsed, body: Array(received[(split + 4)...]))
    }

    /// Sends a GET and never reads the answer (a stalled viewer); close the descriptor to leave.
    static func stalled(port: Int, _ path: String, headers: [String: String]) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var small: Int32 = 4096
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
        var sa = sockaddr_in()
        sa.sin_family = sa_family_t(AF_INET)
        sa.sin_port = in_port_t(UInt16(port).bigEndian)
        sa.sin_addr.s_addr = inet_addr("127.0.0.1")
        _ = withUnsafePointer(to: &sa) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        var head = "GET \(path) HTTP/1.0\r\nHost: 127.0.0.1:\(port)\r\n"
        for (k, v) in headers { head += "\(k): \(v)\r\n" }
        let bytes = Array((head + "\r\n").utf8)
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        return fd
    }

    /// A TCP port nobody listens on right now (for a receiver the test starts).
    static func freePort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var sa = sockaddr_in()
        sa.sin_family = sa_family_t(AF_INET)
        sa.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &sa) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { p in
                _ = bind(fd, p, length)
                return getsockname(fd, p, &length)
            }
        }
        return Int(UInt16(bigEndian: sa.sin_port))
    }
}
