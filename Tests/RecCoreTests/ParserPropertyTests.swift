import Foundation
import Testing
@testable import RecCore

/// Every parser meets hostile input (HostileInput: extremes, huge digit strings, empty, unicode,
/// seeded random mixes) and must throw or return a sane value, never trap.
@Suite("Parsers under hostile input")
struct ParserPropertyTests {
    enum Parser: String, CaseIterable, Sendable {
        case duration, position, wallClock, byteSize, source, frameSize, sessionName
    }

    /// A live session: ring 1–5 s, started at a real wall-clock time.
    static let live = Timeline(availableStart: .microseconds(1_000_000), availableEnd: .microseconds(5_000_000),
                               now: .microseconds(5_000_000), wallClockAtZero: .microseconds(1_764_424_985_000_000))

    @Test("a text parser throws or returns a sane value", arguments: Parser.allCases)
    func textParser(parser: Parser) {
        for text in HostileInput.all {
            switch parser {
            case .duration:
                if let t = try? TimeParser.duration(text) {
                    #expect(t.value >= 0, "\(text)")
                    _ = try? TimeSelection.last(t).resolve(on: Self.live)
                }
            case .position:
                if let spec = try? TimeParser.position(text, timeZone: TimeZone(identifier: "UTC")!) {
                    _ = try? TimeSelection(from: spec).resolve(on: Self.live)
                    _ = try? TimeSelection(from: .offset(.microseconds(1_500_000)), to: spec).resolve(on: Self.live)
                }
            case .wallClock:
                _ = WallClockParser.epochMicroseconds(text, timeZone: TimeZone(identifier: "Europe/Berlin")!)
            case .byteSize:
                if let bytes = try? ByteSize.parse(text) { #expect(bytes > 0, "\(text)") }
            case .source:
                if case .testPattern(_, _, let fps)? = try? SourceSpec.parse(text), let fps {
                    #expect((1...1000).contains(fps), "\(text)")
                }
            case .frameSize:
                if let size = FrameSize(text) { #expect(size.area > 0, "\(text)") }
            case .sessionName:
                if SessionName.isValid(text) {
                    #expect((1...SessionName.maxLength).contains(text.utf8.count) && !text.contains("/"), "\(text)")
                }
            }
        }
    }

    static let timeFields = [#""last":N"#, #""from":N"#, #""to":N"#, #""from":{"ago":N}"#, #""to":{"ago":N}"#,
                             #""from":{"unix":N}"#, #""to":{"unix":N}"#, #""last":{"ago":N}"#]

    @Test("a number in a save is refused with a usage error or resolves, never traps", arguments: timeFields)
    func controlNumbers(field: String) {
        for number in HostileInput.numbers(seed: 7) {
            let line = #"{"v":1,"id":1,"type":"save","output":"/tmp/x.mkv","# + field.replacingOccurrences(of: "N", with: number) + "}"
            switch ControlCodec.decodeRequest(Array(line.utf8)) {
            case .request(let request):
                guard case .save(let save) = request.command else { Issue.record("not a save: \(line)"); continue }
                _ = try? save.timeSelection().resolve(on: Self.live)
            case .rejected(let response):
                guard case .error(let error) = response.reply else { Issue.record("rejected without an error: \(line)"); continue }
                #expect(error.code != .runtime, "\(line): \(error.message)")
            }
        }
    }

    @Test("a time string in a save resolves or fails cleanly")
    func controlStrings() throws {
        for text in HostileInput.all {
            let escaped = String(data: try JSONEncoder().encode(text), encoding: .utf8)!
            for field in [#""from":"#, #""to":"#, #""last":"#] {
                let line = #"{"v":1,"id":1,"type":"save","output":"/tmp/x.mkv","# + field + escaped + "}"
                if case .request(let request) = ControlCodec.decodeRequest(Array(line.utf8)), case .save(let save) = request.command {
                    _ = try? save.timeSelection().resolve(on: Self.live)
                }
            }
        }
    }
}
