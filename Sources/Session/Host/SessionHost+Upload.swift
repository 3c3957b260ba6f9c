import Foundation
import RecCore

extension SessionHost {
    /// How long a stopping session goes on copying what is still queued before it exits; the
    /// rest waits in the journal for the next session with the same queue.
    package static let uploadDrainSeconds = 30.0

    /// The destinations a clip saved by `request` goes to: the session's `--upload`, and the
    /// save's own; a save's own is checked first (a remote rclone does not know is a usage error).
    /// None with `no_upload` (a save from another box, whose clip is sent back to it).
    func clipDestinations(_ request: SaveRequest) throws(RecError) -> [UploadDestination] {
        if request.noUpload { return [] }
        var out: [UploadDestination] = []
        if let own = uploads.withLock({ $0 })?.destination { out.append(own) }
        if let text = request.upload {
            let dest = try UploadDestination(text)
            if !out.contains(dest) {
                // A save does not wait on the link: the clip is queued whether or not it is up.
                _ = try Uploader.check(dest, reach: false)
                out.append(dest)
            }
        }
        return out
    }

    /// Queues a saved clip for each destination, making the session's queue if it has none.
    func queueClip(_ path: String, to destinations: [UploadDestination]) throws(RecError) {
        guard !destinations.isEmpty else { return }
        let uploader = try uploads.withLock { current throws(RecError) -> Uploader in
            if let current { return current }
            let journal = configuration.uploadJournal
                ?? Uploader.journalPath(recording: nil, session: configuration.name, environment: ProcessInfo.processInfo.environment)
            let log = self.log
            let made = try Uploader(destination: nil, journal: journal, bandwidthLimit: configuration.uploadLimit,
                                    notifiesDesktop: configuration.notifiesDesktop) { log?.write($0) }
            current = made
            return made
        }
        for dest in destinations { uploader.add(path, to: dest) }
    }

    /// Ends the upload queue's worker once the recording is finished: it copies for up to
    /// `uploadDrainSeconds` more, then what is left stays queued on disk.
    package func finishUploads() {
        guard let uploader = uploads.withLock({ $0 }) else { return }
        let waiting = uploader.status["upload_waiting"] ?? "0"
        if waiting != "0" { log?.write("stopping: \(waiting) files still to copy; copying for up to \(Int(Self.uploadDrainSeconds)) s") }
        uploader.finish(drainSeconds: Self.uploadDrainSeconds)
        let left = uploader.status["upload_waiting"] ?? "0"
        if left != "0" { log?.write("\(left) files not copied yet; the next session with this queue (\(uploader.journalPath)) copies them") }
    }
}
