import Foundation
import Media
import RecCore
import Synchronization

/// A session's live page and JSON API (docs/LIVE.md): the HTTP server, the live fan-out and the
/// timeline thumbnails. One owner (the session host) starts it and calls `stop()` once.
package final class LiveServer: Sendable {
    package let access: LiveAccess
    package let broadcast: LiveBroadcast
    let backend: any LiveBackend
    private let router: RouterBox
    private let thumbnails = ThumbnailCache()
    private let http: HTTPServer

    /// Listens on `address:port` (port 0: any free one) with a fresh token.
    package init(address: String, port: Int, backend: any LiveBackend, token: String = LiveAccess.makeToken()) throws(RecError) {
        self.backend = backend
        let broadcast = LiveBroadcast(parameters: { [backend] in backend.liveCodecParameters }, sound: { [backend] in backend.liveSound })
        self.broadcast = broadcast
        let box = RouterBox()
        router = box
        do {
            http = try HTTPServer(address: address, port: port) { request in box.route(request) }
        } catch {
            broadcast.stop()
            throw error
        }
        access = LiveAccess(token: token, address: address, port: http.port)
        box.server.withLock { $0 = self }
    }

    package var port: Int { http.port }

    /// The page's address without the token, as the session folder keeps it beside the token.
    package var pageAddress: String {
        let host = http.address == "0.0.0.0" ? "127.0.0.1" : http.address == "::" ? "[::1]"
            : http.address.contains(":") ? "[\(http.address)]" : http.address
        return "http://\(host):\(http.port)/"
    }

    /// The page's address with the token, as `rec start` and `rec view` print it.
    package var url: String { "\(pageAddress)?token=\(access.token)" }

    package func stop() {
        broadcast.stop()
        http.stop()
        router.server.withLock { $0 = nil }
    }

    // MARK: - Routes

    func route(_ request: HTTPRequest) -> HTTPResponse {
        let decision = access.decide(LiveAccess.Request(method: request.method, queryToken: request.query["token"],
                                                        headers: request.headers))
        guard case .allow(let setCookie) = decision else {
            if case .deny(let status, let message) = decision { return .error(status, message) }
            return .error(403, "refused")
        }
        if request.bodyTooLarge { return .error(413, "request bodies are limited to 64 KiB") }
        var response = answer(request)
        if setCookie { response.headers.append(("Set-Cookie", access.setCookie)) }
        return response
    }

    private func answer(_ request: HTTPRequest) -> HTTPResponse {
        let get = request.method == "GET" || request.method == "HEAD"
        switch (request.path, get) {
        case ("/", true): return page()
        case ("/api/status", true): return .json(backend.liveStatusJSON())
        case ("/api/live", true): return liveInfo()
        case ("/live.mp4", true): return live()
        case ("/api/snapshot.jpg", true): return snapshot()
        case ("/api/timeline", true): return timeline()
        case ("/api/thumb.jpg", true): return thumbnail(request.query["t"])
        case ("/api/clip.mp4", true): return clip(request)
        case ("/api/save", false) where request.method == "POST": return save(request.body)
        case ("/api/events", true): return events(request.query)
        case ("/api/frame.jpg", true): return frame(request.query)
        case ("/api/recordings", true): return .json(Array(backend.liveRecordings().json.utf8))
        case ("/", false), ("/api/status", false), ("/api/live", false), ("/live.mp4", false), ("/api/snapshot.jpg", false),
             ("/api/timeline", false), ("/api/thumb.jpg", false), ("/api/clip.mp4", false), ("/api/save", true), ("/api/events", false),
             ("/api/frame.jpg", false), ("/api/recordings", false):
            return .error(405, "\(request.method) is not allowed on \(request.path); see docs/LIVE.md")
        default: return .error(404, "no \(request.path) here; see docs/LIVE.md for the API")
        }
    }

    private func page() -> HTTPResponse {
        HTTPResponse(headers: [("Content-Type", "text/html; charset=utf-8"),
                               ("Content-Security-Policy", "default-src 'self'; img-src 'self' blob: data:; media-src 'self' blob:; "
                                + "style-src 'unsafe-inline'; script-src 'unsafe-inline'; frame-ancestors 'none'"),
                               ("X-Frame-Options", "DENY")],
                     body: .bytes(Array(LivePage.html(token: access.token).utf8)))
    }

    private func liveInfo() -> HTTPResponse {
        guard let p = backend.liveCodecParameters else { return .error(503, "the encoder has not started yet; try again in a moment") }
        let tracks = broadcast.tracks
        if p.isH264, tracks == nil { return .error(503, "the sound encoder has not started yet; try again in a moment") }
        let body = #"{"codec":\#(Preset.quote(p.codecName)),"mime":\#(tracks.map { Preset.quote($0.mimeType) } ?? "null"),"#
            + #""sound":\#(tracks?.sound.map(Preset.quote) ?? "null"),"sound_note":\#(tracks?.soundNote.map(Preset.quote) ?? "null"),"#
            + #""width":\#(p.width),"height":\#(p.height),"viewers":\#(broadcast.viewerCount),"#
            + #""started_at":\#(backend.liveStartedAt.map { String(format: "%.6f", $0) } ?? "null"),"#
            + #""frame_rate":\#(backend.liveFrameRate.map { String(format: "%.6f", $0) } ?? "null")}"#
        return .json(Array(body.utf8))
    }

    /// The live stream; its Content-Type names the tracks it carries, as `/api/live` does.
    private func live() -> HTTPResponse {
        guard let p = backend.liveCodecParameters, p.isH264 else {
            return .error(409, "the live picture needs an H.264 session; start it with an H.264 preset (the default)")
        }
        guard let tracks = broadcast.tracks else { return .error(503, "the sound encoder has not started yet; try again in a moment") }
        guard let viewer = broadcast.addViewer() else {
            return .error(503, "\(LiveBroadcast.maxViewers) viewers are watching already; close one and try again")
        }
        return HTTPResponse(headers: [("Content-Type", tracks.mimeType)], body: .stream(viewer))
    }

    private func snapshot() -> HTTPResponse {
        do {
            return HTTPResponse(headers: [("Content-Type", "image/jpeg")], body: .bytes(try backend.liveSnapshot()))
        } catch {
            return .error(error.code == .usage ? 400 : 503, error.message)
        }
    }

    private func timeline() -> HTTPResponse {
        let keyframes = backend.liveKeyframes().map { String(format: "%.6f", $0.presentationTime.seconds) }
        let status = backend.liveStatusJSON()
        let body = #"{"keyframes":[\#(keyframes.joined(separator: ","))],"status":"# + String(decoding: status, as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines) + "}"
        return .json(Array(body.utf8))
    }

    private func thumbnail(_ t: String?) -> HTTPResponse {
        guard let t, let time = Double(t), time.isFinite else { return .error(400, "give t, a time in seconds, e.g. /api/thumb.jpg?t=12.5") }
        guard let p = backend.liveCodecParameters else { return .error(503, "the encoder has not started yet") }
        let keyframes = backend.liveKeyframes()
        guard let key = keyframes.last(where: { $0.presentationTime.seconds <= time + 0.0005 }) ?? keyframes.first else {
            return .error(404, "the ring holds no keyframe yet")
        }
        do {
            let jpeg = try thumbnails.picture(for: key.presentationTime.rescaled(to: .microseconds).value) {
                try KeyframePicture.jpeg(key, parameters: p, width: 160)
            }
            return HTTPResponse(headers: [("Content-Type", "image/jpeg")], body: .bytes(jpeg))
        } catch {
            return .error(500, "cannot make the thumbnail: \(error)")
        }
    }
}

/// Lets the HTTP handler reach the server that owns it without a retain cycle at init time.
final class RouterBox: Sendable {
    let server = Mutex<LiveServer?>(nil)

    func route(_ request: HTTPRequest) -> HTTPResponse {
        guard let s = server.withLock({ $0 }) else { return .error(503, "starting; try again in a moment") }
        return s.route(request)
    }
}
