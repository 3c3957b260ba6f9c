import Foundation
import RecCore

extension ArgumentSpec {
    /// `--host` of the session commands (docs/OFFSITE.md, "Several boxes").
    package static let host = option(
        "host", value: "box", repeatable: true,
        help: "Act on the sessions of this box instead: ssh://user@box[:port] through ssh, or local for this one."
    )
}

/// Which boxes a session command acts on.
enum HostChoice {
    /// The `--host` values as given, checked; empty when none was given.
    static func given(_ values: ParsedValues) throws(RecError) -> [String] {
        let texts = try values.values(.host, as: String.self)
        _ = try BoxList(texts)
        return texts
    }

    /// The boxes: `--host` as given; without it, for a command on every session (`--all`), the
    /// configuration's `"hosts"`; else this box alone. A configured list never turns a command
    /// aimed at one session (`rec stop`) into one on every box.
    static func boxes(_ given: [String], all: Bool, environment: [String: String]) throws(RecError) -> BoxList {
        if !given.isEmpty || !all { return try BoxList(given) }
        return try BoxList(UserConfig.load(environment: environment).hosts)
    }

    /// The arguments every box's rec gets after the command's own: it acts on its own sessions
    /// only, whatever its configuration lists.
    static let onItsOwn = ArgumentSpec.host.spelled(Box.localName)

    /// The runner for `environment`: ssh's connect bound and the bound on each box.
    static func runner(_ environment: [String: String], connect: Duration, timeout: Duration) -> BoxRunner {
        let seconds = Int((Double(connect.components.seconds) + Double(connect.components.attoseconds) / 1e18).rounded(.up))
        return BoxRunner(environment: environment, connectTimeout: max(1, seconds), timeout: timeout)
    }
}

/// A command aimed at one session run on each box (`rec stop`, `rec control`, `rec status`
/// without `--all`): each box's rec prints as it would at home, under a line naming the box; with
/// `--json`, an array of `{"box": …, "reply": …}` or `{"box": …, "error": …}`.
enum Forwarding {
    /// Runs `arguments` (a session command, without `--json`) on each box; exits 1 if any box did
    /// not run it, or its rec failed.
    static func run(_ arguments: [String], json: Bool, boxes: BoxList, runner: BoxRunner, context: CommandContext) -> Int32 {
        let words = Self.words(arguments, json: json)
        let answers = runner.run(boxes.boxes.map { BoxRunner.Job(box: $0, arguments: words) })
        var failed: [String] = []
        var entries: [[String: Any]] = []
        for (label, answer) in zip(boxes.labels, answers) {
            switch answer {
            case .success(let reply) where reply.status == 0:
                if json {
                    let value = try? JSONSerialization.jsonObject(with: reply.output, options: [.fragmentsAllowed])
                    entries.append(["box": label, "reply": value ?? String(decoding: reply.output, as: UTF8.self)])
                } else {
                    context.console.print("\(label):")
                    context.console.writeOutput(String(decoding: reply.output, as: UTF8.self))
                }
            case .success(let reply):
                failed.append(label)
                report(label, reply.failure, json: json, into: &entries, context)
            case .failure(let error):
                failed.append(label)
                report(label, error.message, json: json, into: &entries, context)
            }
        }
        if json {
            let data = (try? JSONSerialization.data(withJSONObject: entries, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("[]".utf8)
            context.console.print(String(decoding: data, as: UTF8.self))
        }
        guard failed.isEmpty else {
            context.console.printError("rec: \(failed.count) of \(boxes.boxes.count) boxes did not answer or failed (\(failed.joined(separator: ", ")))")
            return 1
        }
        return 0
    }

    /// What each box runs for `arguments`: with `--json` when `json`, and `--host local` (it acts
    /// on its own sessions only).
    static func words(_ arguments: [String], json: Bool) -> [String] {
        arguments + ArgumentSpec.json.spelled(if: json) + HostChoice.onItsOwn
    }

    private static func report(_ label: String, _ message: String, json: Bool, into entries: inout [[String: Any]], _ context: CommandContext) {
        if json {
            entries.append(["box": label, "error": message])
        } else {
            context.console.print("\(label): failed: \(message)")
        }
    }
}
