import RecCore
import Testing
import TestPool

@Suite(.blocking) struct LiveAccessTests {
    let access = LiveAccess(token: String(repeating: "ab", count: 32), address: "127.0.0.1", port: 8080)
    var token: String { access.token }

    func request(_ headers: [String: String], method: String = "GET", query: String? = nil) -> LiveAccess.Request {
        LiveAccess.Request(method: method, queryToken: query, headers: headers)
    }

    @Test func tokenInTheURLSetsTheCookie() {
        #expect(access.decide(request(["host": "127.0.0.1:8080"], query: token)) == .allow(setCookie: true))
        #expect(access.setCookie.contains("HttpOnly") && access.setCookie.contains("SameSite=Strict") && access.setCookie.contains("Path=/"))
    }

    @Test func theCookieIsEnoughForReading() {
        #expect(access.decide(request(["host": "localhost:8080", "cookie": "a=b; rec_token=\(token)"])) == .allow(setCookie: false))
    }

    @Test(arguments: [nil, "wrong", String(repeating: "ab", count: 31) + "ac"])
    func noOrAWrongTokenIsRefused(_ query: String?) {
        #expect(access.decide(request(["host": "127.0.0.1:8080"], query: query)) != .allow(setCookie: true))
        #expect(access.decide(request(["host": "127.0.0.1:8080"], query: query)) != .allow(setCookie: false))
    }

    @Test(arguments: ["evil.example:8080", "127.0.0.1:8081", "127.0.0.1", "rebind.attacker.test:8080"])
    func anotherHostIsRefused(_ host: String) {
        guard case .deny(let status, _) = access.decide(request(["host": host], query: token)) else {
            Issue.record("\(host) got in")
            return
        }
        #expect(status == 421)
    }

    @Test func missingHostIsRefused() {
        #expect(access.decide(request([:], query: token)) != .allow(setCookie: true))
    }

    @Test func crossOriginIsRefused() {
        let h = ["host": "127.0.0.1:8080", "origin": "http://evil.example", "x-rec-token": token]
        #expect(access.decide(request(h, method: "POST")) == .deny(status: 403, message: "cross-origin requests are refused; use the page this server serves"))
        let site = ["host": "127.0.0.1:8080", "sec-fetch-site": "cross-site", "cookie": "rec_token=\(token)"]
        guard case .deny(403, _) = access.decide(request(site)) else { Issue.record("cross-site got in"); return }
    }

    @Test func aPostNeedsTheTokenInAHeaderNotOnlyTheCookie() {
        let cookie = ["host": "127.0.0.1:8080", "origin": "http://127.0.0.1:8080", "cookie": "rec_token=\(token)"]
        guard case .deny(403, _) = access.decide(request(cookie, method: "POST")) else { Issue.record("cookie-only POST got in"); return }
        guard case .deny(403, _) = access.decide(request(cookie, method: "POST", query: token)) else { Issue.record("query POST got in"); return }
        var header = cookie
        header["x-rec-token"] = token
        #expect(access.decide(request(header, method: "POST")) == .allow(setCookie: false))
        #expect(access.decide(request(["host": "[::1]:8080", "authorization": "Bearer \(token)"], method: "POST")) == .allow(setCookie: false))
    }

    @Test func tokensAreLongAndDifferent() {
        let a = LiveAccess.makeToken(), b = LiveAccess.makeToken()
        #expect(a.count == 64 && a != b)
        #expect(a.allSatisfy { $0.isHexDigit })
    }

    @Test func anAddressGivenIsTheOnlyNameBesidesLoopbackForms() {
        let lan = LiveAccess(token: token, address: "192.168.1.5", port: 80)
        #expect(lan.hosts == ["192.168.1.5:80"])
        let any = LiveAccess(token: token, address: "0.0.0.0", port: 80)
        #expect(any.hosts.contains("localhost:80") && !any.hosts.contains("evil:80"))
    }
}
