import Foundation

/// One export from the review page (`POST /api/export`, docs/REVIEW.md): the same wall-clock
/// range `[from, to)` from each chosen camera, as one bundle. Pure: checked here, run by the
/// review server.
package struct ExportRequest: Sendable, Equatable, Codable {
    /// Unix seconds; the handles' instants, already on a frame of the page's reference camera.
    package var from: Double
    package var to: Double
    /// Session names, in the order the bundle lists them.
    package var cameras: [String]

    /// The longest range one export takes: a session's ring is what it saves from, and an
    /// hour is more than any ring the docs suggest.
    package static let longest = 3600.0
    /// How far ahead of now an export may end: it waits for its end, as `rec save --to +20s`.
    package static let furthestAhead = 600.0

    package init(from: Double, to: Double, cameras: [String]) {
        self.from = from
        self.to = to
        self.cameras = cameras
    }

    /// Throws a usage error naming what to change; `now` is Unix seconds.
    package func validate(now: Double) throws(RecError) {
        guard from.isFinite, to.isFinite, from > 0, to > 0 else {
            throw .usage("from and to must be Unix times in seconds, e.g. {\"from\": 1764424985.25, \"to\": 1764424995.25}")
        }
        guard to > from else { throw .usage("the out handle must be after the in handle") }
        guard to - from <= Self.longest else {
            throw .usage("an export is at most \(Int(Self.longest)) s long; move the handles closer together")
        }
        guard to <= now + Self.furthestAhead else {
            throw .usage("the out handle is more than \(Int(Self.furthestAhead)) s in the future; move it back")
        }
        guard !cameras.isEmpty else { throw .usage("choose at least one camera to export") }
        guard Set(cameras).count == cameras.count else { throw .usage("a camera is chosen twice") }
        for name in cameras where !SessionName.isValid(name) { throw .usage("'\(name)' is not a session name") }
    }

    /// The bundle's folder name: the range's start in UTC and its length, e.g.
    /// `2026-12-06T02.15.30.250Z+10.000s`, with no character a file system or archive minds.
    package func folderName(utcStart: String) -> String {
        utcStart.replacingOccurrences(of: ":", with: ".") + "+" + Self.seconds(to - from) + "s"
    }

    /// Seconds with three decimals, for names and messages.
    package static func seconds(_ value: Double) -> String {
        let ms = Int64((value * 1000).rounded())
        let frac = String(ms % 1000)
        return "\(ms / 1000)." + String(repeating: "0", count: 3 - frac.count) + frac
    }
}

/// What `manifest.json` in a bundle says: the range, and per camera its clip, its frames and the
/// range it holds on the session's own timeline and on the wall clock.
package struct ExportManifest: Sendable, Equatable, Codable {
    package struct Camera: Sendable, Equatable, Codable {
        package var name: String
        /// The clip's file name inside the bundle, or nil when this camera failed.
        package var file: String?
        package var frames: Int?
        /// The first and the end of the clip's frames, Unix seconds (the session's wall-clock
        /// start plus the times on its timeline).
        package var savedFrom: Double?
        package var savedTo: Double?
        /// The same on the session's timeline (0 = its first frame), as `rec save` reports them.
        package var sessionFrom: Double?
        package var sessionTo: Double?
        package var error: String?

        package init(name: String, file: String? = nil, frames: Int? = nil, savedFrom: Double? = nil, savedTo: Double? = nil,
                     sessionFrom: Double? = nil, sessionTo: Double? = nil, error: String? = nil) {
            self.name = name
            self.file = file
            self.frames = frames
            self.savedFrom = savedFrom
            self.savedTo = savedTo
            self.sessionFrom = sessionFrom
            self.sessionTo = sessionTo
            self.error = error
        }
    }

    package var from: Double
    package var to: Double
    /// The range as text (UTC, ISO 8601), for a person reading the file.
    package var fromText: String
    package var toText: String
    package var cameras: [Camera]

    package init(from: Double, to: Double, fromText: String, toText: String, cameras: [Camera]) {
        self.from = from
        self.to = to
        self.fromText = fromText
        self.toText = toText
        self.cameras = cameras
    }

    package var failed: [String] { cameras.filter { $0.error != nil }.map(\.name) }
}
