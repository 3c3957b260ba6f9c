/// A network camera's address as `--source` gives it: `rtsp://`, `rtsps://`, `rtmp://`, `rtmps://`,
/// `srt://`, `http://` or `https://`, with rec's own query keys taken out (`transport=udp|tcp` for
/// RTSP) and everything else passed to libavformat as written.
///
/// Credentials (`user:password@`) are kept for libavformat only: `description` and `redacted`
/// never contain them, so a URL is safe to print, log and show in `status`.
public struct NetworkURL: Sendable, Equatable, CustomStringConvertible {
    public enum Scheme: String, Sendable, CaseIterable {
        case rtsp, rtsps, rtmp, rtmps, srt, http, https
    }

    /// How RTSP carries the media: interleaved in the RTSP connection (TCP, the default: it
    /// passes NAT and firewalls and loses nothing), or as RTP over UDP (lower latency on a LAN,
    /// loses packets under load).
    public enum Transport: String, Sendable {
        case tcp, udp
    }

    public let scheme: Scheme
    /// The URL libavformat opens: as given, credentials included, rec's own keys removed.
    public let address: String
    /// The host and port, as written (`[::1]:8554`).
    public let authority: String
    public let hasCredentials: Bool
    /// RTSP only; nil for the other schemes.
    public let transport: Transport?

    /// Whether `text` names a network source at all (a scheme rec knows, followed by `://`).
    public static func isNetwork(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":") else { return false }
        return Scheme(rawValue: text[..<colon].lowercased()) != nil && text[colon...].hasPrefix("://")
    }

    public static func parse(_ text: String) throws(RecError) -> NetworkURL {
        guard let schemeEnd = text.range(of: "://"), let scheme = Scheme(rawValue: text[..<schemeEnd.lowerBound].lowercased()) else {
            let known = Scheme.allCases.map { "\($0.rawValue)://" }.joined(separator: ", ")
            throw .usage("'\(Self.redacting(text))' is not a camera URL rec reads; use \(known)")
        }
        var rest = text[schemeEnd.upperBound...]
        // The authority ends at the first '/', '?' or '#'; a password may hold none of them
        // unescaped (RFC 3986), so this is where libavformat splits it too.
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        let authorityPart = rest[..<authorityEnd]
        let at = authorityPart.lastIndex(of: "@")
        let hostPart = at.map { authorityPart[authorityPart.index(after: $0)...] } ?? authorityPart
        guard !hostPart.isEmpty, !hostPart.hasPrefix(":") else {
            throw .usage("'\(Self.redacting(text))' names no host; write e.g. \(scheme.rawValue)://192.168.1.20:554/stream")
        }
        if let portText = Self.port(of: hostPart) {
            guard let port = Int(portText), (1...65535).contains(port) else {
                throw .usage("'\(portText)' in '\(Self.redacting(text))' is not a port; use a number from 1 to 65535")
            }
        }
        rest = rest[authorityEnd...]
        // rec's own query key; the rest of the query stays for the server (a camera's channel=1).
        var transport: Transport? = scheme == .rtsp || scheme == .rtsps ? .tcp : nil
        var path = String(rest)
        var fragment = ""
        if let hash = path.firstIndex(of: "#") {
            fragment = String(path[hash...])
            path = String(path[..<hash])
        }
        if let q = path.firstIndex(of: "?") {
            var kept: [Substring] = []
            for item in path[path.index(after: q)...].split(separator: "&", omittingEmptySubsequences: true) {
                let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard pair[0] == "transport", transport != nil else {
                    kept.append(item)
                    continue
                }
                let value = pair.count == 2 ? String(pair[1]).lowercased() : ""
                guard let t = Transport(rawValue: value) else {
                    throw .usage("transport=\(value) in '\(Self.redacting(text))' is not a transport; use transport=tcp or transport=udp")
                }
                transport = t
            }
            path = String(path[..<q]) + (kept.isEmpty ? "" : "?" + kept.joined(separator: "&"))
        }
        return NetworkURL(scheme: scheme, address: "\(text[..<schemeEnd.upperBound])\(authorityPart)\(path)\(fragment)",
                  authority: String(hostPart), hasCredentials: at != nil, transport: transport)
    }

    private init(scheme: Scheme, address: String, authority: String, hasCredentials: Bool, transport: Transport?) {
        self.scheme = scheme
        self.address = address
        self.authority = authority
        self.hasCredentials = hasCredentials
        self.transport = transport
    }

    /// The same URL with its transport replaced (`--rtsp-transport`).
    public func with(transport: Transport) -> NetworkURL {
        NetworkURL(scheme: scheme, address: address, authority: authority, hasCredentials: hasCredentials,
                   transport: self.transport == nil ? nil : transport)
    }

    /// The URL without its credentials (`rtsp://***@cam:554/live`), for messages, logs and status.
    public var redacted: String { Self.redacting(address) }

    public var description: String { redacted }

    /// `text` with any `user:password@` between `://` and the host replaced by `***@`: for error
    /// messages about a URL that did not parse.
    public static func redacting(_ text: String) -> String {
        guard let schemeEnd = text.range(of: "://") else { return text }
        let rest = text[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        guard let at = rest[..<authorityEnd].lastIndex(of: "@") else { return text }
        return String(text[..<schemeEnd.upperBound]) + "***" + String(rest[at...])
    }

    /// The port written after the host, if any (`[::1]:8554` → 8554).
    private static func port(of host: Substring) -> Substring? {
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return nil }
            let after = host[host.index(after: close)...]
            return after.hasPrefix(":") ? after.dropFirst() : nil
        }
        guard let colon = host.lastIndex(of: ":") else { return nil }
        return host[host.index(after: colon)...]
    }
}
