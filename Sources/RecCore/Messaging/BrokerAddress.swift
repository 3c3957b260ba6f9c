/// An MQTT broker as the configuration names it:
/// `mqtt://[user[:password]@]host[:port][/prefix][?options]`, or `mqtts://` for TLS.
///
/// - The port is 1883 for `mqtt://` and 8883 for `mqtts://` when none is written.
/// - The user and password are percent-decoded (`%40` for `@`, `%3A` for `:`, `%2F` for `/`); the
///   credentials end at the authority's last `@`, so a password may also hold a bare `@`.
/// - The path is the topic prefix every topic of the session goes under (`mqtt://broker/home/cam1`
///   publishes `home/cam1/motion`), percent-decoded, without its outer `/`; it may not hold the
///   wildcards `+` or `#`, nor start with `$` (the broker's own topics).
/// - Options: `ca=PATH` (the CA file that signed the broker's certificate, TLS only), `insecure`
///   (TLS without checking the certificate's host name) and `client-id=ID`.
///
/// The password is kept for libmosquitto only: `redacted`, `description`, `dump` and every error
/// show `***` in its place, and error messages about text that did not parse hide the whole user
/// information (`NetworkURL.redacting`).
package struct BrokerAddress: Sendable, Equatable {
    package enum Scheme: String, Sendable, CaseIterable {
        case mqtt, mqtts

        package var defaultPort: Int { self == .mqtt ? 1883 : 8883 }
    }

    package let scheme: Scheme
    /// A name or an address; an IPv6 address without its brackets.
    package let host: String
    package let port: Int
    package let user: String?
    /// For libmosquitto only; never shown.
    package let password: String?
    /// The topic prefix, without a leading or trailing `/`; empty when the URL names none.
    package let prefix: String
    /// `ca=`: the CA certificate file for TLS; nil to trust the system's CAs.
    package let caFile: String?
    /// `insecure`: TLS without the host-name check (the certificate chain is still checked).
    package let insecure: Bool
    /// `client-id=`: the client identifier the connection uses instead of the one rec makes.
    package let clientID: String?
    /// The user as the URL writes it (percent-encoded), for `redacted`.
    let userAsWritten: String?

    package var usesTLS: Bool { scheme == .mqtts }

    /// `name` under the prefix: `prefix/name`, or `name` when there is no prefix.
    package func topic(_ name: String) -> String { prefix.isEmpty ? name : prefix + "/" + name }

    package static func parse(_ text: String) throws(RecError) -> BrokerAddress {
        let shown = NetworkURL.redacting(text)
        let example = "mqtt://user:password@broker.local:1883/home/cam1"
        guard let schemeEnd = text.firstRange(of: "://"),
              let scheme = Scheme(rawValue: text[..<schemeEnd.lowerBound].lowercased()) else {
            throw .usage("'\(shown)' is not an MQTT broker; write mqtt://HOST (or mqtts://HOST for TLS), e.g. \(example)")
        }
        if text.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F }) {
            throw .usage("'\(shown)' holds a space or a control character; write a space as %20, "
                         + "and check the end of the line for a stray newline")
        }
        let rest = text[schemeEnd.upperBound...]
        let authority = NetworkURL.authority(of: rest)
        var tail = rest[authority.endIndex...]
        if tail.contains("@") {
            throw .usage("'\(shown)' has an '@' after its host; if it belongs to the password, write the password's "
                         + "'/', '?' and '#' as %2F, %3F and %23")
        }
        if tail.contains("#") {
            throw .usage("'\(shown)' has a '#' after its host, an MQTT wildcard; a prefix names topics without "
                         + "wildcards, e.g. \(example) (in an option's value, write '#' as %23)")
        }
        var user: String?, password: String?, userAsWritten: String?
        var hostPort = authority
        if let at = authority.lastIndex(of: "@") {
            hostPort = authority[authority.index(after: at)...]
            let userinfo = authority[..<at]
            let colon = userinfo.firstIndex(of: ":")
            let userText = userinfo[..<(colon ?? userinfo.endIndex)]
            guard !userText.isEmpty else {
                throw .usage("'\(shown)' gives a password but no user name; MQTT sends a password only with a user: "
                             + "write mqtt://USER:PASSWORD@HOST")
            }
            userAsWritten = String(userText)
            user = try decoded(userText, what: "user name", shown: shown)
            if let colon { password = try decoded(userinfo[userinfo.index(after: colon)...], what: "password", shown: shown) }
        }
        let (host, port) = try hostAndPort(hostPort, scheme: scheme, shown: shown)
        var query: Substring = ""
        if let question = tail.firstIndex(of: "?") {
            query = tail[tail.index(after: question)...]
            tail = tail[..<question]
        }
        let prefix = try topicPrefix(tail, shown: shown)
        let options = try Options(query, scheme: scheme, shown: shown)
        return BrokerAddress(scheme: scheme, host: host, port: port ?? scheme.defaultPort, user: user, password: password,
                             prefix: prefix, caFile: options.caFile, insecure: options.insecure,
                             clientID: options.clientID, userAsWritten: userAsWritten)
    }

    /// `/a/b/` → `a/b`, percent-decoded, checked for wildcards and `$`.
    private static func topicPrefix(_ path: Substring, shown: String) throws(RecError) -> String {
        var trimmed = path
        while trimmed.first == "/" { trimmed = trimmed.dropFirst() }
        while trimmed.last == "/" { trimmed = trimmed.dropLast() }
        let prefix = try decoded(trimmed, what: "topic prefix", shown: shown)
        if prefix.contains("+") || prefix.contains("#") {
            throw .usage("'\(shown)' has a wildcard ('+' or '#') in its topic prefix; a prefix names topics, "
                         + "e.g. mqtt://broker.local/home/cam1")
        }
        if prefix.hasPrefix("$") {
            throw .usage("'\(shown)' has a topic prefix that starts with '$', which brokers keep for their own "
                         + "topics ($SYS); choose another, e.g. rec/cam1")
        }
        return prefix
    }

    /// The query's options, each given at most once.
    private struct Options {
        var caFile: String?
        var insecure = false
        var clientID: String?

        init(_ query: Substring, scheme: Scheme, shown: String) throws(RecError) {
            var seen: Set<Substring> = []
            for item in query.split(separator: "&") {
                let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let key = pair[0], value = pair.count == 2 ? pair[1] : nil
                guard seen.insert(key).inserted else {
                    throw .usage("'\(shown)' gives '\(key)' twice; keep one")
                }
                switch key {
                case "ca", "insecure":
                    guard scheme == .mqtts else {
                        throw .usage("'\(key)' in '\(shown)' is a TLS option; write mqtts:// to connect with TLS")
                    }
                    if key == "insecure" {
                        guard value == nil || value == "1" || value == "true" else {
                            throw .usage("'insecure=\(value ?? "")' in '\(shown)': write 'insecure' alone to skip "
                                         + "the host-name check, or leave it out")
                        }
                        insecure = true
                    } else {
                        guard let value, !value.isEmpty else {
                            throw .usage("'ca' in '\(shown)' names no file; write ca=/path/to/ca.crt")
                        }
                        caFile = try BrokerAddress.decoded(value, what: "CA file", shown: shown)
                    }
                case "client-id":
                    guard let value, !value.isEmpty else {
                        throw .usage("'client-id' in '\(shown)' is empty; write client-id=NAME or leave it out")
                    }
                    clientID = try BrokerAddress.decoded(value, what: "client id", shown: shown)
                default:
                    throw .usage("'\(key)' in '\(shown)' is not an option rec knows; use ca=PATH, insecure or client-id=NAME")
                }
            }
        }
    }

    private init(scheme: Scheme, host: String, port: Int, user: String?, password: String?, prefix: String,
                 caFile: String?, insecure: Bool, clientID: String?, userAsWritten: String?) {
        self.scheme = scheme
        self.host = host
        self.port = port
        self.user = user
        self.password = password
        self.prefix = prefix
        self.caFile = caFile
        self.insecure = insecure
        self.clientID = clientID
        self.userAsWritten = userAsWritten
    }
}
