import Foundation
import RecCore
import SessionControl
import Synchronization

/// The cameras of this box: every running session of this user's runtime folder that the review
/// server may show. Looking a session up asks its control socket whether it runs (a thread in
/// the session) and reads three files, so the table is read at most every 2 s and shared by every
/// request (bench/review.sh: 34 lookups a second cost 2.7 % of a core when each looked afresh); a
/// session started since is found at the next reading, and a name not in the table is looked up
/// on its own. A session shows pictures on the page only when it serves its live page (`--http`).
final class BoxCameras: Sendable {
    let runtime: RuntimeDirectory
    /// How old the table may be.
    static let freshness = 2.0
    private let table = Mutex<(read: Double, cameras: [Camera])>((-.infinity, []))

    struct Camera: Sendable {
        let name: String
        let source: String?
        /// Its own live server, or nil when it was started without `--http`.
        let link: SessionLink?
    }

    init(runtime: RuntimeDirectory) {
        self.runtime = runtime
    }

    func all(now: Double = Date().timeIntervalSince1970) -> [Camera] {
        if let fresh = table.withLock({ now - $0.read < Self.freshness ? $0.cameras : nil }) { return fresh }
        let cameras = runtime.list().filter(\.isRunning).map { camera(in: $0.folder, info: $0.info) }
        table.withLock { $0 = (now, cameras) }
        return cameras
    }

    /// The running session `name`, or nil.
    func named(_ name: String) -> Camera? {
        if let known = all().first(where: { $0.name == name }) { return known }
        guard SessionName.isValid(name), let presence = try? runtime.inspect(name), case .running(_, let info) = presence,
              let folder = try? runtime.folder(named: name) else { return nil }
        return camera(in: folder, info: info)
    }

    private func camera(in folder: SessionFolder, info: SessionInfo?) -> Camera {
        func read(_ path: String) -> String? {
            FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) }
        }
        let link = read(folder.httpAddressPath).flatMap { address in read(folder.httpTokenPath).flatMap { SessionLink(address: address, token: $0) } }
        return Camera(name: folder.name, source: info.map { URLText.withoutSecrets($0.source) }, link: link)
    }
}
