import Foundation
import RecClient

// `rec`: the session client commands run here, in a process that links no FFmpeg; everything
// else (and help, which lists every command) is `rec-engine`, next to this executable.
let arguments = Array(CommandLine.arguments.dropFirst())
if let status = ClientCommands.runIfClientCommand(arguments, root: ClientRoot.self) {
    exit(status)
}
let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
// `rec trim` runs in `rec-trim`, which links only what a cut needs (docs/CUTTING.md, "Cost").
let isTrim = arguments.first == "trim" && !arguments.contains { $0 == "-h" || $0 == "--help" }
let engine = URL(fileURLWithPath: me).deletingLastPathComponent().appendingPathComponent(isTrim ? "rec-trim" : "rec-engine").path
let argv = [CommandLine.arguments[0]] + arguments
var cArguments = argv.map { strdup($0) } + [nil]
execv(engine, &cArguments)
FileHandle.standardError.write(Data("rec: cannot run \(engine): \(String(cString: strerror(errno))); reinstall rec (rec, rec-engine and rec-trim go together)\n".utf8))
exit(1)
