import CMicroHTTPD
import Glibc
import RecCore
import Synchronization

/// An HTTP server over libmicrohttpd: one thread per connection (a live viewer's connection
/// blocks in its reader until fragments come), bounded connections, per-address connections,
/// idle time and per-connection memory. `handle` runs on the connection's thread.
///
/// `@unchecked Sendable`: the daemon pointer is set once in `init` and never changes; stopping it
/// (`MHD_stop_daemon`, which joins every connection thread) happens once, under `stopped`'s lock.
/// The handler and each request's state are reached from libmicrohttpd's threads through
/// `Unmanaged` boxes: the handler box lives as long as the server, a request box from the first
/// callback of its request to `MHD_OPTION_NOTIFY_COMPLETED`.
package final class HTTPServer: @unchecked Sendable {
    package struct Limits: Sendable {
        package var connections: UInt32 = 64
        package var connectionsPerAddress: UInt32 = 48
        package var idleSeconds: UInt32 = 15
        package var connectionMemory = 64 * 1024
        package var bodyBytes = 64 * 1024
        package init() {}
    }

    final class Handler: Sendable {
        let handle: @Sendable (HTTPRequest) -> HTTPResponse
        let bodyLimit: Int
        init(handle: @escaping @Sendable (HTTPRequest) -> HTTPResponse, bodyLimit: Int) {
            self.handle = handle
            self.bodyLimit = bodyLimit
        }
    }

    /// One request's state between libmicrohttpd's calls; only its connection's thread touches it.
    final class Pending {
        var body: [UInt8] = []
        var tooLarge = false
        var pairs: [(String, String)] = []
    }

    private let daemon: OpaquePointer
    private let handler: Unmanaged<Handler>
    private let stopped = Mutex(false)
    package let address: String
    package let port: Int

    /// Listens on `address` (an IPv4 or IPv6 literal) and `port` (0: any free one).
    /// The corresponding C function is `MHD_start_daemon`.
    package init(address: String, port: Int, limits: Limits = Limits(),
                handle: @escaping @Sendable (HTTPRequest) -> HTTPResponse) throws(RecError) {
        let box = Unmanaged.passRetained(Handler(handle: handle, bodyLimit: limits.bodyBytes))
        let ipv6 = address.contains(":")
        var parsed = false
        var started: OpaquePointer?
        if ipv6 {
            var sa = sockaddr_in6()
            sa.sin6_family = sa_family_t(AF_INET6)
            sa.sin6_port = in_port_t(UInt16(port).bigEndian)
            parsed = inet_pton(AF_INET6, address, &sa.sin6_addr) == 1
            if parsed { started = Self.start(&sa, ipv6: true, box, limits) }
        } else {
            var sa = sockaddr_in()
            sa.sin_family = sa_family_t(AF_INET)
            sa.sin_port = in_port_t(UInt16(port).bigEndian)
            parsed = inet_pton(AF_INET, address, &sa.sin_addr) == 1
            if parsed { started = Self.start(&sa, ipv6: false, box, limits) }
        }
        guard parsed else {
            box.release()
            throw .usage("--http \(address) is not an IP address; give one such as 127.0.0.1 or ::1, or only a port")
        }
        guard let started else {
            box.release()
            throw .runtime("cannot serve HTTP on \(address):\(port): the port is taken or the address is not this machine's; "
                           + "choose another with --http")
        }
        daemon = started
        handler = box
        self.address = address
        self.port = Int(cmhd_port(started))
    }

    /// Stops listening and ends every connection (joining their threads). Streams must already
    /// have been told to end, or this waits for them. The corresponding C function is `MHD_stop_daemon`.
    package func stop() {
        let first = stopped.withLock { done in
            defer { done = true }
            return !done
        }
        guard first else { return }
        MHD_stop_daemon(daemon)
        handler.release()
    }

    deinit { stop() }

    /// `address` is a `sockaddr_in` or `sockaddr_in6`.
    private static func start<Address>(_ address: inout Address, ipv6: Bool, _ box: Unmanaged<Handler>,
                                       _ limits: Limits) -> OpaquePointer? {
        withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                cmhd_start($0, ipv6 ? 1 : 0, accessCallback, box.toOpaque(), completedCallback, nil,
                           limits.connections, limits.connectionsPerAddress, limits.idleSeconds, limits.connectionMemory)
            }
        }
    }
}

// MARK: - C callbacks

