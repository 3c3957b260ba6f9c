import Foundation
import RecCore
import Testing

@testable import RecCLI
@testable import RecClient
import TestPool

/// The configuration file: strict parsing with line and column, and the order built-in <
/// config file (top level < session section) < command line.
@Suite(.blocking) struct ConfigTests {
    /// A config home holding `text` as rec/config.json, and the environment that points at it.
    static func withConfig(_ text: String, _ body: ([String: String], String) throws -> Void) throws {
        let folder = try RecBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/rec", withIntermediateDirectories: true)
        try text.write(toFile: folder + "/rec/config.json", atomically: true, encoding: .utf8)
        try body(["XDG_CONFIG_HOME": folder, "HOME": folder], folder + "/rec/config.json")
    }

    static func settings(_ outcome: Outcome) throws -> [String: (value: String?, origin: String)] {
        let body = try #require(try JSONSerialization.jsonObject(with: Data(outcome.output.utf8)) as? [String: Any])
        var out: [String: (String?, String)] = [:]
        for item in body["settings"] as? [[String: Any]] ?? [] {
            out[item["name"] as? String ?? ""] = (item["value"] as? String, item["origin"] as? String ?? "")
        }
        return out
    }

    @Test func builtInThenFileThenSessionThenCommandLine() throws {
        let text = """
            {
              "buffer": "2m",
              "preset": "small",
              "output": "~/Videos/rec-%Y-%m-%d_%H-%M-%S.mp4",
              "sessions": {
                "garage": {
                  "preset": "quality"
                }
              }
            }
            """
        try Self.withConfig(text) { environment, path in
            let plain = try Self.settings(rec(["config", "--json"], environment: environment))
            #expect(plain["buffer-size"]?.value == "1G" && plain["buffer-size"]?.origin == "built-in")
            #expect(plain["buffer"]?.value == "2m" && plain["buffer"]?.origin == "\(path):2")
            #expect(plain["preset"]?.value == "small" && plain["preset"]?.origin == "\(path):3")
            #expect(plain["output"]?.value == environment["HOME"]! + "/Videos/rec-%Y-%m-%d_%H-%M-%S.mp4")
            #expect(plain["usr1-last"]?.value == "30s" && plain["usr1-last"]?.origin == "built-in")
            let garage = try Self.settings(rec(["config", "--json", "--session", "garage"], environment: environment))
            #expect(garage["preset"]?.value == "quality" && garage["preset"]?.origin == "\(path):7")
            let given = try Self.settings(rec(["config", "--json", "--session", "garage", "--preset", "lossless"], environment: environment))
            #expect(given["preset"]?.value == "lossless" && given["preset"]?.origin == "command line")
        }
    }

    @Test func commandsReadTheFileAndTheCommandLineWins() throws {
        try Self.withConfig(#"{"buffer": "90s", "source": "test", "output": "/tmp/rec-cfg-%Y.mkv"}"#) { environment, _ in
            let config = try UserConfig.load(environment: environment)
            let start = try StartCommand.parse([], config: config, environment: environment)
            #expect(start.buffer == "90s")
            #expect(start.capture.source == "test")
            #expect(start.output?.hasPrefix("/tmp/rec-cfg-2") == true)
            #expect(start.clipPattern == "/tmp/rec-cfg-%Y.mkv")
            let overridden = try StartCommand.parse(["--buffer", "10s", "--no-file"], config: config, environment: environment)
            #expect(overridden.buffer == "10s")
            #expect(overridden.output == nil)
            let segmented = try RecordCommand.parse(["--segment", "1m"], config: config, environment: environment)
            #expect(segmented.output == "/tmp/rec-cfg-%Y.mkv", "--segment names files from the pattern itself")
        }
    }

    @Test(arguments: [
        ("{\n  \"buffer\": \"2m\",\n}", 3, 1, "expected a key"),
        ("{\n  \"bufer\": \"2m\"\n}", 2, 3, "unknown key \"bufer\""),
        ("{\"usr1_last\": \"2m\"}", 1, 2, "did you mean \"usr1-last\""),
        ("{\n\n    \"buffer\": 5}", 3, 5, "must be a string"),
        ("{\"notify\": \"yes\"}", 1, 2, "true or false"),
        ("{\"sessions\": {\"a\": {\n \"buffer\": \"soon\"}}}", 2, 2, "\"buffer\""),
    ])
    func errorsNameTheLineAndColumn(_ text: String, _ line: Int, _ column: Int, _ words: String) throws {
        try Self.withConfig(text) { environment, path in
            let outcome = rec(["config"], environment: environment)
            #expect(outcome.status == 64)
            #expect(outcome.error.hasPrefix("rec: \(path):\(line):\(column): "), "\(outcome.error)")
            #expect(outcome.error.contains(words), "\(outcome.error)")
        }
    }

    /// Issue 40: the config file takes the motion and MQTT keys, and `rec config` shows the
    /// broker's, the cameras' and the destination's URLs without their passwords (it printed
    /// them whole).
    @Test func motionAndMQTTKeysAreReadAndPasswordsNeverShown() throws {
        let text = #"{"motion": true, "on-motion": "save", "pre-roll": "5s", "mqtt": "mqtt://cam:xyzzy51@broker.local/home","#
            + #" "source": "rtsp://u:xyzzy52@cam/main", "motion-source": "rtsp://u:xyzzy53@cam/sub","#
            + #" "upload": ":sftp,host=h,user=u,pass=xyzzy54:d"}"#
        try Self.withConfig(text) { environment, _ in
            for arguments in [["config"], ["config", "--json"]] {
                let outcome = rec(arguments, environment: environment)
                #expect(outcome.status == 0, "\(outcome.error)")
                #expect(!outcome.output.contains("xyzzy"), "\(outcome.output)")
            }
            let settings = try Self.settings(rec(["config", "--json"], environment: environment))
            #expect(settings["motion"]?.value == "true" && settings["pre-roll"]?.value == "5s" && settings["on-motion"]?.value == "save")
            #expect(settings["mqtt"]?.value?.contains("broker.local") == true, "\(settings["mqtt"] ?? (nil, ""))")
        }
    }

    @Test func aMissingFileIsAnEmptyConfiguration() throws {
        let outcome = rec(["config"], environment: ["XDG_CONFIG_HOME": "/nonexistent-rec-config"])
        #expect(outcome.status == 0)
        #expect(outcome.output.contains("/nonexistent-rec-config/rec/config.json"))
        #expect(outcome.output.contains("built-in"))
    }
}
