import Foundation
import Glibc
import RecClient
import RecCore
import Review
import Session
import SessionControl

/// `rec review`: one page for every camera of this box (docs/REVIEW.md) — a live grid, one
/// timeline with a shared playhead, frame-exact in and out handles, and exports of several
/// cameras as one bundle. Runs until Ctrl-C or SIGTERM.
struct ReviewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "review",
        abstract: "Serve one review page for every session of this box: live grid, shared timeline, exports.",
        examples: [
            Example("Review every camera started with --http (each session's own page stays too).", "rec review"),
            Example("Serve the network, and keep exports on the big disk.", "rec review --http 0.0.0.0:8090 --exports /srv/exports"),
        ]
    )
    static let arguments: [ArgumentSpec] = [.reviewHTTP, .exports]

    var http: String
    var exports: String

    init(_ values: ParsedValues) throws(RecError) {
        http = try values.require(.reviewHTTP)
        exports = try values.require(.exports)
    }

    func run(_ context: CommandContext) throws(RecError) -> Int32 {
        let endpoint = try LiveEndpoint.parse(http)
        let runtime = RuntimeDirectory.current()
        try runtime.prepare()
        let folder = OutputFile.absolute(exports)
        let signals = StopSignals()
        let server = try ReviewServer(address: endpoint.address, port: endpoint.port, runtime: runtime, exportsFolder: folder)
        defer { server.stop() }
        let files = try ReviewFiles.write(in: runtime, server: server)
        defer { files.remove() }
        context.console.print("watch   \(server.watchURL)")
        context.console.print("export  \(server.exportURL)")
        context.console.printError("rec: review page for every session started with --http; exports go into \(folder); Ctrl-C ends it")
        let stopped = Latch()
        signals.whenStopped { stopped.release() }
        stopped.wait()
        return 0
    }
}

/// `.review/` in the runtime folder (not a session name): the page's address and its two tokens,
/// 0600, for scripts and tests; removed when `rec review` ends.
struct ReviewFiles {
    let path: String

    static func write(in runtime: RuntimeDirectory, server: ReviewServer) throws(RecError) -> ReviewFiles {
        let path = runtime.path + "/.review"
        if mkdir(path, 0o700) != 0 && errno != EEXIST {
            throw .runtime("cannot create \(path)", cause: "mkdir: \(errorText(errno))")
        }
        let folder = SessionFolder(name: ".review", path: path)
        try folder.writeLive(address: server.pageAddress, token: server.access.watchToken)
        let export = path + "/export-token"
        let fd = open(export, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        if fd < 0 { throw .runtime("cannot create \(export)", cause: "open: \(errorText(errno))") }
        let bytes = Array((server.access.exportToken + "\n").utf8)
        let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)
        if written != bytes.count { throw .runtime("cannot write \(export)") }
        return ReviewFiles(path: path)
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

private extension ArgumentSpec {
    static let reviewHTTP = option("http", value: "[addr:]port", default: "8090",
                                   help: "Serve the review page at this port, on loopback unless an address is given.")
    static let exports = option("exports", value: "folder", default: "rec-exports",
                                help: "Where exported bundles go, one folder each.")
}
