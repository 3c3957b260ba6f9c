import Foundation

/// Runs the media tools the real-media tests use (ffmpeg, ffprobe, mpv, gst-launch-1.0,
/// chromium) and returns what they print.
enum Tool {
    struct Output {
        var status: Int32
        var stdout: Data
        var stderr: String
    }

    static func path(_ name: String) -> String? {
        for dir in ["/usr/bin", "/usr/local/bin", "/bin"] where FileManager.default.isExecutableFile(atPath: "\(dir)/\(name)") {
            return "\(dir)/\(name)"
        }
        return nil
    }

    /// Runs `name` with `arguments`; throws if it is not installed (scripts/setup.sh installs them all).
    @discardableResult
    static func run(_ name: String, _ arguments: [String], in folder: String? = nil, check: Bool = true) throws -> Output {
        guard let executable = path(name) else {
            throw Failure("\(name) is not installed; scripts/setup.sh installs it")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let folder { process.currentDirectoryURL = URL(fileURLWithPath: folder) }
        let errURL = FileManager.default.temporaryDirectory.appendingPathComponent("rec-tool-\(UUID()).err")
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let errHandle = try FileHandle(forWritingTo: errURL)
        defer { try? FileManager.default.removeItem(at: errURL) }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = errHandle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try errHandle.close()
        let stderr = (try? String(contentsOf: errURL, encoding: .utf8)) ?? ""
        if check && process.terminationStatus != 0 {
            throw Failure("\(name) \(arguments.joined(separator: " ")) exited \(process.terminationStatus): \(stderr.suffix(600))")
        }
        return Output(status: process.terminationStatus, stdout: data, stderr: stderr)
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
