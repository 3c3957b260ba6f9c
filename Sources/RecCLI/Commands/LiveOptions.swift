import RecClient
import RecCore
import Session

/// `--http` and `--publish` for `rec start`: the live page and the servers the packets go to.
struct LiveOptions: Sendable, Equatable {
    static let arguments: [ArgumentSpec] = [
        .http, .publish,
    ]

    var http: String?
    var publish: [String]

    init(_ values: ParsedValues) throws(RecError) {
        http = try values.value(.http)
        publish = try values.values(.publish)
    }

    /// Checks the values and puts them into the session's configuration.
    func apply(to configuration: inout SessionConfiguration) throws(RecError) {
        configuration.live = try http.map(LiveEndpoint.parse)
        // A live viewer sees a picture only once the encoder gives it back: no look-ahead.
        configuration.recorder.lowDelay = configuration.live != nil
        configuration.publish = try publish.map(PublishTarget.parse)
    }

    /// The options again, for the detached session's own command line.
    var arguments: [String] {
        (http.map { [ArgumentSpec.http.displayName, $0] } ?? []) + publish.flatMap { [ArgumentSpec.publish.displayName, $0] }
    }
}

extension ArgumentSpec {
    static let http = option(
        "http", value: "[addr:]port",
        help: "Serve a live page with a timeline at this port, on loopback unless an address is given (see 'rec view')."
    )
    static let publish = option(
        "publish", value: "url", repeatable: true,
        help: "Also send the encoded video to this rtmp://, srt:// or rtsp:// server; repeat it for several."
    )
}
