import Foundation

/// The file access presets need, injectable so tests use no real files: list a directory's
/// `.json` files and read a file as UTF-8 text.
package struct PresetFiles: Sendable {
    /// The full paths of the `.json` files in a directory, sorted; empty when it does not exist.
    package var listJSON: @Sendable (_ directory: String) throws(RecError) -> [String]
    /// A file's text.
    package var read: @Sendable (_ path: String) throws(RecError) -> String

    package init(listJSON: @escaping @Sendable (String) throws(RecError) -> [String],
                read: @escaping @Sendable (String) throws(RecError) -> String) {
        self.listJSON = listJSON
        self.read = read
    }

    /// The real file system, through Foundation's `FileManager`.
    package static let local = PresetFiles(
        listJSON: { (directory: String) throws(RecError) -> [String] in
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else { return [] }
            do {
                return try FileManager.default.contentsOfDirectory(atPath: directory)
                    .filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.sorted()
                    .map { directory.hasSuffix("/") ? directory + $0 : directory + "/" + $0 }
            } catch {
                throw RecError.usage("cannot list the preset folder \(directory); check its permissions",
                                     cause: "\(error)", location: directory)
            }
        },
        read: { (path: String) throws(RecError) -> String in
            guard let data = FileManager.default.contents(atPath: path) else {
                throw RecError.usage("cannot read preset file \(path); check the path and its permissions", location: path)
            }
            guard let text = String(data: data, encoding: .utf8) else {
                throw RecError.usage("preset file \(path) is not UTF-8 text; save it as UTF-8 JSON", location: path)
            }
            return text
        })

    /// Files held in memory, path → text: for tests and for callers that already have the text.
    package static func inMemory(_ files: [String: String]) -> PresetFiles {
        PresetFiles(
            listJSON: { directory in
                let prefix = directory.hasSuffix("/") ? directory : directory + "/"
                return files.keys.filter { $0.hasPrefix(prefix) && $0.hasSuffix(".json") && !$0.dropFirst(prefix.count).contains("/") }.sorted()
            },
            read: { (path: String) throws(RecError) -> String in
                guard let text = files[path] else {
                    throw RecError.usage("cannot read preset file \(path); check the path and its permissions", location: path)
                }
                return text
            })
    }
}
