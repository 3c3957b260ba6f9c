import Testing
@testable import RecCore

/// Numbers in a `save` that Swift arithmetic cannot hold are refused by the codec with a usage
/// error naming the allowed range, and the time arithmetic behind a save saturates instead of
/// trapping, so one message can never kill a session.
@Suite("Control ranges")
struct ControlRangeTests {
    static let extreme = [
        #""last":-1e300"#, #""last":1e300"#, #""from":{"ago":-1e300}"#, #""to":{"ago":-1e300}"#,
        #""from":{"ago":1e300}"#, #""from":{"unix":-1e18}"#, #""from":{"unix":1e300}"#, #""from":-1e300"#,
        #""to":1e19"#, #""from":{"ago":-5}"#, #""last":-1"#,
    ]

    @Test("out-of-range times get a usage error that says the range", arguments: extreme)
    func refused(field: String) {
        let line = #"{"v":1,"id":1,"type":"save","output":"/tmp/x.mkv","# + field + "}"
        guard case .rejected(let response) = ControlCodec.decodeRequest(Array(line.utf8)),
              case .error(let error) = response.reply else {
            Issue.record("\(field) was accepted")
            return
        }
        #expect(error.code == .usage)
        #expect(error.message.contains("between"), "\(error.message)")
    }

    @Test("times at the edges of the range are accepted", arguments: [
        #""last":1000000000"#, #""from":{"ago":0}"#, #""from":{"unix":0}"#, #""to":{"unix":10000000000}"#, #""from":0"#,
    ])
    func accepted(field: String) {
        let line = #"{"v":1,"id":1,"type":"save","output":"/tmp/x.mkv","# + field + "}"
        guard case .request = ControlCodec.decodeRequest(Array(line.utf8)) else {
            Issue.record("\(field) was refused")
            return
        }
    }

    static let live = Timeline(availableStart: .microseconds(1_000_000), availableEnd: .microseconds(5_000_000),
                               now: .microseconds(5_000_000), wallClockAtZero: .microseconds(1_700_000_000_000_000))

    static let saturated: [TimeSpec] = [
        .fromEnd(.microseconds(.min)), .fromEnd(.microseconds(.max)), .wallClock(.microseconds(.min)),
        .wallClock(.microseconds(.max)), .offset(.microseconds(.min)), .fromNow(.microseconds(.max)),
        .fromNow(.microseconds(.min)),
    ]

    @Test("saturated ends resolve to an error or a range, never a trap", arguments: saturated)
    func saturatedEnds(spec: TimeSpec) {
        _ = try? TimeSelection(from: spec).resolve(on: Self.live)
        _ = try? TimeSelection(from: .offset(.microseconds(2_000_000)), to: spec).resolve(on: Self.live)
        _ = try? TimeSelection.last(.microseconds(.min)).resolve(on: Self.live)
    }
}
