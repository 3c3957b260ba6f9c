import Foundation

/// Rules every file rec writes follows: never over an existing file without `--force`, never into
/// a folder that is not there, and always through a temporary sibling renamed into place.
package enum OutputPath {
    /// Checks that `path` may be written: its folder exists, it is not a folder, and it does not
    /// exist unless `force`.
    package static func checkWritable(_ path: String, force: Bool) throws(RecError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            if isDirectory.boolValue { throw .usage("\(path) is a folder; give a file name with -o") }
            if !force { throw RecError.usage("\(path) already exists; pass --force to overwrite it, or choose another -o").because(.alreadyExists) }
        }
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty && !FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) {
            throw RecError.usage("the folder \(folder) does not exist; create it or choose another -o").because(.notWritable)
        }
    }

    /// A hidden, unique name in the same folder (so the final rename stays on one file system):
    /// `dir/.name.partial-<random>`. Concurrent writers to one path never share it.
    package static func temporarySibling(of path: String) -> String {
        let url = URL(fileURLWithPath: path)
        let tag = UUID().uuidString.prefix(8)
        return url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).partial-\(tag)").path
    }

    /// Moves a finished temporary file over `path`; removes it and throws if that fails.
    package static func commit(_ temporary: String, to path: String) throws(RecError) {
        guard rename(temporary, path) == 0 else {
            let e = errno
            unlink(temporary)
            throw RecError.runtime("cannot write \(path): \(String(cString: strerror(e)))", fault: .system(errno: e))
        }
    }

    /// Whether two paths name the same file: the same path after resolving symbolic links, or,
    /// when both exist, the same file on the same device (a hard link), e.g. a clip aimed at the
    /// session's own recording or a recording aimed at its own input.
    package static func same(_ a: String, _ b: String) -> Bool {
        if URL(fileURLWithPath: a).resolvingSymlinksInPath().standardizedFileURL.path
            == URL(fileURLWithPath: b).resolvingSymlinksInPath().standardizedFileURL.path { return true }
        func identity(_ path: String) -> [UInt64]? {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            return [UInt64(info.st_dev), UInt64(info.st_ino)]
        }
        guard let x = identity(a), let y = identity(b) else { return false }
        return x == y
    }
}

extension Container {
    /// From a file name's extension ("clip.MP4" → .mp4); nil for anything else.
    package init?(path: String) {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        switch path[path.index(after: dot)...].lowercased() {
        case "mp4", "m4v": self = .mp4
        case "mov": self = .mov
        case "mkv": self = .mkv
        case "webm": self = .webm
        default: return nil
        }
    }

    /// The container for a clip's output path, or a usage error naming the ones rec writes.
    package static func forClip(path: String) throws(RecError) -> Container {
        guard let c = Container(path: path) else {
            throw .usage("rec writes .mp4, .mov, .mkv and .webm files; give -o a name ending in one of those")
        }
        return c
    }
}
