/// A machine whose sessions a command acts on (`--host`, `"hosts"` in config.json): this one, or
/// another reached through OpenSSH as `ssh://user@box:port`, where the same `rec` runs.
///
/// ssh does the authentication (keys, agent, `~/.ssh/config`), so a host holds no password: one
/// in the URL is refused and never repeated in the message.
package enum Box: Sendable, Hashable {
    /// This machine: the sessions of the user running rec.
    case local
    case remote(RemoteHost)

    /// How `--host` names this machine.
    package static let localName = "local"

    /// Parses `local`, `ssh://[user@]host[:port]`, `[user@]host` (IPv6 in brackets in a URL).
    package static func parse(_ text: String) throws(RecError) -> Box {
        if text == localName { return .local }
        return .remote(try RemoteHost.parse(text))
    }

    /// The host as the user would write it back: `local`, `user@box`, `user@box:2222`.
    package var display: String {
        switch self {
        case .local: Self.localName
        case .remote(let host): host.display
        }
    }
}

/// A box reached through ssh.
package struct RemoteHost: Sendable, Hashable {
    package var user: String?
    /// A host name, an IPv4 address or an IPv6 address (without brackets).
    package var host: String
    package var port: Int?

    package init(user: String? = nil, host: String, port: Int? = nil) {
        self.user = user
        self.host = host
        self.port = port
    }

    static let example = "ssh://user@box or ssh://user@box:2222"

    static func parse(_ text: String) throws(RecError) -> RemoteHost {
        var rest = Substring(text)
        let isURL = rest.hasPrefix("ssh://")
        if isURL {
            rest = rest.dropFirst("ssh://".count)
        } else if let scheme = rest.firstRange(of: "://") {
            throw .usage("--host \(URLText.withoutSecrets(text)): rec reaches other boxes through ssh only, not \(rest[..<scheme.lowerBound]); "
                + "give \(example), or local for this box")
        }
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        if isURL, rest.contains("/") {
            throw .usage("--host \(URLText.withoutSecrets(text)) has a path; give only \(example)")
        }
        var user: String?
        if let at = rest.lastIndex(of: "@") {
            let info = rest[..<at]
            if info.contains(":") {
                throw .usage("--host \(URLText.withoutSecrets(isURL ? text : "ssh://" + text)): put no password in it; rec logs in "
                    + "with ssh's keys, so set one up (ssh-copy-id user@box) and check that ssh user@box works without a password")
            }
            guard Self.isName(info) else {
                throw .usage("--host \(text): '\(info)' is not a user name; give \(example)")
            }
            user = String(info)
            rest = rest[rest.index(after: at)...]
        }
        var port: Int?
        var host = rest
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { throw .usage("--host \(text): the IPv6 address has no closing ']'") }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw .usage("--host \(text): expected :PORT after the IPv6 address") }
                port = try Self.port(after.dropFirst(), text: text)
            }
            guard !host.isEmpty, host.contains(":"), host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || ":.%".contains($0)) }) else {
                throw .usage("--host \(text): '\(host)' is not an IPv6 address")
            }
        } else if let colon = rest.firstIndex(of: ":") {
            guard isURL else {
                throw .usage("--host \(text): give a port as ssh://\(user.map { $0 + "@" } ?? "")\(rest), or set Port in ~/.ssh/config")
            }
            host = rest[..<colon]
            port = try Self.port(rest[rest.index(after: colon)...], text: text)
        }
        guard !host.isEmpty else { throw .usage("--host \(text) names no box; give \(example), or local for this box") }
        if !rest.hasPrefix("["), !Self.isName(host) {
            throw .usage("--host \(text): '\(host)' is not a host name; use letters, digits, '.', '-' and '_' (\(example))")
        }
        return RemoteHost(user: user, host: String(host), port: port)
    }

    /// Letters, digits, `.`, `-`, `_`, not starting with `-` (which ssh would read as an option).
    private static func isName(_ text: Substring) -> Bool {
        guard let first = text.first, first != "-" else { return false }
        return text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == "_") }
    }

    private static func port(_ text: Substring, text whole: String) throws(RecError) -> Int {
        guard let port = Int(text), (1...65535).contains(port) else {
            throw .usage("--host \(whole): '\(text)' is not a port; give a number from 1 to 65535")
        }
        return port
    }

    /// `user@box`, `user@box:2222`, `[::1]:2222`.
    package var display: String {
        let name = host.contains(":") ? "[\(host)]" : host
        return (user.map { $0 + "@" } ?? "") + name + (port.map { ":\($0)" } ?? "")
    }

    /// `user@box` as ssh takes it (the port goes to `-p`).
    package var destination: String {
        (user.map { $0 + "@" } ?? "") + host
    }
}
