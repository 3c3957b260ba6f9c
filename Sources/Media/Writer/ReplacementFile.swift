import Glibc
import RecCore

/// A file written to replace another, which nobody can see until it does: an unnamed file in the
/// same folder (`open(O_TMPFILE)`) that the kernel deletes if the process dies, made durable with
/// fsync(2) and only then given a name and renamed over the target. Where the file system has no
/// O_TMPFILE it is a hidden sibling (`OutputPath.temporarySibling`) that is removed on failure.
///
/// Writers open `writePath` (for an unnamed file, `/proc/self/fd/N`, which reopens the same one).
/// The struct owns the descriptor; exactly one of `commit()` and `discard()` must end it (it has
/// no deinit: closing is not the same as deciding).
struct ReplacementFile: ~Copyable {
    let target: String
    let writePath: String
    private let fd: Int32
    private let named: String?

    /// Linux's `O_TMPFILE` (`__O_TMPFILE | O_DIRECTORY`, the same on every architecture Swift
    /// runs on); Glibc's macro does not import into Swift.
    static let temporaryFileFlag: Int32 = 0o20_000_000 | O_DIRECTORY

    /// The corresponding C function is `open(2)` with `O_TMPFILE` on `target`'s folder.
    init(replacing target: String) throws(FFmpegError) {
        self.target = target
        let folder = Self.folder(of: target)
        var fd = open(folder, Self.temporaryFileFlag | O_RDWR | O_CLOEXEC, 0o644)
        // Writers and linkat(2) reach the unnamed file through /proc; without /proc, name it.
        if fd >= 0, access("/proc/self/fd/\(fd)", W_OK) != 0 {
            close(fd)
            fd = -1
        }
        if fd >= 0 {
            self.fd = fd
            self.named = nil
            self.writePath = "/proc/self/fd/\(fd)"
            return
        }
        // EOPNOTSUPP/EISDIR/EINVAL: this file system cannot make unnamed files (or no /proc).
        let sibling = OutputPath.temporarySibling(of: target)
        let opened = open(sibling, O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0o644)
        guard opened >= 0 else { throw FFmpegError(code: -errno, operation: "creating the finished copy of \(target)") }
        self.fd = opened
        self.named = sibling
        self.writePath = sibling
    }

    /// fsync(2), then link the unnamed file to a hidden name and rename it over the target, then
    /// fsync the folder. Between the link and the rename (two system calls) a crash would leave the
    /// finished copy under its hidden name, complete.
    consuming func commit() throws(FFmpegError) {
        let fd = self.fd, named = self.named, target = self.target
        defer { close(fd) }
        guard fsync(fd) == 0 else {
            let e = errno
            if let named { unlink(named) }
            throw FFmpegError(code: -e, operation: "fsync of the finished copy of \(target)")
        }
        let name = named ?? OutputPath.temporarySibling(of: target)
        if named == nil, linkat(AT_FDCWD, "/proc/self/fd/\(fd)", AT_FDCWD, name, AT_SYMLINK_FOLLOW) != 0 {
            throw FFmpegError(code: -errno, operation: "naming the finished copy of \(target)")
        }
        guard rename(name, target) == 0 else {
            let e = errno
            unlink(name)
            throw FFmpegError(code: -e, operation: "replacing \(target) with its finished copy")
        }
        let dir = open(Self.folder(of: target), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dir >= 0 { fsync(dir); close(dir) }
    }

    /// Drops the copy: an unnamed file simply goes; a named one is removed.
    consuming func discard() {
        let fd = self.fd, named = self.named
        close(fd)
        if let named { unlink(named) }
    }

    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let folder = String(path[..<slash])
        return folder.isEmpty ? "/" : folder
    }
}
