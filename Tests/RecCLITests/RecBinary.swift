import Foundation

/// Runs the built `rec` executable (it sits beside the test bundle in the build folder).
enum RecBinary {
    static var url: URL {
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        // Under `swift test` the first argument may be the xctest bundle path itself.
        if !FileManager.default.fileExists(atPath: dir.appendingPathComponent("rec").path) {
            dir = Bundle.main.bundleURL.deletingLastPathComponent()
        }
        return dir.appendingPathComponent("rec")
    }

    struct Result {
        var status: Int32
        var output: String
        var error: String
    }

    /// Runs rec to completion.
    static func run(_ arguments: [String], in folder: String? = nil, environment: [String: String]? = nil) throws -> Result {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        if let folder { process.currentDirectoryURL = URL(fileURLWithPath: folder) }
        if let environment { process.environment = environment }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, output: String(decoding: outData, as: UTF8.self),
                      error: String(decoding: errData, as: UTF8.self))
    }

    /// Starts rec and returns the running process (output discarded).
    static func launch(_ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    static func temporaryFolder() throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("rec-test-\(UUID())")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }
}
