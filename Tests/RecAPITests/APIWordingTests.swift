import Foundation
import Testing
@testable import Rec

/// Issue 41: the library speaks of its API, not of the command line's options. White-box (the
/// one `@testable` test of this target): every message literal in the modules a session runs
/// (capture, setup, encoding, media, the recorder) that names an option is read through
/// `APIWording`, and none may still name one. ErrorKindTests checks the errors it provokes.
@Suite struct APIWordingTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let folders = ["Sources/Capture", "Sources/CaptureSetup", "Sources/Encoding", "Sources/Media", "Sources/Session/Recorder",
                          "Sources/RecCore/Audio", "Sources/RecCore/SourceSpec.swift", "Sources/RecCore/OutputPath.swift",
                          "Sources/RecCore/Time/RecError+Time.swift"]

    /// String literals naming an option (`--x`) or a command (`` `rec x` ``), outside comments.
    static func messages() throws -> [(String, String)] {
        var found: [(String, String)] = []
        for folder in folders {
            let url = root.appendingPathComponent(folder)
            let files = url.pathExtension == "swift" ? [url]
                : (FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? [])
            for file in files where file.pathExtension == "swift" {
                for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
                    let code = line.trimmingCharacters(in: .whitespaces)
                    guard !code.hasPrefix("//") else { continue }
                    for literal in code.split(separator: "\"", omittingEmptySubsequences: false).enumerated() where literal.offset % 2 == 1 {
                        let text = String(literal.element)
                        if text.contains("--") || text.contains("`rec ") || text.contains("'rec ") {
                            found.append((file.lastPathComponent, text))
                        }
                    }
                }
            }
        }
        return found
    }

    @Test func everyPatternCompiles() {
        #expect(APIWording.rules.count == APIWording.patterns.count)
    }

    @Test func noMessageNamesACommandLineOptionOnceReworded() throws {
        let messages = try Self.messages()
        #expect(messages.count > 50, "found \(messages.count) messages; the scan is broken")
        // Options of command-line features the library does not have (segments, uploads, the
        // control socket, hosts, the live page): their messages cannot come from a session.
        let cliOnly = ["--segment", "--upload", "--control", "--host", "--publish", "--http", "--keep", "--max-disk", "--on-save",
                       "--session", "--mqtt", "--foreground", "--user", "--motion", "--set-fmt-video", "--cursor", "--keyframe",
                       "--reencode", "--all", "--clear", "--no-upload", "--json", "--stats", "--retries", "--contimeout", "--timeout",
                       "--low-level-retries", "--bwlimit", "--ask-password", "--log-level", "--no-check-dest", "--hash-type",
                       "--files-only", "--pdeathsig", "--stat", "--start", "--buffer-size", "--on-unplug", "--upload-limit"]
        for (file, text) in messages {
            let reworded = APIWording.message(text)
            let left = reworded.split(separator: " ").filter { word in
                word.hasPrefix("--") && !cliOnly.contains(where: { word.hasPrefix($0) }) || word.hasPrefix("`rec")
            }
            #expect(left.isEmpty, "\(file): \"\(text)\" → \"\(reworded)\"")
        }
    }

    @Test func aMessageReadsInTheAPIsWords() {
        #expect(APIWording.message("/tmp/a.mp4 already exists; pass --force to overwrite it, or choose another -o")
                == "/tmp/a.mp4 already exists; pass `overwrite: true` to replace it, or choose another path")
        #expect(APIWording.message("no cameras found (no /dev/video* capture device); use --source test for the built-in stand-in camera")
                == "no cameras found (no /dev/video* capture device); use `Source.testPattern` for the built-in stand-in camera")
        #expect(APIWording.message("no frame arrived within 5.0 s; check the source, or raise --start-timeout")
                == "no frame arrived within 5.0 s; check the source")
    }
}
