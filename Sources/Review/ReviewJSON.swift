import Foundation
import RecCore

/// The review API's answers as JSON (docs/REVIEW.md): snake_case keys, times in Unix seconds.
enum ReviewJSON {
    struct Box: Encodable {
        struct Camera: Encodable {
            let name: String
            let source: String?
            /// Whether its pictures can be shown (it serves its live page).
            let live: Bool
            let note: String?
        }
        let now: Double
        let role: String
        let cameras: [Camera]
    }

    struct JobView: Encodable {
        let id: Int
        let folder: String
        let state: String
        let from: Double
        let to: Double
        let cameras: [String]
        let error: String?
        let manifest: ExportManifest?
    }

    static func box(_ cameras: [BoxCameras.Camera], role: ReviewAccess.Role, now: Double) -> String {
        encode(Box(now: now, role: role.rawValue, cameras: cameras.map {
            Box.Camera(name: $0.name, source: $0.source, live: $0.link != nil,
                       note: $0.link == nil ? "serves no live page; start it with --http 0 to see it here" : nil)
        }))
    }

    static func job(_ job: ExportJobs.Job) -> String { encode(["export": view(job)]) }

    static func jobs(_ jobs: [ExportJobs.Job]) -> String { encode(["exports": jobs.reversed().map(view)]) }

    private static func view(_ job: ExportJobs.Job) -> JobView {
        JobView(id: job.id, folder: job.folder, state: job.state.rawValue, from: job.request.from, to: job.request.to,
                cameras: job.request.cameras, error: job.error, manifest: job.manifest)
    }

    private static func encode<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.sortedKeys]
        return (try? String(decoding: encoder.encode(value), as: UTF8.self)) ?? "{}"
    }
}
