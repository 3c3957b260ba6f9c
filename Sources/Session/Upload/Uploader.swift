import Foundation
import Media
import RecCore
import SessionControl
import Synchronization
import SystemIntegration

/// Copies a recording's finished files and saved clips off the box (`--upload`), in the order
/// they were made, on a thread of its own ("rec.upload"): each through rclone to a hidden name,
/// verified (size, and a hash where the destination gives one), then renamed to its final name.
/// The queue (`UploadQueue`) is journalled before each step (`UploadJournalFile`), so it survives
/// `kill -9` and a reboot; a failure is retried after a back-off (`ReconnectBackoff`), forever.
package final class Uploader: RecordingFileObserver {
    /// The session's own destination (`--upload`); a save may name another.
    package let destination: UploadDestination?
    package let journalPath: String
    let rclone: Rclone
    private let state: Mutex<State>
    /// Pulsed when a file is queued and when the worker should stop.
    private let changes = Latch()
    /// Set when a stop will not wait for the copy in flight: rclone is ended at once.
    private let abandonFlag = InterruptFlag()
    private let exited = Latch()
    private let notice: @Sendable (String) -> Void
    private let notifiesDesktop: Bool

    /// The back-off between failed copies: 1 s, doubling, at most a minute; reset by a copy.
    static let backoff = ReconnectBackoff.Policy(first: 1, limit: 60, jitter: 0.25, resetAfter: 0)

    private struct State: ~Copyable {
        var queue: UploadQueue
        var journal: UploadJournalFile
        var stopping = false
        /// When each waiting entry was queued (this run), for the copy lag.
        var queuedAt: [Int: Date] = [:]
        var lastLag: Double?
        var retryAt: Date?
        var forcedDeletions = 0
        var warning: String?
        /// How the copies of the files this run finished went, newest last: `done` or
        /// `failed` (dropped from the queue); bounded.
        var outcomes: [(path: String, outcome: String)] = []

        /// Keeps the newest 1000 outcomes.
        mutating func noteOutcome(_ path: String, _ outcome: String) {
            outcomes.append((path, outcome))
            if outcomes.count > 1000 { outcomes.removeFirst(outcomes.count - 1000) }
        }
    }

    /// Opens the queue at `journal` (resuming what a previous run left) and starts the worker.
    /// - Parameters:
    ///   - notice: a line for the session's log (each copy, each failure, forced deletions).
    ///   - notifiesDesktop: also send a desktop notification when retention had to delete a
    ///     file that was not copied yet.
    package init(destination: UploadDestination?, journal: String, bandwidthLimit: String?, notifiesDesktop: Bool = false,
                notice: @escaping @Sendable (String) -> Void = { _ in }) throws(RecError) {
        self.destination = destination
        self.journalPath = journal
        self.notice = notice
        self.notifiesDesktop = notifiesDesktop
        rclone = Rclone(bandwidthLimit: bandwidthLimit, stop: abandonFlag)
        let file = try UploadJournalFile(path: journal)
        let contents = file.read()
        var queue = UploadQueue.replay(contents.records)
        if contents.unreadable > 0 { notice("upload queue \(journal): \(contents.unreadable) unreadable lines skipped") }
        // Files the last session was writing: queued as they were left, or dropped when gone;
        // each said from the record written for it, so a vanished file is not called queued.
        let resumed = queue.resumeInterrupted(size: Self.size)
        for record in resumed { try file.append(record) }
        let kept = resumed.filter { $0.op == .add }.compactMap { $0.path.map { ($0 as NSString).lastPathComponent } }
        if !kept.isEmpty {
            notice("the last session ended while writing \(kept.joined(separator: ", ")): queued as it was left")
        }
        for record in resumed where record.op == .drop { if let why = record.why { notice("\(why): dropped from the queue") } }
        if !queue.entries.isEmpty {
            notice("upload queue resumed: \(queue.entries.count) files (\(ByteSize.text(Int(queue.waitingBytes)))) still to copy")
        }
        state = Mutex(State(queue: queue, journal: file))
        let thread = Thread { [self] in run() }
        thread.name = "rec.upload"
        thread.start()
    }

    /// Where the queue of a recording's files is kept: beside them, named after `-o`
    /// (`/videos/.cam.mp4.rec-upload` for `-o /videos/cam.mp4`), so a later session recording
    /// into the same place resumes it; for a session without a file, in
    /// `$XDG_STATE_HOME/rec/` (`~/.local/state/rec/upload-SESSION`).
    package static func journalPath(recording output: String?, session: String, environment: [String: String]) -> String {
        if let output {
            let folder = (output as NSString).deletingLastPathComponent
            return folder + "/." + (output as NSString).lastPathComponent + ".rec-upload"
        }
        let state = environment["XDG_STATE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.local/state"
        return state + "/rec/upload-\(session)"
    }

    /// Checks that rclone is installed and knows `destination`'s remote (else an error: a usage
    /// error for a remote rclone has no configuration for), then, with `reach`, that it can be
    /// reached and written. A destination that cannot be reached (a dead link, refused
    /// credentials, no such bucket: rclone's exit status does not tell them apart) does not stop a
    /// recording: the warning returned says why, in rclone's words, and the copies wait.
    package static func check(_ destination: UploadDestination, reach: Bool = true) throws(RecError) -> String? {
        let rclone = Rclone()
        do {
            if let remote = destination.remote, !(try rclone.remotes().contains(remote)) {
                throw RecError.usage("rclone has no remote named '\(remote)' (--upload \(destination.redacted)); "
                                     + "make one with 'rclone config', or point RCLONE_CONFIG at the file that has it")
            }
            if reach { try rclone.makeFolder(destination) }
            return nil
        } catch let failure as Rclone.Failure {
            if failure.notInstalled || failure.status == 126 { throw .runtime(failure.message) }
            return "cannot reach --upload \(destination.redacted): \(destination.scrubbed(failure.message)); "
                + "recording anyway, and the copies wait until it can be reached (check it with 'rclone lsd \(destination.redacted)')"
        } catch let error as RecError {
            throw error
        } catch {
            throw .runtime("cannot check --upload \(destination.redacted): \(error)")
        }
    }

    /// Queues `path` (a finished file) for `destination`, or for the session's own.
    package func add(_ path: String, to destination: UploadDestination? = nil) {
        guard let dest = destination ?? self.destination else { return }
        let bytes = Self.size(path) ?? 0
        let problem: String? = state.withLock { s -> String? in
            guard let record = s.queue.add(path: path, destination: dest.text, bytes: bytes) else { return nil }
            s.queuedAt[record.id] = Date()
            do throws(RecError) { try s.journal.append(record) } catch { return error.message }
            return nil
        }
        if let problem { notice(problem) }
        changes.pulse()
    }

    static func size(_ path: String) -> Int64? {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.int64Value
    }

    // MARK: RecordingFileObserver

    /// Journals a recording file as begun, so a session that dies while writing it leaves it
    /// queued for the next one (`resumeInterrupted`).
    package func fileStarted(_ path: String) {
        guard let dest = destination else { return }
        let problem: String? = state.withLock { s -> String? in
            guard let record = s.queue.opened(path: path, destination: dest.text) else { return nil }
            do throws(RecError) { try s.journal.append(record, sync: false) } catch { return error.message }
            return nil
        }
        if let problem { notice(problem) }
    }

    package func fileFinished(_ path: String, bytes: Int64) { add(path) }

    package var heldFiles: Set<String> { state.withLock { $0.queue.held } }

    package func heldFilesDeleted(_ paths: [String], freeBytes: Int64) {
        let names = paths.map { ($0 as NSString).lastPathComponent }
        let text = "the disk was about to fill (\(ByteSize.text(Int(freeBytes))) free), so --keep/--max-disk deleted "
            + "\(paths.count) file\(paths.count == 1 ? "" : "s") not yet copied off the box: \(names.joined(separator: ", "))"
        state.withLock { s in
            for path in paths {
                for entry in s.queue.waiting(for: path) {
                    try? s.journal.append(s.queue.drop(entry.id, why: "deleted before it was copied: the disk was full"))
                }
            }
            s.forcedDeletions += paths.count
            s.warning = text
        }
        notice(text)
        if notifiesDesktop { try? DesktopNotification.send(summary: "rec deleted recordings not yet copied", body: text) }
        changes.pulse()
    }

    // MARK: Stopping

    /// Ends the copy in flight at once and lets a `finish` waiting for the queue return.
    package func abandon() {
        state.withLock { $0.stopping = true }
        abandonFlag.set()
        changes.pulse()
    }

    /// Stops the worker: it copies what is still queued for up to `drainSeconds` (stopping at the
    /// first failure), then ends rclone and returns; what is left stays in the journal for the
    /// next run with the same queue.
    package func finish(drainSeconds: Double) {
        state.withLock { $0.stopping = true }
        changes.pulse()
        if !exited.wait(until: drainSeconds.isFinite ? .after(max(0, drainSeconds)) : .never) {
            abandonFlag.set()
            exited.wait()
        }
    }

    // MARK: The worker

    private func run() {
        var backoff = ReconnectBackoff(policy: Self.backoff)
        while true {
            let (entry, stopping) = state.withLock { ($0.queue.next, $0.stopping) }
            guard let entry else {
                if stopping { break }
                _ = changes.wait { state.withLock { $0.queue.next != nil || $0.stopping } }
                continue
            }
            if abandonFlag.isSet { break }
            do {
                try copy(entry)
                backoff = ReconnectBackoff(policy: Self.backoff)
            } catch {
                if abandonFlag.isSet || stopping { break }
                let delay = backoff.next(now: ProcessInfo.processInfo.systemUptime)
                state.withLock { $0.retryAt = Date().addingTimeInterval(delay) }
                // Woken early only by a stop; a new file waits its turn behind this one.
                _ = changes.wait(until: .after(delay)) { state.withLock { $0.stopping } }
                state.withLock { $0.retryAt = nil }
            }
        }
        exited.release()
    }

    /// One file: to a hidden name, verified, renamed; journalled done. Throws to retry.
    private func copy(_ entry: UploadEntry) throws(UploadFailure) {
        guard let dest = try? UploadDestination(entry.destination) else {
            return drop(entry, why: "its destination \(entry.destination) cannot be read")
        }
        guard let local = try? FileManager.default.attributesOfItem(atPath: entry.path),
              let size = (local[.size] as? NSNumber)?.int64Value else {
            return drop(entry, why: "\(entry.path) was deleted before it was copied")
        }
        let final = dest.file(entry.name)
        let partial = dest.partialFile(entry.name, id: entry.id)
        do throws(Rclone.Failure) {
            // A copy that arrived whole before a crash cut the journal short is not sent again.
            if let there = try rclone.list(final), try matches(there, size: size, local: entry.path) {
                return done(entry, note: "already there")
            }
            try rclone.copy(entry.path, to: partial)
            guard let copied = try rclone.list(partial) else {
                throw Rclone.Failure(status: 4, message: "the copy is not at the destination after rclone finished")
            }
            guard try matches(copied, size: size, local: entry.path) else {
                try? rclone.delete(partial)
                throw Rclone.Failure(status: 2, message: "the copy differs from \(entry.name) (\(copied.size) bytes of \(size), "
                                     + "or another hash); it was deleted and is sent again")
            }
            try rclone.move(partial, to: final)
            done(entry, note: nil)
        } catch {
            guard !abandonFlag.isSet else { throw UploadFailure() }
            let text = "copying \(entry.name) to \(dest.redacted) failed: \(dest.scrubbed(error.message))"
                + (error.notInstalled ? "" : Self.advice(status: error.status, destination: dest))
            state.withLock { s in
                s.queue.lastError = text
                s.queue.lastErrorDate = Date()
            }
            notice(text)
            throw UploadFailure()
        }
    }

    /// What to try, by rclone's exit status (7: a fatal error, which retries will not fix; any
    /// other is retried as it is). rclone's exit status says no more than that: a full disk,
    /// refused credentials and a dead link are all told apart only by its words.
    private static func advice(status: Int32, destination: UploadDestination) -> String {
        let check = "'rclone lsd \(destination.redacted)' and 'rclone about \(destination.redacted)' show whether it can be reached and has room"
        return status == 7 ? "; rclone says retrying will not help: \(check)" : "; rec tries again (\(check))"
    }

    /// Whether a listed file is `local`: the same size, and the same hash for every hash the
    /// destination gives that rclone can compute locally (md5, sha1, …).
    private func matches(_ listing: Rclone.Listing, size: Int64, local: String) throws(Rclone.Failure) -> Bool {
        guard listing.size == size else { return false }
        for kind in ["md5", "sha1"] {
            guard let remote = listing.hashes[kind] else { continue }
            return try rclone.hash(kind, of: local) == remote
        }
        return true
    }

    private func done(_ entry: UploadEntry, note: String?) {
        let now = Date()
        let (problem, lag) = state.withLock { s -> (String?, Double?) in
            let lag = s.queuedAt.removeValue(forKey: entry.id).map { now.timeIntervalSince($0) }
            if let lag { s.lastLag = lag }
            s.noteOutcome(entry.path, "done")
            do throws(RecError) { try s.journal.append(s.queue.copied(entry.id, at: now)) } catch { return (error.message, lag) }
            if s.queue.needsCompaction(lines: s.journal.lines) { try? s.journal.rewrite(s.queue.compacted) }
            return (nil, lag)
        }
        notice("copied \(entry.name) to \((try? UploadDestination(entry.destination))?.redacted ?? "?")"
               + (note.map { " (\($0))" } ?? "") + (lag.map { String(format: ", %.1f s after it was finished", $0) } ?? ""))
        if let problem { notice(problem) }
    }

    private func drop(_ entry: UploadEntry, why: String) {
        state.withLock { s in
            s.noteOutcome(entry.path, "failed")
            try? s.journal.append(s.queue.drop(entry.id, why: why))
        }
        notice("not copied: \(why)")
    }

    // MARK: Status

    /// Files still to copy.
    package var waiting: Int { state.withLock { $0.queue.entries.count } }

    /// How the copy of `path` stands: `pending` while queued (retries included), else `failed`
    /// if a copy of it was dropped, `done` once copied; nil if this run never finished one.
    package func state(of path: String) -> String? {
        state.withLock { s in
            if !s.queue.waiting(for: path).isEmpty { return "pending" }
            let outcomes = s.outcomes.filter { $0.path == path }.map(\.outcome)
            return outcomes.isEmpty ? nil : outcomes.contains("failed") ? "failed" : "done"
        }
    }

    /// `rec status` fields (`extra`), all strings.
    package var status: [String: String] {
        state.withLock { s in
            var out: [String: String] = [
                "upload_waiting": String(s.queue.entries.count),
                "upload_waiting_bytes": String(s.queue.waitingBytes),
                "upload_copied": String(s.queue.copied),
            ]
            if let destination { out["upload"] = destination.redacted }
            if let last = s.queue.lastCopy {
                out["upload_last"] = last.name
                out["upload_last_time"] = ISOTimeText.local(last.date)
            }
            if let lag = s.lastLag { out["upload_last_lag"] = String(format: "%.1f", lag) }
            if let error = s.queue.lastError {
                out["upload_error"] = error
                out["upload_error_time"] = s.queue.lastErrorDate.map(ISOTimeText.local)
            }
            if let retry = s.retryAt { out["upload_retry_in"] = String(format: "%.0f", max(0, retry.timeIntervalSinceNow)) }
            if s.forcedDeletions > 0 {
                out["upload_deleted_uncopied"] = String(s.forcedDeletions)
                out["upload_warning"] = s.warning
            }
            return out
        }
    }
}

/// A copy failed; the worker backs off and tries again.
private struct UploadFailure: Error {}
