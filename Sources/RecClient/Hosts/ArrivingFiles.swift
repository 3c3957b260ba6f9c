import Foundation
import Glibc
import RecCore

/// Files that come back from the boxes: into a hidden folder beside where they go, then each
/// moved to its name. Nothing is overwritten without `--force`, and nothing that came back is lost.
enum ArrivingFiles {
    /// A new hidden folder (0700) in the folder of `path`, where a box's files arrive.
    static func folder(beside path: String) throws(RecError) -> String {
        let folder = (path as NSString).deletingLastPathComponent
        var template = Array((folder + "/.rec-host-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            throw .runtime("cannot write into \(folder): \(String(cString: strerror(errno))); give -o a folder you can write to")
        }
        return String(cString: made)
    }

    /// Moves `staged` to `path` and returns where it went: `path`, or when that is taken and
    /// `force` is not given, the next free `-1`, `-2`… name (with a warning).
    static func place(_ staged: String, at path: String, force: Bool, context: CommandContext) throws(RecError) -> String {
        let files = FileManager.default
        var target = path
        if files.fileExists(atPath: path) {
            if force {
                try? files.removeItem(atPath: path)
            } else {
                target = SegmentNaming.unique(path, exists: files.fileExists(atPath:))
                context.console.printError("rec: warning: \(path) exists; the file that came back is saved as \(target)")
            }
        }
        do {
            try files.moveItem(atPath: staged, toPath: target)
        } catch {
            throw .runtime("the file came back but could not be put at \(target): \(error.localizedDescription)")
        }
        return target
    }
}
