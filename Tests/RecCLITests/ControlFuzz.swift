import Foundation

/// Generated control traffic for the fuzz test: random bytes, truncated and mistyped JSON, deep
/// nesting, huge lines, extreme numbers and hostile output paths. Seeded, so a failure replays.
/// It never sends `stop`, and never `force` with a path outside `folder`.
struct ControlFuzz {
    var rng: SplitMix
    /// Where saves may legitimately write.
    let folder: String
    private(set) var clips = 0

    init(seed: UInt64, folder: String) {
        rng = SplitMix(seed: seed)
        self.folder = folder
    }

    static let hostilePaths = ["../../etc/passwd", "/etc/passwd", "/proc/self/mem", "/dev/null", "/", "", "relative.mp4",
                               "/nonexistent-rec-fuzz/x.mp4", "/etc/passwd\u{0}.mp4", "/proc/self/mem.mp4", "/etc",
                               "/tmp/../etc/passwd", "//etc//passwd", "/dev/zero", "/sys/kernel/notes"]
    static let numbers = ["-1e300", "1e300", "-1e18", "1e18", "9223372036854775807", "-9223372036854775808", "1e999",
                          "-0", "0", "1e9", "1000000001", "0.5", "1", "NaN", "Infinity", String(repeating: "9", count: 500)]
    static let times = ["\"-1s\"", "\"0.5s\"", "\"now\"", "\"1:30\"", "\"99:99\"", "\"2026-11-29T14:03:05Z\"", "\"9999999999h\"",
                        "\"-9223372036854775807us\"", "\"\"", "\"nan\"", "\"\\u0000\"", "true", "null", "[]", "{}", "{\"ago\":1e300}",
                        "{\"unix\":-1e18}", "{\"ago\":\"5\"}", "{\"ago\":0.5}", "{\"unix\":1764424985}"]

    mutating func pick<T>(_ items: [T]) -> T { items[Int(rng.next() % UInt64(items.count))] }
    mutating func chance(_ percent: UInt64) -> Bool { rng.next() % 100 < percent }

    /// One message, newline included unless it is meant to be truncated.
    mutating func message() -> [UInt8] {
        switch rng.next() % 10 {
        case 0: return (0..<Int(rng.next() % 300)).map { _ in UInt8(truncatingIfNeeded: rng.next()) } + [10]
        case 1: let full = Array(request().utf8); return Array(full.prefix(Int(rng.next() % UInt64(full.count)))) + [10]
        case 2: return Array(mistyped().utf8) + [10]
        case 3: let depth = Int(rng.next() % 30_000) + 1
            return Array((String(repeating: pick(["[", "{\"a\":"]), count: depth) + pick(["", "1", "]"])).utf8) + [10]
        case 4: return Array(repeating: pick([UInt8(ascii: "x"), UInt8(ascii: "{"), UInt8(ascii: " ")]), count: 66_000 + Int(rng.next() % 10_000)) + [10]
        default: return Array(request().utf8) + [10]
        }
    }

    /// A well-formed request with hostile values (a real clip or snapshot now and then).
    mutating func request() -> String {
        let id = pick(["1", "\"a\"", "-9223372036854775808", "9223372036854775807", "1.5", "null", "[1]"])
        switch rng.next() % 6 {
        case 0: return #"{"v":1,"id":\#(id),"type":"\#(pick(["status", "hello", "reboot", "", "STOP", "stop "]))"}"#
        case 1: return #"{"v":\#(pick(["1", "2", "-1", "1e300", "\"1\""])),"id":\#(id),"type":"status"}"#
        case 2 where chance(8):
            clips += 1
            return #"{"v":1,"id":1,"type":"save","last":0.5,"output":"\#(folder)/fz-\#(rng.next() % 1_000_000).mp4"}"#
        case 3 where chance(5):
            return #"{"v":1,"id":1,"type":"snapshot","output":"\#(folder)/fz-\#(rng.next() % 1_000_000).jpg"}"#
        case 4: return #"{"v":1,"id":1,"type":"snapshot","output":\#(json(pick(Self.hostilePaths)))}"#
        default:
            let range = pick([#""last":\#(pick(Self.numbers))"#, #""from":\#(pick(Self.times))"#,
                              #""from":{"ago":\#(pick(Self.numbers))},"to":\#(pick(Self.times))"#,
                              #""from":{"unix":\#(pick(Self.numbers))}"#, #""to":\#(pick(Self.numbers))"#])
            let output = chance(50) ? pick(Self.hostilePaths) : "\(folder)/fz-\(rng.next() % 1_000_000).\(pick(["mp4", "mkv", "txt", ""]))"
            return #"{"v":1,"id":\#(id),"type":"save",\#(range),"output":\#(json(output)),"keyframe":\#(pick(["true", "1", "\"no\""]))}"#
        }
    }

    mutating func mistyped() -> String {
        pick([#"{"v":"1","id":1,"type":"status"}"#, #"{"v":1,"id":{},"type":"status"}"#, #"{"v":1,"id":1,"type":5}"#,
              #"{"v":1,"id":1,"type":"save","output":42}"#, #"{"v":1,"id":1,"type":"save","output":"/x.mp4","from":true}"#,
              #"[1,2,3]"#, #""status""#, "null", "{}", #"{"v":1}"#, #"{"v":1,"id":1,"type":"save","output":null}"#,
              #"{"v":1,"id":1,"type":"save","output":"/x.mp4","force":"yes"}"#, "\u{FEFF}{\"v\":1,\"id\":1,\"type\":\"status\"}"])
    }

    private func json(_ text: String) -> String {
        String(decoding: (try? JSONEncoder().encode(text)) ?? Data("\"\"".utf8), as: UTF8.self)
    }
}

/// SplitMix64, seeded.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
