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
        for dir in ["/usr/bin", "/usr/local/bin", "/bin", "/usr/sbin"] where FileManager.default.isExecutableFile(atPath: "\(dir)/\(name)") {
            return "\(dir)/\(name)"
        }
        return nil
    }

    /// Runs `name` with `arguments`; throws if it is not installed (scripts/setup.sh installs them all).
    @discardableResult
    static func run(_ name: String, _ arguments: [String], in folder: String? = nil, check: Bool = true) throws -> Output {
        let output = try start(name, arguments, in: folder).finish()
        if check && output.status != 0 {
            throw Failure("\(name) \(arguments.joined(separator: " ")) exited \(output.status): \(output.stderr.suffix(600))")
        }
        return output
    }

    /// A tool started and not yet waited for: its output goes to files, so any number can run at
    /// once without anyone reading their pipes.
    struct Running {
        let process: Process
        let files: (out: URL, err: URL)

        /// Waits for the tool to exit and returns what it printed.
        func finish() throws -> Output {
            process.waitUntilExit()
            defer { for file in [files.out, files.err] { try? FileManager.default.removeItem(at: file) } }
            return Output(status: process.terminationStatus, stdout: try Data(contentsOf: files.out),
                          stderr: (try? String(contentsOf: files.err, encoding: .utf8)) ?? "")
        }
    }

    /// Starts `name` with `arguments` and returns at once.
    static func start(_ name: String, _ arguments: [String], in folder: String? = nil) throws -> Running {
        guard let executable = path(name) else {
            throw Failure("\(name) is not installed; scripts/setup.sh installs it")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let folder { process.currentDirectoryURL = URL(fileURLWithPath: folder) }
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("rec-tool-\(UUID())")
        let files = (out: base.appendingPathExtension("out"), err: base.appendingPathExtension("err"))
        for file in [files.out, files.err] { _ = FileManager.default.createFile(atPath: file.path, contents: nil) }
        let out = try FileHandle(forWritingTo: files.out), err = try FileHandle(forWritingTo: files.err)
        defer { try? out.close(); try? err.close() }
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return Running(process: process, files: files)
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