private let accessCallback: MHD_AccessHandlerCallback = { cls, connection, url, method, _, upload, uploadSize, requestState in
    guard let cls, let connection, let requestState, let uploadSize else { return CMHD_NO }
    let handler = Unmanaged<HTTPServer.Handler>.fromOpaque(cls).takeUnretainedValue()
    guard let state = requestState.pointee else {
        requestState.pointee = Unmanaged.passRetained(HTTPServer.Pending()).toOpaque()
        return CMHD_YES
    }
    let pending = Unmanaged<HTTPServer.Pending>.fromOpaque(state).takeUnretainedValue()
    if uploadSize.pointee > 0 {
        if let upload, !pending.tooLarge {
            if pending.body.count + uploadSize.pointee > handler.bodyLimit {
                pending.tooLarge = true
                pending.body = []
            } else {
                pending.body.append(contentsOf: UnsafeRawBufferPointer(start: upload, count: uploadSize.pointee))
            }
        }
        uploadSize.pointee = 0
        return CMHD_YES
    }
    var request = HTTPRequest(method: method.map { String(cString: $0) } ?? "GET", path: url.map { String(cString: $0) } ?? "/")
    request.headers = collect(connection, CMHD_HEADER_KIND, pending, lowercased: true)
    request.query = collect(connection, CMHD_GET_ARGUMENT_KIND, pending, lowercased: false)
    request.body = pending.body
    request.bodyTooLarge = pending.tooLarge
    return queue(handler.handle(request), on: connection)
}

private let completedCallback: MHD_RequestCompletedCallback = { _, _, requestState, _ in
    guard let requestState, let state = requestState.pointee else { return }
    Unmanaged<HTTPServer.Pending>.fromOpaque(state).release()
    requestState.pointee = nil
}

private func collect(_ connection: OpaquePointer, _ kind: MHD_ValueKind, _ pending: HTTPServer.Pending,
                     lowercased: Bool) -> [String: String] {
    pending.pairs = []
    let cls = Unmanaged.passUnretained(pending).toOpaque()
    _ = MHD_get_connection_values(connection, kind, { cls, _, key, value in
        guard let cls, let key else { return CMHD_YES }
        let pending = Unmanaged<HTTPServer.Pending>.fromOpaque(cls).takeUnretainedValue()
        pending.pairs.append((String(cString: key), value.map { String(cString: $0) } ?? ""))
        return CMHD_YES
    }, cls)
    var out: [String: String] = [:]
    for (k, v) in pending.pairs { out[lowercased ? k.lowercased() : k] = v }
    return out
}

/// A stream and the connection's view of it, for the content reader.
private final class StreamBox {
    let stream: any HTTPStream
    init(_ stream: any HTTPStream) { self.stream = stream }
}

private func queue(_ response: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
    var made: OpaquePointer?
    switch response.body {
    case .bytes(let bytes):
        made = bytes.withUnsafeBytes { raw in
            MHD_create_response_from_buffer(raw.count, UnsafeMutableRawPointer(mutating: raw.baseAddress), CMHD_RESPMEM_MUST_COPY)
        }
    case .file(let path, let unlinkFirst):
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if unlinkFirst { unlink(path) }
        var st = stat()
        if fd >= 0, fstat(fd, &st) == 0 {
            made = MHD_create_response_from_fd(Int(st.st_size), fd)
        }
        if made == nil {
            if fd >= 0 { close(fd) }
            return queue(.error(500, "the file to send is gone; try again"), on: connection)
        }
    case .stream(let stream):
        let box = Unmanaged.passRetained(StreamBox(stream)).toOpaque()
        made = MHD_create_response_from_callback(CMHD_SIZE_UNKNOWN, 64 * 1024, { cls, _, buf, max in
            guard let cls, let buf else { return CMHD_READER_END_WITH_ERROR }
            let box = Unmanaged<StreamBox>.fromOpaque(cls).takeUnretainedValue()
            guard let n = box.stream.read(into: UnsafeMutableRawBufferPointer(start: buf, count: max)) else {
                return CMHD_READER_END_OF_STREAM
            }
            return n
        }, box, { cls in
            guard let cls else { return }
            let box = Unmanaged<StreamBox>.fromOpaque(cls)
            box.takeUnretainedValue().stream.close()
            box.release()
        })
        if made == nil { Unmanaged<StreamBox>.fromOpaque(box).release() }
    }
    guard let made else { return CMHD_NO }
    for (name, value) in response.headers { _ = MHD_add_response_header(made, name, value) }
    _ = MHD_add_response_header(made, "Cache-Control", "no-store")
    _ = MHD_add_response_header(made, "X-Content-Type-Options", "nosniff")
    _ = MHD_add_response_header(made, "Referrer-Policy", "no-referrer")
    let result = MHD_queue_response(connection, UInt32(response.status), made)
    MHD_destroy_response(made)
    return result
}
