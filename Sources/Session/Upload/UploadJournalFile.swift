import Foundation
import Glibc
import RecCore

/// The upload queue's journal on disk (`UploadJournal` says the format), owned by one session: a
/// lock file beside it (`flock`) keeps a second session off the same queue. Each record is one
/// `write(2)` followed by `fdatasync`, so it is on the disk before the copy it announces starts
/// or the file it releases can be deleted.
final class UploadJournalFile {
    let path: String
    private var fd: Int32
    private let lockFD: Int32
    /// Lines in the file, for deciding when to rewrite it.
    private(set) var lines: Int

    /// Opens (or makes) the journal at `path` and reads it; a line cut short by a crash is cut off.
    init(path: String) throws(RecError) {
        self.path = path
        let folder = (path as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        lockFD = open(path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard lockFD >= 0 else {
            throw .runtime("cannot make the upload queue \(path).lock: \(String(cString: strerror(errno))); check the folder is writable")
        }
        guard flock(lockFD, LOCK_EX | LOCK_NB) == 0 else {
            close(lockFD)
            throw .usage("another rec session is copying this folder's files (its queue is \(path)); "
                         + "give this one another -o name or folder, or stop the other first")
        }
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            let reason = String(cString: strerror(errno))
            close(lockFD)
            throw .runtime("cannot open the upload queue \(path): \(reason); check the folder is writable")
        }
        lines = 0
    }

    deinit {
        close(fd)
        close(lockFD)     // releases the lock
    }

    /// The records in the file; a torn last line is cut off so the next record starts clean.
    func read() -> UploadJournal.Contents {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var offset: off_t = 0
        while true {
            let n = pread(fd, &buffer, buffer.count, offset)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            bytes += buffer[..<n]
            offset += off_t(n)
        }
        let contents = UploadJournal.parse(bytes)
        if contents.validLength < bytes.count { _ = ftruncate(fd, off_t(contents.validLength)) }
        lines = contents.records.count + contents.unreadable
        return contents
    }

    /// Appends `record` and makes it durable; without `sync` it is only written (it outlives the
    /// process, not a power cut), for a record on the encode thread, which must not wait on the
    /// disk (an `open`: after a power cut the file it names lost its unsynced end as well).
    func append(_ record: UploadJournal.Record, sync: Bool = true) throws(RecError) {
        let line = UploadJournal.line(record)
        let end = lseek(fd, 0, SEEK_END)
        let written = line.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, end) }
        guard written == line.count, !sync || fdatasync(fd) == 0 else {
            let reason = String(cString: strerror(errno))
            if written > 0 { _ = ftruncate(fd, end) }
            throw .runtime("cannot write the upload queue \(path): \(reason)")
        }
        lines += 1
    }

    /// Replaces the file with `records`: written to a new file, synced, renamed over the old one
    /// and the folder synced, so a crash leaves either the old journal or the new one.
    func rewrite(_ records: [UploadJournal.Record]) throws(RecError) {
        let temporary = path + ".new"
        let bytes = records.flatMap(UploadJournal.line)
        let newFD = open(temporary, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard newFD >= 0 else { throw .runtime("cannot rewrite the upload queue \(path): \(String(cString: strerror(errno)))") }
        let written = bytes.withUnsafeBytes { write(newFD, $0.baseAddress, $0.count) }
        guard written == bytes.count, fsync(newFD) == 0, rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            close(newFD)
            unlink(temporary)
            throw .runtime("cannot rewrite the upload queue \(path): \(reason)")
        }
        let folder = open((path as NSString).deletingLastPathComponent, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folder >= 0 {
            _ = fsync(folder)
            close(folder)
        }
        close(fd)
        fd = newFD
        lines = records.count
    }
}
