/// Splits a byte stream into newline-terminated lines: the framing of the control protocol.
///
/// Feed it whatever `read` returned; it hands back each complete line without its `\n` (and
/// without a `\r` before it). A line longer than `maxLineBytes` is reported once as
/// `.oversized` as soon as it passes the limit, and the framer then discards bytes up to the next
/// newline, so the stream stays in sync and the next line is read normally. Empty lines are
/// skipped. Pure state machine: no I/O, no threads.
package struct LineFramer: Sendable {
    /// What one `feed` produced, in stream order.
    package enum Event: Sendable, Equatable {
        /// A complete line, without its terminator.
        case line([UInt8])
        /// A line passed `maxLineBytes`; it is being discarded up to the next newline.
        case oversized(limit: Int)
    }

    /// The longest line accepted, in bytes, not counting the newline.
    package let maxLineBytes: Int
    private var buffer: [UInt8] = []
    private var discarding = false

    /// The control protocol's limit: 64 KiB per message.
    package static let defaultMaxLineBytes = 64 * 1024

    package init(maxLineBytes: Int = LineFramer.defaultMaxLineBytes) {
        precondition(maxLineBytes > 0, "a line limit must be positive")
        self.maxLineBytes = maxLineBytes
    }

    /// True when bytes of an unfinished line are held (or being discarded).
    package var hasPartialLine: Bool { !buffer.isEmpty || discarding }

    /// Takes the next bytes of the stream and returns the lines (and oversize reports) they complete.
    package mutating func feed(_ bytes: some Collection<UInt8>) -> [Event] {
        var events: [Event] = []
        var rest = bytes[...]
        while !rest.isEmpty {
            let newline = rest.firstIndex(of: UInt8(ascii: "\n"))
            let chunk = rest[..<(newline ?? rest.endIndex)]
            if !discarding {
                if buffer.count + chunk.count > maxLineBytes {
                    buffer.removeAll(keepingCapacity: false)
                    discarding = true
                    events.append(.oversized(limit: maxLineBytes))
                } else {
                    buffer.append(contentsOf: chunk)
                }
            }
            guard let newline else { break }
            if discarding {
                discarding = false
            } else if let line = takeLine() {
                events.append(.line(line))
            }
            rest = rest[rest.index(after: newline)...]
        }
        return events
    }

    /// Called at end of stream: a last line that lacked its newline is still delivered.
    package mutating func finish() -> Event? {
        defer { discarding = false }
        if discarding { return nil }
        return takeLine().map(Event.line)
    }

    private mutating func takeLine() -> [UInt8]? {
        var line = buffer
        buffer.removeAll(keepingCapacity: true)
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        return line.isEmpty ? nil : line
    }
}
