import RecCore

/// One HTTP request as libmicrohttpd parsed it: header names lowercased, the query's arguments
/// decoded, the body (bounded by the server) complete.
package struct HTTPRequest: Sendable {
    package var method: String
    package var path: String
    package var query: [String: String]
    package var headers: [String: String]
    package var body: [UInt8]
    /// The body passed the server's limit; it was thrown away.
    package var bodyTooLarge = false

    package init(method: String, path: String, query: [String: String] = [:], headers: [String: String] = [:], body: [UInt8] = []) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
    }
}

/// Something the server copies to a viewer as it comes: a live fragment stream.
package protocol HTTPStream: AnyObject, Sendable {
    /// Fills `buffer` with the next bytes, blocking (on this connection's own thread) until there
    /// are some; returns how many, or nil at the end of the stream.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int?
    /// The connection is gone (the client left or the server stops).
    func close()
}

/// The bytes an `HTTPStream` is handing to its connection, and how many it has handed.
package struct OutgoingBytes: Sendable {
    private var bytes: [UInt8]
    private var offset = 0

    package init(_ bytes: [UInt8] = []) {
        self.bytes = bytes
    }

    package var isEmpty: Bool { offset >= bytes.count }

    /// Copies the next bytes that fit into `buffer`; returns how many (0 when none are left).
    package mutating func copy(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let count = min(buffer.count, bytes.count - offset), start = offset
        guard count > 0 else { return 0 }
        bytes.withUnsafeBytes { src in
            UnsafeMutableRawBufferPointer(rebasing: buffer[..<count]).copyMemory(from: UnsafeRawBufferPointer(rebasing: src[start..<(start + count)]))
        }
        offset += count
        return count
    }
}

package struct HTTPResponse: Sendable {
    package enum Body: Sendable {
        case bytes([UInt8])
        /// A file sent from an open descriptor; with `unlinkFirst` it is removed as soon as it is open.
        case file(path: String, unlinkFirst: Bool)
        case stream(any HTTPStream)
    }

    package var status: Int
    package var headers: [(String, String)]
    package var body: Body

    package init(status: Int = 200, headers: [(String, String)] = [], body: Body) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    package static func text(_ status: Int, _ text: String, type: String = "text/plain; charset=utf-8") -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", type)], body: .bytes(Array(text.utf8)))
    }

    package static func json(_ bytes: [UInt8], status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "application/json")], body: .bytes(bytes))
    }

    /// `{"ok":false,"error":{"code":…,"message":…}}`, the control protocol's error shape.
    package static func error(_ status: Int, _ message: String) -> HTTPResponse {
        let code = status == 400 || status == 404 || status == 405 || status == 413 ? "usage" : status >= 500 ? "runtime" : "refused"
        return json(Array(#"{"ok":false,"error":{"code":"\#(code)","message":\#(Preset.quote(message))}}"#.utf8), status: status)
    }
}
