import Foundation
import RecCore
import SessionControl

/// The cameras of this box: every running session of this user's runtime folder, found afresh on
/// each call (a session started after the review server shows up on the page's next refresh).
/// A session shows pictures on the page only when it serves its live page (`--http`).
struct BoxCameras: Sendable {
    let runtime: RuntimeDirectory

    struct Camera: Sendable {
        let name: String
        let source: String?
        /// Its own live server, or nil when it was started without `--http`.
        let link: SessionLink?
    }

    func all() -> [Camera] {
        runtime.list().filter(\.isRunning).map { camera(in: $0.folder, info: $0.info) }
    }

    /// The running session `name`, or nil.
    func named(_ name: String) -> Camera? {
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
