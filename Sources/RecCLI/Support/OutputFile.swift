import Foundation
import Media
import RecCore

/// Output paths: resolved against the command's working folder, never overwritten without
/// `--force`, and with an extension that names a container rec writes.
enum OutputFile {
    /// An absolute path for `path`, resolved against the current folder.
    static func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        let cwd = FileManager.default.currentDirectoryPath
        return URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: cwd, isDirectory: true)).standardizedFileURL.path
    }

    /// `rec-YYYYMMDD-HHMMSS.<ext>` in the current folder, for recordings without `-o`.
    static func defaultName(container: ContainerFormat, prefix: String = "rec", date: Date = Date()) -> String {
        defaultName(extension: container.rawValue, prefix: prefix, date: date)
    }

    /// `PREFIX-YYYYMMDD-HHMMSS.EXT`, local time.
    static func defaultName(extension ext: String, prefix: String, date: Date = Date()) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.dateFormat = "yyyyMMdd-HHmmss"
        return "\(prefix)-\(f.string(from: date)).\(ext)"
    }

    /// Checks that `path` may be written (`OutputPath.checkWritable`).
    static func checkWritable(_ path: String, force: Bool) throws(RecError) {
        try OutputPath.checkWritable(path, force: force)
    }

    /// The container for `path` from its extension, or the preset's when it has none we know.
    static func container(for path: String, presetContainer: ContainerFormat) throws(RecError) -> ContainerFormat {
        if let c = ContainerFormat(path: path) { return c }
        let ext = (path as NSString).pathExtension
        if ext.isEmpty { return presetContainer }
        throw .usage("rec cannot write '.\(ext)' files; use .mp4, .mov, .mkv or .webm")
    }
}
