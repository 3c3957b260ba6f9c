import Testing
@testable import RecCore

/// The review page's two roles (docs/REVIEW.md): decided without a server.
@Suite struct ReviewAccessTests {
    let access = ReviewAccess(watchToken: String(repeating: "a", count: 64), exportToken: String(repeating: "b", count: 64),
                              address: "127.0.0.1", port: 8090)
    var watch: String { access.watchToken }
    var export: String { access.exportToken }

    func decide(_ headers: [String: String], method: String = "GET", query: String? = nil) -> ReviewAccess.Decision {
        access.decide(LiveAccess.Request(method: method, queryToken: query, headers: ["host": "127.0.0.1:8090"].merging(headers) { _, b in b }))
    }

    @Test func eachTokenGivesItsRole() {
        #expect(decide([:], query: watch) == .allow(.watch, setCookie: watch))
        #expect(decide([:], query: export) == .allow(.export, setCookie: export))
        #expect(decide(["cookie": "rec_review=\(watch)"]) == .allow(.watch, setCookie: nil))
        #expect(decide(["x-rec-token": export]) == .allow(.export, setCookie: nil))
        #expect(decide(["authorization": "Bearer \(watch)"]) == .allow(.watch, setCookie: nil))
    }

    @Test func theURLsTokenWinsOverAnOlderCookie() {
        // A browser that once opened the export link, now opening the watch link, watches.
        #expect(decide(["cookie": "rec_review=\(export)"], query: watch) == .allow(.watch, setCookie: watch))
        // The same token as the cookie: no new cookie.
        #expect(decide(["cookie": "rec_review=\(export)"], query: export) == .allow(.export, setCookie: nil))
        // A session page's cookie on the same host is not the review page's.
        guard case .deny(401, _) = decide(["cookie": "rec_token=\(export)"]) else { Issue.record("rec_token let in"); return }
    }

    @Test func forgedAndForeignRequestsAreRefused() {
        guard case .deny(401, _) = decide([:]) else { Issue.record("no token let in"); return }
        guard case .deny(401, _) = decide([:], query: String(repeating: "c", count: 64)) else { Issue.record("a wrong token let in"); return }
        // A POST needs the token in a header: a cookie is what a forged request carries.
        guard case .deny(403, _) = decide(["cookie": "rec_review=\(export)"], method: "POST") else { Issue.record("cookie POST let in"); return }
        guard case .deny(403, _) = decide([:], method: "POST", query: export) else { Issue.record("query POST let in"); return }
        #expect(decide(["x-rec-token": watch], method: "POST") == .allow(.watch, setCookie: nil))
        guard case .deny(403, _) = decide(["x-rec-token": export, "origin": "http://evil.example"]) else { Issue.record("origin let in"); return }
        guard case .deny(403, _) = decide(["x-rec-token": export, "sec-fetch-site": "cross-site"]) else { Issue.record("cross-site let in"); return }
        guard case .deny(421, _) = decide(["x-rec-token": export, "host": "evil.example:8090"]) else { Issue.record("rebound host let in"); return }
        #expect(decide(["x-rec-token": export, "origin": "http://localhost:8090"]) == .allow(.export, setCookie: nil))
    }
}

@Suite struct ExportRequestTests {
    let now = 1_800_000_000.0

    func refusal(_ r: ExportRequest) -> String? {
        do { try r.validate(now: now); return nil } catch { return error.message }
    }

    @Test func aRangeIsCheckedBeforeAnythingIsSaved() {
        #expect(refusal(ExportRequest(from: now - 10, to: now + 5, cameras: ["a", "b"])) == nil)
        #expect(refusal(ExportRequest(from: now, to: now - 1, cameras: ["a"]))?.contains("after the in handle") == true)
        #expect(refusal(ExportRequest(from: now - 4000, to: now, cameras: ["a"]))?.contains("at most 3600 s") == true)
        #expect(refusal(ExportRequest(from: now, to: now + 700, cameras: ["a"]))?.contains("in the future") == true)
        #expect(refusal(ExportRequest(from: now - 1, to: now, cameras: []))?.contains("at least one camera") == true)
        #expect(refusal(ExportRequest(from: now - 1, to: now, cameras: ["a", "a"]))?.contains("twice") == true)
        #expect(refusal(ExportRequest(from: now - 1, to: now, cameras: ["../x"]))?.contains("not a session name") == true)
        #expect(refusal(ExportRequest(from: .nan, to: now, cameras: ["a"])) != nil)
    }

    @Test func theBundleIsNamedByItsStartAndLength() {
        let r = ExportRequest(from: 10, to: 22.5, cameras: ["a"])
        #expect(r.folderName(utcStart: "2026-12-06T02:15:30.250Z") == "2026-12-06T02.15.30.250Z+12.500s")
        #expect(ExportRequest.seconds(0.0405) == "0.041")
    }
}
