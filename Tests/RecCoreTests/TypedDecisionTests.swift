import Foundation
import Testing

/// Issue 20, items 5 and 7: what a source can do is a property of its protocol
/// (`FrameSource.capabilities`), never learnt by casting it to a narrower type (a wrapping source
/// lost the camera's clock and reconnect that way); and behaviour is decided on typed values (an
/// errno, a codec id, an enum case), never on an error's text or a codec's name. Parsing what the
/// user typed (options, URLs, file names) is not a decision and is not matched.
@Suite struct TypedDecisionTests {
    static let downcasts: [(pattern: String, why: String)] = [
        (#"\b(as[?!]|is)\s+(any\s+)?\w*(Source|Sources|SourceClock|CompressedFrames|Reconnection)\b"#,
         "a source's capability learnt by a cast, not from `capabilities`"),
    ]

    static let strings: [(pattern: String, why: String)] = [
        (#"reason\??\.contains\("#, "an FFmpeg error told by its log text"),
        (#"\boperation\s*==\s*""#, "an error told by the text of its operation"),
        (#"\boperation\.(hasPrefix|hasSuffix|contains)\("#, "an error told by the text of its operation"),
        (#"hasSuffix\([^)]*errno"#, "an errno told by its text"),
        (#"hasPrefix\("av"#, "an error told by the FFmpeg function named in its text"),
        (#"\bcodecName\s*==\s*""#, "a codec told by its name, not its id (`CodecParameters.codec`)"),
        (#"switch\s+(\w+\.)*codecName\b"#, "a codec told by its name, not its id (`CodecParameters.codec`)"),
        (#"\bmediaType\s*==\s*""#, "a stream's kind told by its name (`isAudio`, `streamKind`)"),
        (#"\bcodec\s*:\s*String\b|\bsoundCodec\s*:"#, "a codec handed to a policy by name, not as a `Codec`"),
        (#"\b(target\.)?format\s*==\s*"(rtsp|flv|mpegts)""#, "a publish target told by its muxer's name (`kind`)"),
    ]


    static func scan(_ rules: [(pattern: String, why: String)], skipping: [String] = []) throws -> [String] {
        let sources = StreamShapeTests.sources
        let files = try #require(FileManager.default.enumerator(atPath: sources.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") && !skipping.contains(where: $0.hasPrefix) }
        #expect(files.count > 100)
        var found: [String] = []
        for file in files {
            let text = try String(contentsOfFile: sources.appendingPathComponent(file).path, encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                guard !code.hasPrefix("//") else { continue }
                for rule in rules where code.range(of: rule.pattern, options: .regularExpression) != nil {
                    found.append("\(file):\(number + 1): \(rule.why): \(code)")
                }
            }
        }
        return found
    }

    @Test func noSourceCapabilityIsFoundByACast() throws {
        let found = try Self.scan(Self.downcasts)
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }

    /// The two tables still keyed by FFmpeg's codec name: which containers hold a codec family and
    /// which encoder splices a codec. Their keys are shared with the presets' encoder families
    /// (`EncoderCatalog.codecFamily`, from presets/*.json), which name VP8, VP9 and AV1 that
    /// `Codec` does not; they are lookups of a name in a table, not a reading of an error's text.
    static let keyedByName = ["Media/Cut/ReencodeSettings.swift", "Media/Container/ContainerFormat.swift"]

    @Test func noBehaviourIsDecidedByAStringOfText() throws {
        let found = try Self.scan(Self.strings).filter { line in
            !(Self.keyedByName.contains(where: line.hasPrefix) && line.contains("codec: String"))
        }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }

    /// A force unwrap: `x!`, `f()!`, `a[i]!`, `list.min { … }!`, `try!`, `as!` (not `!=` or `!x`).
    static let forceUnwraps = [(pattern: #"[A-Za-z0-9_)\]}]!([^=]|$)|\btry!|\bas!"#, why: "a force unwrap")]

    /// No force unwrap (`x!`, `try!`, `as!`) outside the tests: a nil there is an error to throw,
    /// with what to try next, or a type that cannot be nil.
    @Test func noForceUnwrapsOutsideTheTests() throws {
        let found = try Self.scan(Self.forceUnwraps)
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }

    @Test(arguments: [
        "try muxer!.write(packet)",
        "self.source = src!",
        "if var placed = sound[p.stream]!.place(p) {",
        "let fastest = list.min { $0.doubleValue < $1.doubleValue }!",
        "let preset = try! Preset.parse(text, name: name, origin: \"built-in\")",
        "let camera = source as! V4L2Camera",
        "var frame: VideoFrame!",
    ])
    func theForceUnwrapRuleFindsThem(_ line: String) {
        #expect(line.range(of: Self.forceUnwraps[0].pattern, options: .regularExpression) != nil)
    }

    @Test(arguments: ["if !dryRun {", "guard count != 0 else { return }", "while !stopped {", "x = !(a && b)"])
    func theForceUnwrapRulePassesNegations(_ line: String) {
        #expect(line.range(of: Self.forceUnwraps[0].pattern, options: .regularExpression) == nil)
    }

    /// The rules match the shapes they were written for (else a typo would pass everything).
    @Test(arguments: [
        "let r = source as? ReconnectingSource,",
        "self.sourceInterrupt = (source as? InterruptibleSource)?.interrupt",
        "guard let camera = source as? ControllableSource else {",
        "state.withLock { $0.phase = .serving(controllable: source is ControllableSource, source: description) }",
        "} catch where error.reason?.contains(\"channel count\") == true {",
        "case ENOSPC where failure.operation == \"VIDIOC_STREAMON\": throw CameraFault.bandwidth(target)",
        "} catch where error.code == x && error.operation.hasPrefix(\"av_write_trailer\") {",
        "if source.parameters.codecName == \"ffv1\" && x {",
        "switch codecName {",
        "let audio = demuxer.streams.filter { $0.parameters.mediaType == \"audio\" }",
        "public func carries(soundCodec: String) -> Bool {",
        "case running(codec: String, profile: Int?)",
        "if target.format == \"rtsp\" { options[\"rtsp_transport\"] = \"tcp\" }",
    ])
    func theRulesFindTheOldShapes(_ line: String) {
        let rules = Self.downcasts + Self.strings
        #expect(rules.contains { line.range(of: $0.pattern, options: .regularExpression) != nil })
    }
}
