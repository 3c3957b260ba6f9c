/// Who may use the box's review page (docs/REVIEW.md): the pure policy its server asks about
/// every request. The same rules as a session's live page (`LiveAccess`: `Host`, `Origin`,
/// `Sec-Fetch-Site`, token in the URL once then a cookie, POSTs only with the token in a header),
/// with two tokens: one that may watch, one that may also export.
package struct ReviewAccess: Sendable {
    package enum Role: String, Sendable, Equatable {
        case watch, export
    }

    package enum Decision: Sendable, Equatable {
        /// Serve it with `role`'s rights; `setCookie` names the token to keep when it came in the URL.
        case allow(Role, setCookie: String?)
        case deny(status: Int, message: String)
    }

    package let watchToken: String
    package let exportToken: String
    /// The host and origin rules, shared with the session's page.
    private let origin: LiveAccess

    /// The review page's own cookie: a session's page on another port of the same host keeps
    /// `rec_token`, and cookies do not tell ports apart.
    package static let cookieName = "rec_review"

    package init(watchToken: String, exportToken: String, address: String, port: Int) {
        self.watchToken = watchToken
        self.exportToken = exportToken
        origin = LiveAccess(token: exportToken, address: address, port: port)
    }

    package func decide(_ request: LiveAccess.Request) -> Decision {
        // Host and origin first, exactly as the session's page decides them (its token rule is
        // answered below, with two tokens).
        var bare = request
        bare.queryToken = nil
        bare.headers[LiveAccess.headerName] = origin.token
        bare.headers["authorization"] = nil
        if case .deny(let status, let message) = origin.decide(bare) { return .deny(status: status, message: message) }

        let header = request.headers[LiveAccess.headerName] ?? request.headers["authorization"].flatMap { value in
            value.hasPrefix("Bearer ") ? String(value.dropFirst(7)) : nil
        }
        let cookie = request.headers["cookie"].flatMap { LiveAccess.cookie(Self.cookieName, in: $0) }
        if request.method != "GET" && request.method != "HEAD" {
            guard let role = header.flatMap(role) else {
                return .deny(status: 403, message: "a \(request.method) needs a review token in an X-Rec-Token header; the page sends it")
            }
            return .allow(role, setCookie: nil)
        }
        // The URL's token wins over a cookie an earlier visit left: opening the watch link in a
        // browser that once had the export link gives the watch role.
        if let q = request.queryToken, let role = role(of: q) {
            return .allow(role, setCookie: cookie.map { LiveAccess.same($0, q) } == true ? nil : q)
        }
        if let role = header.flatMap(role) { return .allow(role, setCookie: nil) }
        if let role = cookie.flatMap(role) { return .allow(role, setCookie: nil) }
        return .deny(status: 401, message: "the review page needs a token; open one of the URLs 'rec review' printed")
    }

    private func role(of token: String) -> Role? {
        if LiveAccess.same(token, exportToken) { return .export }
        if LiveAccess.same(token, watchToken) { return .watch }
        return nil
    }

    /// The `Set-Cookie` value that keeps `token` for the page's own requests.
    package static func setCookie(_ token: String) -> String {
        "\(cookieName)=\(token); HttpOnly; SameSite=Strict; Path=/"
    }
}
