/// What a stream carries.
package enum StreamKind: String, Sendable, Hashable, Comparable, CaseIterable {
    case video, sound, data

    /// The kind's place in `allCases`: the order a file lists streams in.
    package var order: Int {
        switch self {
        case .video: 0
        case .sound: 1
        case .data: 2
        }
    }

    package static func < (a: StreamKind, b: StreamKind) -> Bool { a.order < b.order }

    // By the case, not the raw value: the standard library's defaults for a `String`-backed enum
    // hash and compare the text, and packets are looked up by stream some 20 times each on
    // their way to the file and ring (measured with callgrind: 6 % of a network camera's session).
    package static func == (a: StreamKind, b: StreamKind) -> Bool { a.order == b.order }
    package func hash(into hasher: inout Hasher) { hasher.combine(order) }
}

/// Names one stream of a session, file or clip: its kind, and which of that kind it is (the
/// first microphone is `.sound(0)`, the second `.sound(1)`). Every `EncodedPacket` names its
/// stream, and behaviour follows the kind, never a position: a muxer maps each stream it writes
/// to an output index of its own.
package struct StreamID: Hashable, Sendable, Comparable, CustomStringConvertible {
    package var kind: StreamKind
    package var number: Int

    package init(_ kind: StreamKind, _ number: Int = 0) {
        self.kind = kind
        self.number = number
    }

    /// A session's (first) picture stream.
    package static var video: StreamID { StreamID(.video) }
    package static func sound(_ number: Int) -> StreamID { StreamID(.sound, number) }

    package var isVideo: Bool { kind == .video }
    package var isSound: Bool { kind == .sound }

    /// Video first, then sound, then data; within a kind by number: the order a file lists them.
    package static func < (a: StreamID, b: StreamID) -> Bool {
        a.kind != b.kind ? a.kind < b.kind : a.number < b.number
    }

    package var description: String { "\(kind.rawValue) \(number)" }

    // Written out, not synthesized: the synthesized pair went through the protocol's witness
    // table even inside this module (perf, a network camera: a lookup in `CameraTimeline.place`
    // for every packet, ~1 % of the session's own time in the witness and its accessor).
    package static func == (a: StreamID, b: StreamID) -> Bool { a.number == b.number && a.kind.order == b.kind.order }
    package func hash(into hasher: inout Hasher) {
        hasher.combine(kind.order)
        hasher.combine(number)
    }
}
