import Glibc
import RecCore

/// Makes or checks a private folder: a real directory (not a symlink), owned by the user, 0700.
enum SecureFolder {
    static func ensure(_ path: String, uid: UInt32) throws(RecError) {
        var status = stat()
        if lstat(path, &status) != 0 {
            guard errno == ENOENT else {
                throw .runtime("cannot inspect \(path)", cause: "lstat: \(errorText(errno))")
            }
            if mkdir(path, 0o700) != 0 && errno != EEXIST {
                throw .runtime("cannot create the folder \(path)", cause: "mkdir: \(errorText(errno))")
            }
            guard lstat(path, &status) == 0 else {
                throw .runtime("cannot inspect \(path)", cause: "lstat: \(errorText(errno))")
            }
        }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            throw .runtime("\(path) is not a folder (a symlink or file is in its place); remove it and try again")
        }
        guard status.st_uid == uid else {
            throw .runtime("the folder \(path) belongs to uid \(status.st_uid), not to you (uid \(uid)); remove it or set XDG_RUNTIME_DIR to a folder of yours")
        }
        if status.st_mode & 0o077 != 0 && chmod(path, 0o700) != 0 {
            throw .runtime("cannot make \(path) private (mode 0700)", cause: "chmod: \(errorText(errno))")
        }
    }
}
