import Foundation
import RecCore
import SessionControl

extension SnapshotCommand {
    /// `rec snapshot --host …`: the session's latest frame on every box, each box's picture sent
    /// back and named `BOX-SESSION` under `-o` (a folder, or a name with %s; one file for one box).
    func runOnBoxes(_ boxes: BoxList, _ context: CommandContext) throws(RecError) -> Int32 {
        try SessionName.validate(session)
        let single = boxes.boxes.count == 1 && output.map { !$0.hasSuffix("/") && !$0.contains("%s") } == true
        var naming = ClipNaming.suffixed(OutputFile.defaultName(extension: "jpg", prefix: "snapshot"))
        if let output {
            var isDirectory: ObjCBool = false
            let isFolder = FileManager.default.fileExists(atPath: output, isDirectory: &isDirectory) && isDirectory.boolValue
            naming = single && !isFolder ? .pattern(output) : try ClipNaming(output: output, isFolder: isFolder)
        }
        let paths = boxes.labels.map { label in
            switch naming {
            case .folder(let folder): OutputFile.absolute(folder + "/" + BoxList.clipName(box: label, session: session) + ".jpg")
            default: OutputFile.absolute(naming.path(box: label, session: session))
            }
        }
        for path in paths {
            let ext = (path as NSString).pathExtension.lowercased()
            guard ext == "jpg" || ext == "jpeg" else { throw .usage("snapshots are JPEG pictures; give -o a name ending in .jpg") }
            try OutputPath.checkWritable(path, force: force)
        }
        var staging: [String] = []
        defer { for folder in staging { try? FileManager.default.removeItem(atPath: folder) } }
        for path in paths { staging.append(try ArrivingFiles.folder(beside: path)) }
        let words = boxWords
        let runner = HostChoice.runner(context.environment, connect: .seconds(10), timeout: .seconds(60))
        let answers = runner.run(zip(boxes.boxes, staging).map { BoxRunner.Job(box: $0, words: words, folder: $1) })
        var failed: [String] = []
        for (index, label) in boxes.labels.enumerated() {
            do throws(RecError) {
                let reply = try answers[index].get()
                guard reply.status == 0 else { throw .runtime(reply.failure) }
                let target = try ArrivingFiles.place(staging[index] + "/" + Self.boxPicture, at: paths[index], force: force, context: context)
                // "saved /tmp/rec-remote.X/snapshot.jpg (320x180, frame at 0:03.000)" with the path here.
                let said = String(decoding: reply.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                let detail = said.firstIndex(of: "(").map { " " + String(said[$0...]) } ?? ""
                context.console.print("\(label): saved \(target)\(detail)")
            } catch {
                failed.append(label)
                context.console.print("\(label): failed: \(error.message)")
            }
        }
        guard failed.isEmpty else {
            context.console.printError("rec: \(failed.count) of \(boxes.boxes.count) boxes sent no picture (\(failed.joined(separator: ", ")))")
            return 1
        }
        return 0
    }

    /// The snapshot each box runs: this session's latest frame as `snapshot.jpg` in the command's
    /// temporary folder on the box, from its own sessions only.
    var boxWords: [RemoteCommand.Word] {
        var words = ([Self.configuration.name] + ArgumentSpec.session.spelled(session)).map(RemoteCommand.Word.literal)
        words += [.literal(ArgumentSpec.outputFile.displayName), .inFolder(Self.boxPicture)]
        return words + HostChoice.onItsOwn.map(RemoteCommand.Word.literal)
    }

    /// The picture's name in each box's temporary folder.
    static let boxPicture = "snapshot.jpg"
}
