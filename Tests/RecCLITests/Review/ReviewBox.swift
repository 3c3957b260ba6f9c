import Foundation
import Glibc
import Testing

/// A box for the review page's tests: a sandbox of sessions and `rec review` running beside them
/// on a free loopback port, its URLs read from what it prints.
final class ReviewBox {
    typealias Sandbox = BackgroundSessionTests.Sandbox
    let sandbox: Sandbox
    let process: Process
    let port: Int
    let watchToken: String
    let exportToken: String
    let exports: String

    init(sandbox: Sandbox) throws {
        self.sandbox = sandbox
        exports = sandbox.path("exports")
        let process = Process()
        process.executableURL = RecBinary.url
        process.arguments = ["review", "--http", "0", "--exports", exports]
        process.environment = sandbox.environment
        process.currentDirectoryURL = URL(fileURLWithPath: sandbox.folder)
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process = process
        // It prints its two URLs once it listens: `watch   URL` and `export  URL`.
        var text = ""
        while text.components(separatedBy: "\n").count < 3 {
            let data = out.fileHandleForReading.availableData
            if data.isEmpty { break }
            text += String(decoding: data, as: UTF8.self)
        }
        let urls = text.split(separator: "\n").compactMap { $0.split(separator: " ").last.map(String.init) }
        try #require(urls.count >= 2, "rec review printed \(text)")
        watchToken = String(urls[0].split(separator: "=").last ?? "")
        exportToken = String(urls[1].split(separator: "=").last ?? "")
        port = Int(urls[0].split(separator: ":")[2].prefix { $0.isNumber }) ?? 0
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGTERM) }
        process.waitUntilExit()
    }

    var watchURL: String { "http://127.0.0.1:\(port)/?token=\(watchToken)" }
    var exportURL: String { "http://127.0.0.1:\(port)/?token=\(exportToken)" }

    func request(_ method: String = "GET", _ path: String, token: String?, headers: [String: String] = [:], body: String = "",
                 limit: Int = 64 << 20) throws -> HTTPTestClient.Response {
        var all = headers
        if let token { all["X-Rec-Token"] = token }
        return try HTTPTestClient.request(port: port, method, path, headers: all, body: Array(body.utf8), limit: limit)
    }

    /// Starts a stand-in camera session with its own live page.
    func startCamera(_ name: String, _ source: String = "test:320x240@30", _ extra: [String] = []) throws {
        let file = extra.contains("-o") ? [] : ["--no-file"]
        let r = try sandbox.rec(["start", "--session", name, "--source", source, "--buffer", "10m", "--http", "0"] + file + extra)
        try #require(r.status == 0, "\(name): \(r.error)")
    }

    /// The export once it has ended (`GET /api/exports/ID?wait=S` answers then).
    func waitForExport(_ id: Int, timeout: Int = 90) throws -> [String: Any] {
        try request("GET", "/api/exports/\(id)?wait=\(timeout)", token: exportToken).json["export"] as? [String: Any] ?? [:]
    }
}
