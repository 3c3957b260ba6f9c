import Foundation
import RecClient
import RecCore
import Session
import SessionControl

/// `--upload` and `--upload-limit`, shared by `rec record` and `rec start` (docs/OFFSITE.md).
struct UploadOptions: Sendable, Equatable {
    static let arguments: [ArgumentSpec] = [.upload, .uploadLimit]

    var upload: String?
    var limit: String?

    init(_ values: ParsedValues) throws(RecError) {
        upload = try values.value(.upload)
        limit = try values.value(.uploadLimit)
    }

    /// The destination, a local folder made absolute; nil without `--upload`.
    func destination() throws(RecError) -> UploadDestination? {
        guard let upload else {
            if limit != nil { throw .usage("--upload-limit caps the copies --upload makes; give --upload too, e.g. --upload backup:cams") }
            return nil
        }
        if let limit { try UploadDestination.checkLimit(limit) }
        let local = UploadDestination.isLocal(upload) && !upload.hasPrefix("/")
        return try UploadDestination(local ? OutputFile.absolute(upload) : upload)
    }

    /// Checks rclone and the destination (a warning through `log` if it cannot be reached), then
    /// opens the queue kept for `output` (or, without a file, for `session`): what a previous run
    /// left in it is copied first.
    func uploader(output: String?, session: String, notify: Bool, log: @escaping @Sendable (String) -> Void) throws(RecError) -> Uploader? {
        guard let dest = try destination() else { return nil }
        if let warning = try Uploader.check(dest) { log(warning) }
        let journal = Uploader.journalPath(recording: output, session: session, environment: ProcessInfo.processInfo.environment)
        return try Uploader(destination: dest, journal: journal, bandwidthLimit: limit, notifiesDesktop: notify, notice: log)
    }

    /// The options again, for a detached session's own command line (a destination holding a
    /// secret goes through the environment instead: `hiddenVariable`).
    var arguments: [String] {
        var out: [String] = []
        if let upload, !hidesSecret { out += [ArgumentSpec.upload.displayName, (try? destination())?.text ?? upload] }
        if let limit { out += [ArgumentSpec.uploadLimit.displayName, limit] }
        return out
    }

    /// Whether the destination holds a password or key, which must not show in `ps`.
    var hidesSecret: Bool { upload.map { UploadDestination.redacting($0) != $0 } ?? false }

    static let hiddenVariable = "REC_SESSION_UPLOAD"
}
