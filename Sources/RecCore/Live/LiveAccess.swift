/// Who may use a session's live page: the pure policy the HTTP server asks about every request.
///
/// A request gets in only if it (1) names this server in `Host` — the listening address, or for
/// loopback `localhost`/`127.0.0.1`/`[::1]`, with the port — so a DNS-rebound name is refused;
/// (2) comes from no other site (`Origin`, when sent, is this server; `Sec-Fetch-Site`, when sent,
/// is not `cross-site`); (3) carries the token: `?token=` (once; the reply sets a cookie), the
/// `rec_token` cookie, or an `X-Rec-Token` / `Authorization: Bearer` header. A POST changes state
/// and must carry the token in a header: a cookie alone is what a forged request would have.
package struct LiveAccess: Sendable {
    package let token: String
    /// Accepted `Host` values, lowercased, port included.
    package let hosts: Set<String>

    package static let cookieName = "rec_token"
    package static let headerName = "x-rec-token"

    /// `address` is what the server listens on ("127.0.0.1", "::1", "0.0.0.0", "192.168.1.5").
    package init(token: String, address: String, port: Int) {
        self.token = token
        var names = [address.contains(":") ? "[\(address)]" : address]
        if Self.isLoopback(address) || address == "0.0.0.0" || address == "::" {
            names += ["localhost", "127.0.0.1", "[::1]"]
        }
        hosts = Set(names.map { "\($0.lowercased()):\(port)" })
    }

    package static func isLoopback(_ address: String) -> Bool {
        address == "::1" || address == "localhost" || address.hasPrefix("127.")
    }

    /// 256 bits from the system's generator (`getrandom`), as 64 hex digits.
    package static func makeToken() -> String {
        var generator = SystemRandomNumberGenerator()
        var text = ""
        for _ in 0..<4 {
            let word = generator.next() as UInt64
            let hex = String(word, radix: 16)
            text += String(repeating: "0", count: 16 - hex.count) + hex
        }
        return text
    }

    /// The parts of a request the policy looks at; header names lowercased.
    package struct Request: Sendable {
        package var method: String
        package var queryToken: String?
        package var headers: [String: String]

        package init(method: String, queryToken: String?, headers: [String: String]) {
            self.method = method
            self.queryToken = queryToken
            self.headers = headers
        }
    }

    package enum Decision: Sendable, Equatable {
        /// Serve it; `setCookie` when the token came in the URL.
        case allow(setCookie: Bool)
        case deny(status: Int, message: String)
    }

    package func decide(_ request: Request) -> Decision {
        guard let host = request.headers["host"]?.lowercased(), hosts.contains(host) else {
            return .deny(status: 421, message: "this server answers only to \(hosts.sorted().joined(separator: ", ")); open the URL 'rec view' prints")
        }
        if let origin = request.headers["origin"]?.lowercased(), !hosts.contains(where: { origin == "http://" + $0 }) {
            return .deny(status: 403, message: "cross-origin requests are refused; use the page this server serves")
        }
        if request.headers["sec-fetch-site"]?.lowercased() == "cross-site" {
            return .deny(status: 403, message: "cross-site requests are refused; use the page this server serves")
        }
        let header = request.headers[Self.headerName] ?? request.headers["authorization"].flatMap { value in
            value.hasPrefix("Bearer ") ? String(value.dropFirst(7)) : nil
        }
        let cookie = request.headers["cookie"].flatMap { Self.cookie(Self.cookieName, in: $0) }
        if request.method != "GET" && request.method != "HEAD" {
            guard let header, Self.same(header, token) else {
                return .deny(status: 403, message: "a \(request.method) needs the token in an X-Rec-Token header; 'rec view' prints it")
            }
            return .allow(setCookie: false)
        }
        if let q = request.queryToken, Self.same(q, token) { return .allow(setCookie: cookie.map { !Self.same($0, token) } ?? true) }
        if let header, Self.same(header, token) { return .allow(setCookie: false) }
        if let cookie, Self.same(cookie, token) { return .allow(setCookie: false) }
        return .deny(status: 401, message: "this page needs the session's token; open the URL 'rec view' prints")
    }

    /// The `Set-Cookie` value that keeps the token for the page's own requests.
    package var setCookie: String {
        "\(Self.cookieName)=\(token); HttpOnly; SameSite=Strict; Path=/"
    }

    /// The value of cookie `name` in a `Cookie` header.
    package static func cookie(_ name: String, in header: String) -> String? {
        for part in header.split(separator: ";") {
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingSpaces }
            if pair.count == 2, pair[0] == name { return pair[1] }
        }
        return nil
    }

    /// Compares in time that does not depend on where the strings differ.
    package static func same(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var diff: UInt8 = 0
        for i in 0..<x.count { diff |= x[i] ^ y[i] }
        return diff == 0
    }
}

extension Substring {
    var trimmingSpaces: String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}
