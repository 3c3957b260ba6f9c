import Foundation
import RecCore
import SessionControl

/// `rec snapshot`: save the latest frame of a session as a picture.
struct SnapshotCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "snapshot",
        abstract: "Save the latest frame of a running session as a picture."
    )
    static let arguments: [ArgumentSpec] = [
        .output("The JPEG picture to write, such as still.jpg."),
        .session, .force, .host,
    ]

    var output: String?
    var session: String
    var force: Bool
    var hosts: [String]

    init(_ values: ParsedValues) throws(RecError) {
        output = try values.value(.outputFile)
        session = try values.require(.session)
        force = values.flag(.force)
        hosts = try HostChoice.given(values)
    }

    func run(_ context: CommandContext) throws(RecError) -> Int32 {
        let boxes = try HostChoice.boxes(hosts, all: false, environment: context.environment)
        if !boxes.isLocalOnly { return try runOnBoxes(boxes, context) }
        let path = OutputFile.absolute(output ?? OutputFile.defaultName(extension: "jpg", prefix: "snapshot"))
        let ext = (path as NSString).pathExtension.lowercased()
        guard ext == "jpg" || ext == "jpeg" else {
            throw .usage("snapshots are JPEG pictures; give -o a name ending in .jpg")
        }
        try OutputPath.checkWritable(path, force: force)
        let reply = try ControlClient.send(.snapshot(SnapshotRequest(output: path, force: force)), session: session)
        guard case .snapshot(let report) = try reply.get() else { throw .runtime("the session answered snapshot with something else") }
        context.console.print(SnapshotText.text(report))
        return 0
    }
}
