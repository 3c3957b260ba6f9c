import RecCore

/// `rec devices`: list the cameras and the formats they offer.
struct DevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "devices",
        abstract: "List the cameras and the sizes, frame rates and pixel formats they offer."
    )
    static let arguments: [ArgumentSpec] = [.json]

    var json: Bool

    init(_ values: ParsedValues) throws(RecError) {
        json = values.flag("json")
    }

    func run(_ context: CommandContext) throws(RecError) -> Int32 {
        throw .notImplemented("devices")
    }
}
