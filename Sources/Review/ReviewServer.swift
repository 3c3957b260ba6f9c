import Foundation
import Live
import RecCore
import SessionControl
import Synchronization

/// The box's review page and its API (docs/REVIEW.md): one address for every camera of the box.
/// It serves the page, lists the running sessions, passes the page's reads (live stream, exact
/// frames, thumbnails, recordings, motion) through to each session's own live server, and runs
/// exports. One owner (`rec review`) starts it and calls `stop()` once.
package final class ReviewServer: Sendable {
    package let access: ReviewAccess
    let cameras: BoxCameras
    let exports: ExportJobs
    /// Each camera's live stream, read once for every grid viewer.
    let feeds: CameraFeeds
    private let http: HTTPServer
    private let router: Router

    /// Listens on `address:port` (0: any free port) with two fresh tokens; exports go into `exportsFolder`.
    package init(address: String, port: Int, runtime: RuntimeDirectory, exportsFolder: String,
                 watchToken: String = LiveAccess.makeToken(), exportToken: String = LiveAccess.makeToken()) throws(RecError) {
        let router = Router()
        self.router = router
        let cameras = BoxCameras(runtime: runtime)
        self.cameras = cameras
        feeds = CameraFeeds { cameras.named($0)?.link }
        exports = ExportJobs(root: exportsFolder, runtime: runtime)
        var limits = HTTPServer.Limits()
        // A viewer of a grid of 16 cameras holds 16 live streams and asks for frames beside them.
        limits.connections = 256
        limits.connectionsPerAddress = 200
        http = try HTTPServer(address: address, port: port, limits: limits) { request in
            guard let server = router.server.withLock({ $0 }) else { return .error(503, "starting; try again in a moment") }
            return server.route(request)
        }
        access = ReviewAccess(watchToken: watchToken, exportToken: exportToken, address: address, port: http.port)
        router.server.withLock { $0 = self }
    }

    package var port: Int { http.port }

    /// The page's address without a token.
    package var pageAddress: String {
        let host = http.address == "0.0.0.0" ? "127.0.0.1" : http.address == "::" ? "[::1]"
            : http.address.contains(":") ? "[\(http.address)]" : http.address
        return "http://\(host):\(http.port)/"
    }

    package var watchURL: String { pageAddress + "?token=" + access.watchToken }
    package var exportURL: String { pageAddress + "?token=" + access.exportToken }

    package func stop() {
        http.stop()
        router.server.withLock { $0 = nil }
    }

    // MARK: - Routes

    func route(_ request: HTTPRequest) -> HTTPResponse {
        let decision = access.decide(LiveAccess.Request(method: request.method, queryToken: request.query["token"], headers: request.headers))
        guard case .allow(let role, let setCookie) = decision else {
            if case .deny(let status, let message) = decision { return .error(status, message) }
            return .error(403, "refused")
        }
        if request.bodyTooLarge { return .error(413, "request bodies are limited to 64 KiB") }
        var response = answer(request, role: role)
        if let setCookie { response.headers.append(("Set-Cookie", ReviewAccess.setCookie(setCookie))) }
        response.headers.append(("Cache-Control", "no-store"))
        return response
    }

    private func answer(_ request: HTTPRequest, role: ReviewAccess.Role) -> HTTPResponse {
        let get = request.method == "GET" || request.method == "HEAD"
        let path = request.path
        if path.hasPrefix("/cam/") {
            return get ? proxy(request) : .error(405, "\(request.method) is not allowed on \(path); the cameras' reads are GETs")
        }
        if path.hasPrefix("/api/exports/") {
            guard get else { return .error(405, "\(request.method) is not allowed on \(path)") }
            guard role == .export else { return .error(403, "this token may watch but not export; open the export URL 'rec review' printed") }
            let rest = String(path.dropFirst("/api/exports/".count))
            if let id = Int(rest) {
                // `?wait=S`: answers once the export has ended, or after S seconds (at most 900).
                let seconds = min(900, max(0, Double(request.query["wait"] ?? "0") ?? 0))
                guard let job = seconds > 0 ? exports.wait(id, seconds: seconds) : exports.job(id) else { return .error(404, "no export \(id)") }
                return .json(Array(ReviewJSON.job(job).utf8))
            }
            return exportFile(rest, download: request.query["download"] != nil)
        }
        switch (path, get) {
        case ("/", true): return page(role)
        case ("/api/box", true): return box(role)
        case ("/api/grid", true): return GridStream.response(cams: request.query["cams"], cameras: cameras, feeds: feeds)
        case ("/api/exports", true):
            guard role == .export else { return .error(403, "this token may watch but not export; open the export URL 'rec review' printed") }
            return .json(Array(ReviewJSON.jobs(exports.list).utf8))
        case ("/api/export", false) where request.method == "POST":
            guard role == .export else { return .error(403, "this token may watch but not export; open the export URL 'rec review' printed") }
            return export(request.body)
        case ("/", false), ("/api/box", false), ("/api/grid", false), ("/api/exports", false), ("/api/export", true):
            return .error(405, "\(request.method) is not allowed on \(path); see docs/REVIEW.md")
        default: return .error(404, "no \(path) here; see docs/REVIEW.md for the API")
        }
    }

    private func page(_ role: ReviewAccess.Role) -> HTTPResponse {
        let token = role == .export ? access.exportToken : access.watchToken
        return HTTPResponse(headers: [("Content-Type", "text/html; charset=utf-8"),
                                      ("Content-Security-Policy", "default-src 'self'; img-src 'self' blob: data:; media-src 'self' blob:; "
                                       + "style-src 'unsafe-inline'; script-src 'unsafe-inline'; frame-ancestors 'none'"),
                                      ("X-Frame-Options", "DENY"), ("Referrer-Policy", "no-referrer"), ("X-Content-Type-Options", "nosniff")],
                            body: .bytes(Array(ReviewPage.html(token: token, role: role.rawValue).utf8)))
    }

    private func box(_ role: ReviewAccess.Role) -> HTTPResponse {
        .json(Array(ReviewJSON.box(cameras.all(), role: role, now: Date().timeIntervalSince1970).utf8))
    }

    /// The reads a session's page makes, passed through unchanged: `/cam/NAME/api/frame.jpg?t=…`
    /// is the session's `/api/frame.jpg?t=…`.
    static let passedThrough: Set<String> = ["/live.mp4", "/api/live", "/api/frame.jpg", "/api/thumb.jpg", "/api/recordings",
                                            "/api/events", "/api/status", "/api/snapshot.jpg", "/api/timeline"]

    private func proxy(_ request: HTTPRequest) -> HTTPResponse {
        let rest = request.path.dropFirst("/cam/".count)
        guard let slash = rest.firstIndex(of: "/") else { return .error(404, "give a camera and a path, e.g. /cam/front/api/live") }
        let name = String(rest[..<slash]), target = String(rest[slash...])
        guard Self.passedThrough.contains(target) else { return .error(404, "no \(target) for a camera; see docs/REVIEW.md") }
        guard let camera = cameras.named(name) else { return .error(404, "no session '\(name)' is running on this box") }
        guard let link = camera.link else {
            return .error(409, "session '\(name)' serves no live page; start it with 'rec start --http 0' to see it here")
        }
        let query = request.query.filter { $0.key != "token" }.sorted { $0.key < $1.key }
            .map { "\(Self.escape($0.key))=\(Self.escape($0.value))" }.joined(separator: "&")
        let live = target == "/live.mp4"
        do {
            let upstream = try link.open(target + (query.isEmpty ? "" : "?" + query), timeout: live ? nil : 30)
            let kept = upstream.headers.filter { ["content-type", "content-disposition"].contains($0.0.lowercased())
                || $0.0.lowercased().hasPrefix("x-rec-") }
            return HTTPResponse(status: upstream.status, headers: kept, body: .stream(upstream))
        } catch {
            return .error(502, "session '\(name)': \(error.message)")
        }
    }

    private func export(_ body: [UInt8]) -> HTTPResponse {
        let request: ExportRequest
        do {
            request = try JSONDecoder().decode(ExportRequest.self, from: Data(body))
        } catch {
            return .error(400, "the body must be {\"from\": unix seconds, \"to\": unix seconds, \"cameras\": [names]}")
        }
        do throws(RecError) {
            for name in request.cameras where cameras.named(name) == nil {
                throw RecError.usage("no session '\(name)' is running on this box")
            }
            let job = try exports.start(request)
            return .json(Array(ReviewJSON.job(job).utf8), status: 202)
        } catch {
            return .error(error.code == .usage ? 400 : 500, error.message)
        }
    }

    /// `/api/exports/ID/FILE`: a clip or the manifest of an export this server made.
    private func exportFile(_ rest: String, download: Bool) -> HTTPResponse {
        let parts = rest.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let id = Int(parts[0]), let job = exports.job(id) else { return .error(404, "no such export") }
        let file = String(parts[1])
        let names = (job.manifest?.cameras.compactMap(\.file) ?? []) + ["manifest.json"]
        guard names.contains(file), FileManager.default.fileExists(atPath: job.folder + "/" + file) else {
            return .error(404, "export \(id) has no \(file) (yet)")
        }
        let type = file.hasSuffix(".json") ? "application/json" : file.hasSuffix(".mkv") ? "video/x-matroska" : "video/mp4"
        var headers = [("Content-Type", type)]
        if download { headers.append(("Content-Disposition", "attachment; filename=\"\(file)\"")) }
        return HTTPResponse(headers: headers, body: .file(path: job.folder + "/" + file, unlinkFirst: false))
    }

    static func escape(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? ""
    }
}

/// Lets the HTTP handler reach the server that owns it without a retain cycle at init time.
final class Router: Sendable {
    let server = Mutex<ReviewServer?>(nil)
}
