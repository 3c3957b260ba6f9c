import Foundation
import RecCore
import SessionControl

/// `rec status`: report on background sessions.
struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "status",
        abstract: "Show what a background session is recording and how much its buffer holds.",
        discussion: "With --wait-frames, --wait-until or --wait-error the status is shown once the session gets there (checked as each packet is encoded), or at --timeout; rec exits 1 if the session did not get there. With --all every running session is asked at once and shown on one line each: its state, source, frames, buffer, dropped frames and last error; a session that does not answer in time is shown as not-answering.",
        examples: [
            Example("Wait until the session has 300 frames.", "rec status --wait-frames 300"),
            Example("One line for each session on this machine.", "rec status --all"),
        ]
    )
    static let arguments: [ArgumentSpec] = [
        .session,
        .allRunning,
        .json,
        .waitFrames,
        .waitUntil,
        .waitError,
        .timeout,
        .host,
    ]

    var session: String
    var all: Bool
    var json: Bool
    /// What to wait for, if anything.
    var wait: StatusWait?
    /// With `--all`, how long each session may take to answer.
    var answerTimeout: Duration
    var hosts: [String]
    /// `--timeout` as given, for the other boxes' rec.
    var timeoutText: String?

    init(_ values: ParsedValues) throws(RecError) {
        hosts = try HostChoice.given(values)
        timeoutText = try values.value(.timeout)
        session = try values.require(.session)
        all = values.flag(.allRunning)
        json = values.flag(.json)
        let frames: Int? = try values.value(.waitFrames)
        let until = try (values.value(.waitUntil) as String?).map { text throws(RecError) in try TimeParser.duration(text).seconds }
        let given = try (values.value(.timeout) as String?).map { text throws(RecError) in try TimeParser.duration(text).seconds }
        let timeout = given ?? StatusWait.defaultTimeout
        answerTimeout = given.map { .milliseconds(Int64(($0 * 1000).rounded())) } ?? ControlClient.defaultTimeout
        let error = values.flag(.waitError) ? true : nil
        if frames != nil || until != nil || error != nil { wait = StatusWait(frames: frames, ringEnd: until, error: error, timeout: timeout) }
    }

    func validate() throws(RecError) {
        if wait != nil && all { throw .usage("--wait-frames, --wait-until and --wait-error wait for one session; leave out --all") }
        if let problem = wait?.problem() {
            throw .usage(problem.replacingOccurrences(of: "'wait.frames'", with: "--wait-frames")
                .replacingOccurrences(of: "'wait.ring_end'", with: "--wait-until").replacingOccurrences(of: "'wait.timeout'", with: "--timeout"))
        }
    }

    func run(_ context: CommandContext) throws(RecError) -> Int32 {
        let boxes = try HostChoice.boxes(hosts, all: all, environment: context.environment)
        if !boxes.isLocalOnly { return runOnBoxes(boxes, context) }
        let runtime = RuntimeDirectory.current()
        if all { return runAll(context, runtime: runtime) }
        try SessionName.validate(session)
        let reply: ControlReply
        do {
            // The session answers a wait at its timeout: allow for that, and for a slow reply.
            let timeout = ControlClient.defaultTimeout + .milliseconds(Int64((wait?.seconds ?? 0) * 1000))
            reply = try ControlClient.send(.status(StatusRequest(wait: wait)), session: session, runtime: runtime, timeout: timeout)
        } catch {
            // Scripts asking for JSON about a session that is not there get a JSON answer.
            if json, let presence = try? runtime.inspect(session) {
                if case .running = presence { throw error }
                context.console.print(JSONText.encode(["session": session, "state": "absent"]))
                return 1
            }
            throw error
        }
        guard case .status(let status) = try reply.get() else { throw .runtime("the session answered status with something else") }
        context.console.print(json ? StatusText.json(status) : StatusText.text(status))
        if let wait, status.wait != .met {
            var goal: [String] = [], reached: [String] = []
            if let frames = wait.frames { goal.append("\(frames) frames"); reached.append("\(status.frames ?? 0) frames") }
            if let end = wait.ringEnd {
                goal.append("a buffer ending at \(String(format: "%g", end)) s")
                reached.append("a buffer ending at \(status.extra?["ring_end"].map { $0 + " s" } ?? "nothing")")
            }
            if wait.error == true { goal.append("an error"); reached.append(status.lastError.map { _ in "one" } ?? "none") }
            let when = status.wait == .ended ? "before its recording ended" : "within \(String(format: "%g", wait.seconds)) s"
            throw .runtime("session '\(session)' did not reach \(goal.joined(separator: " and ")) \(when); it has \(reached.joined(separator: " and "))")
        }
        return 0
    }
}

/// Internal, not private: the boxes' status commands (`StatusCommand+All`) are spelled with them.
extension ArgumentSpec {
    static let allRunning = flag("all", help: "Show every running session.")
    static let waitFrames = option("wait-frames", value: "count", help: "Wait until the session has captured this many frames.")
    static let waitUntil = option(
        "wait-until", value: "time", help: "Wait until the session's buffer reaches this time on its timeline, such as 10s."
    )
    static let waitError = flag("wait-error", help: "Wait until the session reports an error, such as a full disk.")
    static let timeout = option(
        "timeout", value: "time",
        help: "How long a wait lasts at most (10s unless given), or with --all how long each session may take to answer (5s unless given)."
    )
}
