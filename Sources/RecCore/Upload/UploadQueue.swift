import Foundation

/// One file waiting to be copied.
package struct UploadEntry: Sendable, Equatable {
    package var id: Int
    /// The local file, absolute.
    package var path: String
    /// The `--upload` destination, as rclone takes it.
    package var destination: String
    package var bytes: Int64

    package init(id: Int, path: String, destination: String, bytes: Int64) {
        self.id = id
        self.path = path
        self.destination = destination
        self.bytes = bytes
    }

    /// The name the copy gets at the destination.
    package var name: String { (path as NSString).lastPathComponent }
}

/// The files still to copy off the box, oldest first, and what happened last. Pure: the worker
/// (Session) runs rclone and writes each change's `UploadJournal` record to disk before acting on
/// it, so the queue replayed from the journal after a crash is never behind what the remote holds
/// except for the one copy in flight, which is then copied again.
package struct UploadQueue: Sendable, Equatable {
    /// Waiting, in the order they were made (added).
    package private(set) var entries: [UploadEntry] = []
    /// Recording files being written (`opened`), queued when they are finished (`add`).
    package private(set) var writing: [UploadEntry] = []
    package private(set) var nextID = 1
    /// The last file copied and when.
    package private(set) var lastCopy: (name: String, date: Date)?
    /// Files copied since the queue was made (this run).
    package private(set) var copied = 0
    /// Files that left without a copy since the queue was made.
    package private(set) var dropped = 0
    /// The last failure (its text scrubbed of credentials), cleared by the next copy.
    package var lastError: String?
    package var lastErrorDate: Date?

    package init() {}

    package static func == (a: UploadQueue, b: UploadQueue) -> Bool {
        a.entries == b.entries && a.writing == b.writing && a.nextID == b.nextID && a.lastCopy?.name == b.lastCopy?.name
            && a.lastCopy?.date == b.lastCopy?.date && a.lastError == b.lastError
    }

    /// The queue a journal's records describe.
    package static func replay(_ records: [UploadJournal.Record]) -> UploadQueue {
        var queue = UploadQueue()
        for r in records {
            queue.nextID = max(queue.nextID, r.id + 1)
            switch r.op {
            case .open:
                guard let path = r.path, let dest = r.dest, !queue.knows(r.id) else { continue }
                queue.writing.append(UploadEntry(id: r.id, path: path, destination: dest, bytes: 0))
            case .add:
                guard let path = r.path, let dest = r.dest, !queue.entries.contains(where: { $0.id == r.id }) else { continue }
                queue.writing.removeAll { $0.id == r.id }
                queue.entries.append(UploadEntry(id: r.id, path: path, destination: dest, bytes: r.bytes ?? 0))
            case .done, .drop:
                queue.entries.removeAll { $0.id == r.id }
                queue.writing.removeAll { $0.id == r.id }
            }
        }
        queue.entries.sort { $0.id < $1.id }
        return queue
    }

    private func knows(_ id: Int) -> Bool { entries.contains { $0.id == id } || writing.contains { $0.id == id } }

    /// A recording file `path` for `destination` is begun: the record to write (nil when it is
    /// already known). It is not copied until `add` says it is finished.
    package mutating func opened(path: String, destination: String) -> UploadJournal.Record? {
        guard !(entries + writing).contains(where: { $0.path == path && $0.destination == destination }) else { return nil }
        let entry = UploadEntry(id: nextID, path: path, destination: destination, bytes: 0)
        nextID += 1
        writing.append(entry)
        return .open(entry)
    }

    /// Queues `path` for `destination` (a file being written keeps the id it was opened with):
    /// the record to write, or nil when it is already waiting for that destination.
    package mutating func add(path: String, destination: String, bytes: Int64) -> UploadJournal.Record? {
        guard !entries.contains(where: { $0.path == path && $0.destination == destination }) else { return nil }
        var entry = UploadEntry(id: nextID, path: path, destination: destination, bytes: bytes)
        if let i = writing.firstIndex(where: { $0.path == path && $0.destination == destination }) {
            entry.id = writing.remove(at: i).id
        } else {
            nextID += 1
        }
        entries.append(entry)
        return .add(entry)
    }

    /// The files a session that died left half-written (opened, never finished): queued as they
    /// are, in the order they were begun, each with its size now (`size`, nil for a file that is
    /// gone, which is dropped). The records to write.
    package mutating func resumeInterrupted(size: (String) -> Int64?) -> [UploadJournal.Record] {
        var records: [UploadJournal.Record] = []
        for var entry in writing {
            if let bytes = size(entry.path) {
                entry.bytes = bytes
                entries.append(entry)
                records.append(.add(entry))
            } else {
                dropped += 1
                records.append(.drop(entry.id, why: "\(entry.path), being written when the last session ended, is gone"))
            }
        }
        writing = []
        entries.sort { $0.id < $1.id }
        return records
    }

    /// The file to copy next: the oldest.
    package var next: UploadEntry? { entries.first }

    /// Entry `id` arrived whole at `date`: the record to write.
    package mutating func copied(_ id: Int, at date: Date) -> UploadJournal.Record {
        if let i = entries.firstIndex(where: { $0.id == id }) {
            lastCopy = (entries[i].name, date)
            entries.remove(at: i)
            copied += 1
        }
        lastError = nil
        lastErrorDate = nil
        return .done(id)
    }

    /// Entry `id` leaves the queue without a copy (`why` says so): the record to write.
    package mutating func drop(_ id: Int, why: String) -> UploadJournal.Record {
        if entries.contains(where: { $0.id == id }) { dropped += 1 }
        entries.removeAll { $0.id == id }
        return .drop(id, why: why)
    }

    /// The entries waiting for `path` (any destination).
    package func waiting(for path: String) -> [UploadEntry] { entries.filter { $0.path == path } }

    /// Local files not yet copied everywhere they go: retention keeps them.
    package var held: Set<String> { Set(entries.map(\.path)) }

    package var waitingBytes: Int64 { entries.reduce(0) { $0 + $1.bytes } }

    /// The journal rewritten with only what still waits (ids kept), and the last id given, so
    /// ids are never given twice.
    package var compacted: [UploadJournal.Record] {
        let last = nextID - 1
        let marker: [UploadJournal.Record] = last > 0 && !knows(last) ? [.drop(last, why: "compacted")] : []
        return (entries.map(UploadJournal.Record.add) + writing.map(UploadJournal.Record.open)).sorted { $0.id < $1.id } + marker
    }

    /// Whether a journal of `lines` lines is mostly history and should be rewritten: past 256
    /// lines and more than four times what the queue itself needs.
    package func needsCompaction(lines: Int) -> Bool { lines > 256 && lines > 4 * (entries.count + writing.count) }
}
