import Foundation
import RecCore

extension LiveServer {
    /// `GET /api/frame.jpg?t=T[&width=W]`: the exact picture shown at session time `T`, with its
    /// own time in `X-Rec-Frame-Time` and where it came from in `X-Rec-Frame-Source`.
    func frame(_ query: [String: String]) -> HTTPResponse {
        guard let text = query["t"], let t = Double(text), t.isFinite else {
            return .error(400, "give t, a time in seconds on the session's timeline, e.g. /api/frame.jpg?t=12.5")
        }
        var width: Int?
        if let w = query["width"] {
            guard let value = Int(w), (16...3840).contains(value) else {
                return .error(400, "width is a number of pixels from 16 to 3840, e.g. /api/frame.jpg?t=12.5&width=320")
            }
            width = value
        }
        do {
            switch try backend.liveFrame(at: t, width: width) {
            case .none(let why): return .error(404, why)
            case .picture(let frame):
                var headers = [("Content-Type", "image/jpeg"), ("X-Rec-Frame-Time", String(format: "%.6f", frame.time))]
                if let source = frame.source { headers.append(("X-Rec-Frame-Source", source)) }
                return HTTPResponse(headers: headers, body: .bytes(frame.jpeg))
            }
        } catch {
            return .error(error.code == .usage ? 400 : 500, error.message)
        }
    }
}
