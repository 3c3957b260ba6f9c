import Foundation

/// `~/.config/rec/config.json` (or `$XDG_CONFIG_HOME/rec/config.json`): the defaults people would
/// otherwise type every time. Keys are the command-line option names; a `"sessions"` object holds
/// per-session sections that override the top level for `--session NAME`:
///
///     {
///       "source": "/dev/video0", "preset": "h264-fast", "buffer": "2m",
///       "output": "~/Videos/rec-%Y-%m-%d_%H-%M-%S.mp4", "notify": true,
///       "sessions": { "garage": { "source": "/dev/video2", "usr1-last": "1m" } }
///     }
///
/// Parsed with the strict `JSONParser`, so mistakes are reported with their line and column.
/// A value applies to every command that declares the option; the command line overrides it.
package struct UserConfig: Sendable, Equatable {
    /// One value from the file: the option's text, and where in the file it was set.
    package struct Entry: Sendable, Equatable {
        package var value: String
        package var line: Int
    }

    /// A key the file may hold, its type and what it means.
    package struct Key: Sendable, Equatable {
        package enum Kind: Sendable, Equatable { case text, time, bytes, number, flag, pattern }
        package var name: String
        package var kind: Kind
        package var help: String
    }

    package static let keys: [Key] = [
        Key(name: "source", kind: .text, help: "Where frames come from: a camera such as /dev/video0, 'test', or a file."),
        Key(name: "preset", kind: .text, help: "The encoding preset; 'rec presets' lists them."),
        Key(name: "size", kind: .text, help: "The frame size to capture, such as 1280x720."),
        Key(name: "fps", kind: .number, help: "The frame rate to capture at."),
        Key(name: "buffer", kind: .time, help: "How much recent video a session keeps in memory."),
        Key(name: "buffer-size", kind: .bytes, help: "The most memory a session's buffer may use."),
        Key(name: "output", kind: .pattern,
            help: "The file name pattern used when -o is not given, with time fields such as %Y-%m-%d_%H-%M-%S."),
        Key(name: "usr1-last", kind: .time, help: "How much a session saves when it receives SIGUSR1."),
        Key(name: "upload", kind: .text, help: "Copy finished files and saved clips to this rclone remote path or folder."),
        Key(name: "upload-limit", kind: .text, help: "The most bandwidth the copies may take, such as 2M."),
        Key(name: "notify", kind: .flag, help: "Send a desktop notification with the clip's path after each save."),
        Key(name: "motion", kind: .flag, help: "Sessions watch their pictures for motion (docs/EVENTS.md)."),
        Key(name: "on-motion", kind: .text, help: "save: a session saves each motion event as a clip."),
        Key(name: "pre-roll", kind: .time, help: "How much before the motion a clip saved on motion starts."),
        Key(name: "post-roll", kind: .time, help: "How much after the motion a clip saved on motion ends."),
        Key(name: "motion-fps", kind: .number, help: "Pictures judged for motion a second."),
        Key(name: "motion-source", kind: .text, help: "A smaller stream of the session's camera to judge motion on."),
        Key(name: "mqtt", kind: .text, help: "The MQTT broker a session publishes motion and saves to, such as mqtt://user:password@broker.local."),
    ]

    /// The file's path (whether or not it exists).
    package var path: String
    /// Whether the file was found; a missing file is an empty configuration.
    package var exists: Bool
    package var top: [String: Entry]
    package var sessions: [String: [String: Entry]]
    /// `"hosts"`: the boxes `rec status --all` and `rec save --all` act on when no `--host` is
    /// given (docs/OFFSITE.md, "Several boxes"), as written; checked when the file is read.
    package var hosts: [String] = []

    /// The key of the boxes' list.
    package static let hostsKey = "hosts"

    package init(path: String, exists: Bool = false, top: [String: Entry] = [:], sessions: [String: [String: Entry]] = [:]) {
        self.path = path
        self.exists = exists
        self.top = top
        self.sessions = sessions
    }

    /// `$XDG_CONFIG_HOME/rec/config.json` when that is an absolute path, else `$HOME/.config/rec/config.json`.
    package static func path(environment: [String: String]) -> String {
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") { return xdg + "/rec/config.json" }
        return (environment["HOME"] ?? NSHomeDirectory()) + "/.config/rec/config.json"
    }

    /// Reads and checks the configuration file; a missing file is an empty configuration.
    package static func load(environment: [String: String]) throws(RecError) -> UserConfig {
        let path = path(environment: environment)
        guard FileManager.default.fileExists(atPath: path) else { return UserConfig(path: path) }
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw .usage("cannot read the configuration file \(path) as UTF-8 text; check its permissions", location: path)
        }
        return try parse(text, path: path)
    }

    /// The values that apply to `session`: its own section over the top level.
    package func entries(session: String) -> [String: Entry] {
        top.merging(sessions[session] ?? [:]) { _, own in own }
    }

    /// `~/…` with the home folder in place of `~`.
    package static func expandTilde(_ path: String, environment: [String: String]) -> String {
        guard path == "~" || path.hasPrefix("~/") else { return path }
        return (environment["HOME"] ?? NSHomeDirectory()) + path.dropFirst()
    }

    /// A file name from an `output` pattern at `date`: time fields filled in (or the time added
    /// before the extension when there are none), and `-1`, `-2`… added if the file exists.
    package static func fileName(pattern: String, date: Date = Date(), exists: (String) -> Bool = FileManager.default.fileExists(atPath:))
        throws(RecError) -> String {
        SegmentNaming.unique(try SegmentNaming(path: pattern).expand(date), exists: exists)
    }
}
