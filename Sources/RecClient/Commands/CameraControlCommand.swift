import Foundation
import RecCore
import SessionControl

/// `rec control`: set or list the camera controls of a running session. The session's capture
/// thread applies them between frames, on the camera it streams from.
struct CameraControlCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "control",
        abstract: "Set or list the camera controls of a running session.",
        examples: [
            Example("Fix the exposure of the default session.", "rec control auto_exposure=manual exposure_time_absolute=250"),
            Example("List the session camera's controls and their values.", "rec control --session desk"),
        ]
    )
    static let arguments: [ArgumentSpec] = [
        .setting,
        .session, .json,
    ]

    var settings: [ControlSetting]
    var session: String
    var json: Bool

    init(_ values: ParsedValues) throws(RecError) {
        var parsed: [ControlSetting] = []
        for text in try values.values(.setting, as: String.self) { parsed.append(try ControlSetting.parse(text)) }
        settings = parsed
        session = try values.require(.session)
        json = values.flag(.json)
    }

    func validate() throws(RecError) {
        if settings.count > CameraControlRequest.maxSettings {
            throw .usage("at most \(CameraControlRequest.maxSettings) controls at once; split them over several 'rec control' commands")
        }
    }

    func run(_ context: CommandContext) throws(RecError) -> Int32 {
        try SessionName.validate(session)
        let reply = try ControlClient.send(.control(CameraControlRequest(settings: settings)), session: session)
        guard case .control(let report) = try reply.get() else { throw .runtime("the session answered control with something else") }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            let data = (try? encoder.encode(report.controls)) ?? Data("[]".utf8)
            context.console.print(String(decoding: data, as: UTF8.self))
        } else if report.controls.isEmpty {
            context.console.print("the session's camera has no controls")
        } else {
            let lines = ControlListFormatter.lines(report.controls.map(\.control), indent: 0)
            context.console.print(lines.joined(separator: "\n"))
        }
        return 0
    }
}

private extension ArgumentSpec {
    static let setting = positional(
        "setting", optional: true, repeatable: true,
        help: "A control to set, as NAME=VALUE (names and ranges as 'rec devices' lists them)."
    )
}
