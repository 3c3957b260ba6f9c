import Foundation
import RecCore

/// Output paths: resolved against the command's working folder, never overwritten without
/// `--force`, and with an extension that names a container rec writes.
package enum OutputFile {
    /// An absolute path for `path`, resolved against the current folder.
    package static func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        let cwd = FileManager.default.currentDirectoryPath
        return URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: cwd, isDirectory: true)).standardizedFileURL.path
    }

    /// `rec-YYYYMMDD-HHMMSS.<ext>` in the current folder, for recordings without `-o`.
    package static func defaultName(container: Container, prefix: String = "rec", date: Date = Date()) -> String {
        defaultName(extension: container.rawValue, prefix: prefix, date: date)
    }

    /// `PREFIX-YYYYMMDD-HHMMSS.EXT`, local time.
    package static func defaultName(extension ext: String, prefix: String, date: Date = Date()) -> String {
        "\(prefix)-\(ISOTimeText.local(date, format: "%Y%m%d-%H%M%S")).\(ext)"
    }

    /// The container for `path` from its extension, or the preset's when it has none we know.
    package static func container(for path: String, presetContainer: Container) throws(RecError) -> Container {
        if let c = Container(path: path) { return c }
        let ext = (path as NSString).pathExtension
        if ext.isEmpty { return presetContainer }
        throw .usage("rec cannot write '.\(ext)' files; use .mp4, .mov, .mkv or .webm")
    }
}
