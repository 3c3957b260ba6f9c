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
        .session, .json, .host,
    ]

    var settings: [ControlSetting]
    var session: String
    var json: Bool
    /// The settings as given, for the other boxes' rec.
    var settingTexts: [String]
    var hosts: [String]

    init(_ values: ParsedValues) throws(RecError) {
        var parsed: [ControlSetting] = []
        settingTexts = try values.values(.setting, as: String.self)
        for text in settingTexts { parsed.append(try ControlSetting.parse(text)) }
        settings = parsed
        session = try values.require(.session)
        json = values.flag(.json)
        hosts = try HostChoice.given(values)
    }

    func validate() throws(RecError) {
        if settings.count > CameraControlRequest.maxSettings {
            throw .usage("at most \(CameraControlRequest.maxSettings) controls at once; split them over several 'rec control' commands")
        }
    }

    func run(_ context: CommandContext) throws(RecError) -> Int32 {
        try SessionName.validate(session)
        let boxes = try HostChoice.boxes(hosts, all: false, environment: context.environment)
        if !boxes.isLocalOnly {
            let runner = HostChoice.runner(context.environment, connect: .seconds(10), timeout: .seconds(60))
            return Forwarding.run(boxArguments, json: json, boxes: boxes, runner: runner, context: context)
        }
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

    /// The settings each box's camera gets, as given (`Forwarding` adds `--json` and `--host local`).
    var boxArguments: [String] { [Self.configuration.name] + settingTexts + ArgumentSpec.session.spelled(session) }
}

private extension ArgumentSpec {
    static let setting = positional(
        "setting", optional: true, repeatable: true,
        help: "A control to set, as NAME=VALUE (names and ranges as 'rec devices' lists them)."
    )
}
