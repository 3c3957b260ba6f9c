import Foundation

/// One line of a motion index file (`<recording>.motion.jsonl`, docs/EVENTS.md): JSON, one
/// object a line, appended as the session goes, so that the file is whole up to its last line
/// after a kill -9. Times are session seconds (`t`); the header gives the wall clock of 0.
package struct MotionIndexLine: Sendable, Equatable, Codable {
    /// The header: the format's version, the session and its wall clock at session time 0.
    package var recMotion: Int?
    package var session: String?
    package var wallclock: Double?
    package var rate: Double?
    /// Session seconds the line is about (a second of levels, an event's start, a clip's start).
    package var t: Double?
    /// Levels of one second, one per 200 ms step, in thousandths (null: not analysed).
    package var m: [Int?]?
    /// Seconds from `t` on that were analysed and still.
    package var still: Int?
    /// An event's start (its id).
    package var start: Int?
    /// An event's end (its id), with where it ended (`to`), its peak and box.
    package var end: Int?
    package var to: Double?
    package var peak: Double?
    package var peakAt: Double?
    package var box: [Double]?
    /// A clip saved on motion: its path, range (`t` to `to`) and events; or why it was not saved.
    package var clip: String?
    package var events: [Int]?
    package var error: String?

    enum CodingKeys: String, CodingKey {
        case recMotion = "rec_motion", session, wallclock, rate, t, m, still, start, end, to, peak, peakAt = "peak_at", box
        case clip, events, error
    }

    package init() {}

    package static func header(session: String, wallclock: Double, rate: Double) -> MotionIndexLine {
        var line = MotionIndexLine()
        (line.recMotion, line.session, line.wallclock, line.rate) = (1, session, wallclock, rate)
        return line
    }

    package static func started(_ event: MotionEvent) -> MotionIndexLine {
        var line = MotionIndexLine()
        (line.start, line.t) = (event.id, rounded(event.start))
        return line
    }

    package static func ended(_ event: MotionEvent) -> MotionIndexLine {
        var line = MotionIndexLine()
        (line.end, line.t, line.to) = (event.id, rounded(event.start), rounded(event.end))
        (line.peak, line.peakAt) = (rounded(event.peak, places: 4), rounded(event.peakAt))
        line.box = event.box.map { [$0.x, $0.y, $0.width, $0.height].map { rounded($0, places: 4) } }
        return line
    }

    package static func clip(_ path: String?, from: Double, to: Double, events: [Int], error: String? = nil) -> MotionIndexLine {
        var line = MotionIndexLine()
        (line.clip, line.t, line.to, line.events, line.error) = (path ?? "", rounded(from), rounded(to), events, error)
        return line
    }

    /// The event an end line describes.
    package var event: MotionEvent? {
        guard let id = end ?? start, let t else { return nil }
        let box = self.box.flatMap { $0.count == 4 ? MotionRect(x: $0[0], y: $0[1], width: $0[2], height: $0[3]) : nil }
        return MotionEvent(id: id, start: t, end: to, peak: peak ?? 0, peakAt: peakAt, box: box)
    }

    /// The line as written: compact JSON and a newline.
    package var text: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(self)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// A line read back; nil for one that is not whole (the last line of a killed session).
    package init?(text: Substring) {
        guard let line = try? JSONDecoder().decode(MotionIndexLine.self, from: Data(text.utf8)) else { return nil }
        self = line
    }

    static func rounded(_ value: Double, places: Int = 3) -> Double {
        let scale = places == 3 ? 1000.0 : 10000.0
        return (value * scale).rounded() / scale
    }
}

/// Turns a session's levels and events into index lines as they come: a second of levels a
/// line while anything moves, and still seconds gathered into one line (at most a minute's).
package struct MotionIndexLineMaker: Sendable {
    private var second: Int?
    private var slots: [Int?] = Array(repeating: nil, count: 5)
    private var stillFrom: Int?
    private var stillSeconds = 0
    private static let longestStill = 60

    package init() {}

    /// The level analysed at `seconds`; returns the lines a finished second gives.
    package mutating func level(_ level: Double, at seconds: Double) -> [MotionIndexLine] {
        let whole = Int(seconds.rounded(.down))
        var lines: [MotionIndexLine] = []
        if let current = second, whole != current { lines = flushSecond() }
        second = whole
        let slot = min(4, max(0, MotionIndex.stepIndex(seconds - Double(whole))))
        let value = Int(min(1000, max(0, (level * 1000).rounded())))
        slots[slot] = max(slots[slot] ?? 0, value)
        return lines
    }

    /// Everything held, written out (before an event line, and when the session stops).
    package mutating func flush() -> [MotionIndexLine] {
        var lines = flushSecond()
        second = nil
        lines += flushStill()
        return lines
    }

    private mutating func flushSecond() -> [MotionIndexLine] {
        guard let whole = second else { return [] }
        defer { slots = Array(repeating: nil, count: 5) }
        let analysed = slots.compactMap { $0 }
        if !analysed.isEmpty, analysed.allSatisfy({ $0 == 0 }) {
            var lines: [MotionIndexLine] = []
            if let from = stillFrom, from + stillSeconds != whole { lines = flushStill() }
            if stillFrom == nil { stillFrom = whole }
            stillSeconds += 1
            if stillSeconds >= Self.longestStill { lines += flushStill() }
            return lines
        }
        var line = MotionIndexLine()
        (line.t, line.m) = (Double(whole), slots)
        return flushStill() + (analysed.isEmpty ? [] : [line])
    }

    private mutating func flushStill() -> [MotionIndexLine] {
        guard let from = stillFrom else { return [] }
        var line = MotionIndexLine()
        (line.t, line.still) = (Double(from), stillSeconds)
        (stillFrom, stillSeconds) = (nil, 0)
        return [line]
    }
}
