import Foundation
import Media
import RecCore

/// rclone, run once per step of a copy: rec speaks to storage only through it (S3, B2, SFTP,
/// WebDAV, Google Drive, a local folder…), configured with `rclone config`.
struct Rclone: Sendable {
    /// What a failed run said: rclone's exit status (1 usage, 3 directory not found, 4 file not
    /// found, 5 temporary, 7 fatal, …) and its last error line.
    struct Failure: Error, Sendable {
        var status: Int32
        var message: String
        /// rclone itself is missing.
        var notInstalled = false
    }

    /// A file as the destination lists it.
    struct Listing: Sendable, Equatable {
        var size: Int64
        /// Lower-case hash name (`md5`, `sha1`, …) to hex value, for the hashes the backend gives.
        var hashes: [String: String]
    }

    static let program = "rclone"
    /// `--upload-limit`: rclone's `--bwlimit` (`2M` is 2 MiB/s, a number alone KiB/s).
    var bandwidthLimit: String?
    /// Set to end a run at once (the session stops).
    var stop: InterruptFlag?

    /// rclone's own retries are off: the queue retries, with its back-off. A silent server fails
    /// a run after 30 s without progress instead of rclone's 5 minutes.
    private var common: [String] {
        ["--retries", "1", "--low-level-retries", "2", "--contimeout", "10s", "--timeout", "30s",
         "--ask-password=false", "--stats", "0", "--log-level", "ERROR"]
    }

    /// The configured remotes' names.
    func remotes() throws(Failure) -> [String] {
        try run(["listremotes"]).text.split(separator: "\n").map { String($0.hasSuffix(":") ? $0.dropLast() : $0) }
    }

    /// Makes the destination folder if it is missing: the start-up check that it can be reached.
    func makeFolder(_ destination: UploadDestination) throws(Failure) {
        _ = try run(["mkdir", destination.text] + common)
    }

    /// Copies `local` to `remote` (a file path rclone takes). Without rclone's 16 MiB read-ahead
    /// buffer (`--buffer-size 0`): a copy's peak resident memory was 61.2 MiB with it and 43.9 MiB
    /// without, for a 40 MB file to WebDAV on loopback, in the same time.
    func copy(_ local: String, to remote: String) throws(Failure) {
        _ = try run(["copyto", local, remote, "--no-check-dest", "--buffer-size", "0"] + common
                    + (bandwidthLimit.map { ["--bwlimit", $0] } ?? []))
    }

    /// The size and hashes of `path`, or nil if there is no such file.
    func list(_ path: String) throws(Failure) -> Listing? {
        let result: ChildProcess.Result
        do {
            // Only the hashes compared: a local destination would compute nine of them.
            result = try run(["lsjson", "--stat", "--hash-type", "md5", "--hash-type", "sha1", "--files-only", path] + common)
        } catch where error.status == 3 || error.status == 4 {
            return nil
        }
        struct Item: Decodable {
            // rclone's own field names.
            var Size: Int64
            var Hashes: [String: String]?
        }
        guard let item = try? JSONDecoder().decode(Item.self, from: Data(result.output)) else { return nil }
        var hashes: [String: String] = [:]
        for (name, value) in item.Hashes ?? [:] where !value.isEmpty {
            hashes[name.lowercased()] = value.lowercased()
        }
        return Listing(size: item.Size, hashes: hashes)
    }

    /// The `kind` hash (`md5`, `sha1`) of a local file.
    func hash(_ kind: String, of local: String) throws(Failure) -> String? {
        let text = try run(["hashsum", kind, local] + common).text
        return text.split(separator: " ").first.map { $0.lowercased() }
    }

    /// Renames `from` to `to` on the same remote (server-side where the backend can).
    func move(_ from: String, to: String) throws(Failure) {
        _ = try run(["moveto", from, to] + common)
    }

    func delete(_ path: String) throws(Failure) {
        _ = try run(["deletefile", path] + common)
    }

    private func run(_ arguments: [String]) throws(Failure) -> ChildProcess.Result {
        let result: ChildProcess.Result
        do {
            result = try ChildProcess.run(Self.program, arguments, stop: stop)
        } catch {
            switch error {
            case .notFound:
                throw Failure(status: 127, message: "rclone is not installed; install it (apt install rclone) or leave out --upload",
                              notInstalled: true)
            case .cannotStart(_, let code):
                throw Failure(status: 126, message: "cannot start rclone: \(String(cString: strerror(code)))")
            }
        }
        if result.interrupted { throw Failure(status: result.status, message: "stopped") }
        guard result.status == 0 else { throw Failure(status: result.status, message: Self.lastError(result.errorText)) }
        return result
    }

    /// rclone's last error line without its date and level, or its last line.
    static func lastError(_ text: String) -> String {
        let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard let line = lines.last(where: { $0.contains("ERROR") || $0.contains("Failed") }) ?? lines.last else {
            return "rclone failed without saying why"
        }
        // "2026/12/03 18:40:00 ERROR : name: Failed to copy: reason"
        if let range = line.range(of: "ERROR : ") { return String(line[range.upperBound...]) }
        if let range = line.range(of: "CRITICAL: ") { return String(line[range.upperBound...]) }
        // "2026/12/03 18:40:00 Failed to create file system for …"
        let parts = line.split(separator: " ", maxSplits: 2)
        if parts.count == 3, parts[0].filter({ $0 == "/" }).count == 2, parts[1].filter({ $0 == ":" }).count == 2 {
            return String(parts[2])
        }
        return line
    }
}
