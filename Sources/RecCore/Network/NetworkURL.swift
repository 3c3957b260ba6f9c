/// A network camera's address as `--source` gives it: `rtsp://`, `rtsps://`, `rtmp://`, `rtmps://`,
/// `srt://`, `http://` or `https://`, with rec's own query key taken out (`transport=udp|tcp`, RTSP
/// only) and everything else passed to libavformat as written.
///
/// The authority (`user:password@host:port`) ends at the first `/`, `?` or `#`, where
/// libavformat's `av_url_split` ends it too, and the credentials at its last `@`. So a password
/// may hold `@` and `:` as they are, or percent-encoded (`%40`, `%3A`: FFmpeg decodes them before
/// it authenticates), but `/`, `?` and `#` only encoded (`%2F`, `%3F`, `%23`); an `@` after the
/// authority is refused, since it almost always means one of those was not.
///
/// Credentials are kept for libavformat only (`address`): `description`, `redacted`, `dump` and
/// every error message show `***@` instead, and `***` for the value of a query key that holds a
/// secret (`password=`, `pwd=`, SRT's `passphrase=`, `token=`, …), so a URL is safe to print, log
/// and show in `status`.
package struct NetworkURL: Sendable, Equatable {
    package enum Scheme: String, Sendable, CaseIterable {
        case rtsp, rtsps, rtmp, rtmps, srt, http, https

        /// The port libavformat uses when the URL names none; nil for SRT, which needs one.
        package var defaultPort: Int? {
            switch self {
            case .rtsp: 554
            case .rtsps: 322
            case .rtmp: 1935
            case .rtmps, .https: 443
            case .http: 80
            case .srt: nil
            }
        }

        /// Whether the URL may carry rec's `transport=` key.
        package var isRTSP: Bool { self == .rtsp || self == .rtsps }
    }

    /// How RTSP carries the media: interleaved in the RTSP connection (TCP, the default: it
    /// passes NAT and firewalls and loses nothing), or as RTP over UDP (lower latency on a LAN,
    /// loses packets under load).
    package enum Transport: String, Sendable {
        case tcp, udp
    }

    package let scheme: Scheme
    /// The URL libavformat opens: the scheme in lower case (libavformat matches it exactly), the
    /// rest as given, credentials included, rec's own `transport=` removed.
    package let address: String
    /// The host and port, as written, without credentials (`[::1]:8554`, `cam.local`).
    package let authority: String
    /// The host alone: a name, an IPv4 address, or an IPv6 address without its brackets.
    package let host: String
    /// The port written in the URL; nil when it names none (see `Scheme.defaultPort`).
    package let port: Int?
    /// Whether the URL holds a user name (and maybe a password) before its host.
    package let hasCredentials: Bool
    /// RTSP only (TCP unless the URL says `transport=udp`); nil for the other schemes.
    package let transport: Transport?

    /// Whether `text` names a network source at all (a scheme rec knows, any case, then `://`).
    package static func isNetwork(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":") else { return false }
        return Scheme(rawValue: text[..<colon].lowercased()) != nil && text[colon...].hasPrefix("://")
    }

    package static func parse(_ text: String) throws(RecError) -> NetworkURL {
        let shown = redacting(text)
        guard let schemeEnd = text.firstRange(of: "://"),
              let scheme = Scheme(rawValue: text[..<schemeEnd.lowerBound].lowercased()) else {
            let known = Scheme.allCases.map { "\($0.rawValue)://" }.joined(separator: ", ")
            throw .usage("'\(shown)' is not a camera URL rec reads; use \(known), e.g. rtsp://192.168.1.20:554/stream")
        }
        if text.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F }) {
            throw .usage("'\(shown)' holds a space or a control character; a URL has none: write a space as %20, "
                         + "and check the end of the line for a stray newline")
        }
        let rest = text[schemeEnd.upperBound...]
        let authorityPart = authority(of: rest)
        let tail = rest[authorityPart.endIndex...]
        if tail.contains("@") {
            throw .usage("'\(shown)' has an '@' after its host; if it belongs to the password, write the password's "
                         + "'/', '?' and '#' as %2F, %3F and %23 (an '@' anywhere else as %40)")
        }
        let at = authorityPart.lastIndex(of: "@")
        let hostPort = at.map { authorityPart[authorityPart.index(after: $0)...] } ?? authorityPart
        let (host, port) = try Self.hostAndPort(hostPort, scheme: scheme, shown: shown)
        var transport: Transport?
        var path = String(tail)
        if scheme.isRTSP {
            (path, transport) = try Self.takingTransport(from: tail, shown: shown)
        }
        return NetworkURL(scheme: scheme, address: "\(scheme.rawValue)://\(authorityPart)\(path)",
                          authority: String(hostPort), host: host, port: port, hasCredentials: at != nil,
                          transport: transport)
    }

    private init(scheme: Scheme, address: String, authority: String, host: String, port: Int?,
                 hasCredentials: Bool, transport: Transport?) {
        self.scheme = scheme
        self.address = address
        self.authority = authority
        self.host = host
        self.port = port
        self.hasCredentials = hasCredentials
        self.transport = transport
    }

    /// The same URL with its transport replaced (`--rtsp-transport`); other schemes have none.
    package func with(transport: Transport) -> NetworkURL {
        NetworkURL(scheme: scheme, address: address, authority: authority, host: host, port: port,
                   hasCredentials: hasCredentials, transport: self.transport == nil ? nil : transport)
    }

    /// What follows `://` up to the first `/`, `?` or `#`: `[user[:password]@]host[:port]`.
    static func authority(of rest: Substring) -> Substring {
        rest[..<(rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex)]
    }

    /// `host`, `host:port`, `[v6]` or `[v6]:port`, checked.
    private static func hostAndPort(_ text: Substring, scheme: Scheme, shown: String) throws(RecError) -> (String, Int?) {
        let example = "\(scheme.rawValue)://192.168.1.20:\(scheme.defaultPort ?? 9000)/stream"
        var host = text
        var portText: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else {
                throw .usage("'\(shown)' opens an IPv6 address with '[' but does not close it; write e.g. "
                             + "\(scheme.rawValue)://[fe80::1]:\(scheme.defaultPort ?? 9000)/stream")
            }
            host = text[text.index(after: text.startIndex)..<close]
            let after = text[text.index(after: close)...]
            guard after.isEmpty || after.hasPrefix(":") else {
                throw .usage("'\(shown)' has '\(after)' after its IPv6 address; only ':PORT' may follow the ']'")
            }
            portText = after.isEmpty ? nil : after.dropFirst()
        } else if text.contains("[") || text.contains("]") {
            throw .usage("'\(shown)' has a '[' or ']' inside its host; only an IPv6 address is written in brackets, "
                         + "as in \(scheme.rawValue)://[fe80::1]/stream")
        } else if let colon = text.firstIndex(of: ":") {
            guard text[text.index(after: colon)...].firstIndex(of: ":") == nil else {
                throw .usage("'\(shown)' names an IPv6 address without brackets; write it in brackets, e.g. "
                             + "\(scheme.rawValue)://[\(text)]/stream (a port goes after the ']')")
            }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        }
        guard !host.isEmpty else { throw .usage("'\(shown)' names no host; write e.g. \(example)") }
        guard let portText else {
            guard scheme.defaultPort != nil else {
                throw .usage("'\(shown)' names no port, and srt:// has no default one; write e.g. srt://192.168.1.20:9000")
            }
            return (String(host), nil)
        }
        guard !portText.isEmpty, portText.count <= 5, portText.allSatisfy({ $0.isASCII && $0.isNumber }),
              let port = Int(portText), (1...65_535).contains(port) else {
            let what = portText.isEmpty ? "has a ':' but no port after it" : "has port '\(portText)'"
            throw .usage("'\(shown)' \(what); a port is a number from 1 to 65535 (e.g. \(example)), or leave it out with its ':'")
        }
        return (String(host), port)
    }

    /// RTSP's path with `transport=` taken out of its query (empty items dropped, and the `?` too
    /// when nothing is left), and the transport it named (TCP if none). A fragment stays as written.
    private static func takingTransport(from tail: Substring, shown: String) throws(RecError) -> (String, Transport) {
        let hash = tail.firstIndex(of: "#") ?? tail.endIndex
        let fragment = tail[hash...]
        guard let question = tail[..<hash].firstIndex(of: "?") else { return (String(tail), .tcp) }
        var transport: Transport?
        var kept: [Substring] = []
        for item in tail[tail.index(after: question)..<hash].split(separator: "&") {
            let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard pair[0] == "transport" else {
                kept.append(item)
                continue
            }
            let value = pair.count == 2 ? pair[1].lowercased() : ""
            guard let named = Transport(rawValue: value) else {
                throw .usage("'transport=\(value)' in '\(shown)' is not a transport; use transport=tcp (the default) or transport=udp")
            }
            if let transport, transport != named {
                throw .usage("'\(shown)' gives transport=tcp and transport=udp; keep one of them")
            }
            transport = named
        }
        let query = kept.isEmpty ? "" : "?" + kept.joined(separator: "&")
        return (String(tail[..<question]) + query + fragment, transport ?? .tcp)
    }
}
