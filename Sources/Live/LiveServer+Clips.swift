import Foundation
import RecCore

extension LiveServer {
    /// An exact clip of `[from, to)` from the ring, cut by the session's own save, sent as MP4
    /// and deleted as soon as it is open.
    func clip(_ request: HTTPRequest) -> HTTPResponse {
        guard let from = request.query["from"].flatMap(Double.init), let to = request.query["to"].flatMap(Double.init),
              from.isFinite, to.isFinite, from >= 0, to > from else {
            return .error(400, "give from and to in seconds, from before to, e.g. /api/clip.mp4?from=10&to=12.5")
        }
        let path = backend.liveScratchFolder + "/clip-\(LiveAccess.makeToken().prefix(16)).mp4"
        do {
            // Played and deleted: not one of the session's saves, and not uploaded.
            let report = try backend.liveSave(SaveRequest(from: .seconds(from), to: .seconds(to), output: path, force: true, noUpload: true), by: nil)
            var headers = [("Content-Type", "video/mp4"), ("X-Rec-Frames", String(report.frames ?? 0))]
            if request.query["download"] != nil {
                headers.append(("Content-Disposition", "attachment; filename=\"rec-\(Self.name(from))-\(Self.name(to)).mp4\""))
            }
            return HTTPResponse(headers: headers, body: .file(path: path, unlinkFirst: true))
        } catch {
            unlink(path)
            return .error(error.code == .usage ? 400 : 409, error.message)
        }
    }

    /// `POST /api/save`: the control protocol's `save` fields as JSON; `output` may be left out.
    func save(_ body: [UInt8]) -> HTTPResponse {
        guard var fields = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] else {
            return .error(400, #"the body must be a JSON object such as {"from":10,"to":12.5}"#)
        }
        fields["token"] = nil
        if fields["output"] == nil {
            let from = (fields["from"] as? Double).map(Self.name) ?? "start"
            let to = (fields["to"] as? Double).map(Self.name) ?? "now"
            fields["output"] = backend.liveSaveFolder + "/rec-clip-\(from)-\(to)-\(LiveAccess.makeToken().prefix(6)).mp4"
        }
        do {
            let data = try JSONSerialization.data(withJSONObject: fields)
            let request = try JSONDecoder().decode(SaveRequest.self, from: data)
            let report = try backend.liveSave(request, by: "page")
            return .json(ControlCodec.encode(ControlResponse(id: nil, reply: .ok(.save(report)))))
        } catch let error as RecError {
            return .error(error.code == .usage ? 400 : 409, error.message)
        } catch {
            return .error(400, "the save fields are not valid: \(error)")
        }
    }

    /// `GET /api/events?from=…&to=…` (or `last=`), `&levels=1` for the level every 200 ms: what
    /// `rec events --json` prints for the session. Numbers are session seconds; text is rec's
    /// time syntax.
    func events(_ query: [String: String]) -> HTTPResponse {
        func time(_ key: String) -> ControlTime? {
            query[key].map { text in Double(text).map(ControlTime.seconds) ?? .text(text) }
        }
        let request = EventsRequest(from: time("from"), to: time("to"), last: time("last"), levels: query["levels"] == "1")
        if let problem = request.selection.problem() { return .error(400, problem) }
        do {
            let report = try backend.liveEvents(request)
            return .json(Array(SessionTopics.json(report).utf8))
        } catch {
            return .error(error.code == .usage ? 400 : 409, error.message)
        }
    }

    static func name(_ t: Double) -> String { String(format: "%.3f", t) }
}
