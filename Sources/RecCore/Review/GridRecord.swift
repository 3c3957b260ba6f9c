/// The records of the review server's `GET /api/grid` (docs/REVIEW.md): every live tile's stream in
/// one response, so that a browser's 6 connections to one server are not used up by 6 cameras. A
/// record is a 7-byte head — kind (u8), the camera's index in the request (u16), the payload's
/// length (u32), big-endian — and then the payload.
package enum GridRecord {
    package enum Kind: UInt8, Sendable, Equatable {
        /// Once, first: the cameras' names as a JSON array, in index order (camera index 0).
        case cameras = 0
        /// A camera's stream begins: the payload is its Content-Type, the mime for `addSourceBuffer`.
        case start = 1
        /// That camera's fragmented MP4: after a start, its init segment with a fragment that begins
        /// at a keyframe, then one fragment (a picture, with its sound) per record.
        case data = 2
        /// That camera's stream ended (the payload says why, as text); a start follows when it reopens.
        case end = 3
    }

    package static let headBytes = 7

    package static func make(_ kind: Kind, camera: Int, payload: some Collection<UInt8>) -> [UInt8] {
        precondition(camera >= 0 && camera <= 0xFFFF && payload.count <= 0xFFFF_FFFF)
        let n = UInt32(payload.count), c = UInt16(camera)
        var out: [UInt8] = [kind.rawValue, UInt8(c >> 8), UInt8(c & 0xFF),
                            UInt8(n >> 24), UInt8((n >> 16) & 0xFF), UInt8((n >> 8) & 0xFF), UInt8(n & 0xFF)]
        out.reserveCapacity(headBytes + payload.count)
        out.append(contentsOf: payload)
        return out
    }

    package struct Parsed: Sendable, Equatable {
        package var kind: UInt8
        package var camera: Int
        package var payload: ArraySlice<UInt8>
    }

    /// The whole records at the start of `bytes`, and how many bytes they take (the rest is a record
    /// still coming).
    package static func parse(_ bytes: [UInt8]) -> (records: [Parsed], used: Int) {
        var records: [Parsed] = [], at = 0
        while bytes.count - at >= headBytes {
            let length = bytes[(at + 3)..<(at + 7)].reduce(0) { $0 << 8 | Int($1) }
            guard bytes.count - at - headBytes >= length else { break }
            let camera = Int(bytes[at + 1]) << 8 | Int(bytes[at + 2])
            records.append(Parsed(kind: bytes[at], camera: camera, payload: bytes[(at + headBytes)..<(at + headBytes + length)]))
            at += headBytes + length
        }
        return (records, at)
    }
}

/// One grid viewer's queue of records: filled by the cameras' feeds, emptied by the
/// viewer's connection. A viewer that stops reading must not hold its sessions, so the queue is
/// bounded: past `maxBytes`, or when what it holds has waited more than `maxAge` seconds (the viewer
/// is that far behind the live edge), it is dropped — emptied and closed for good — and the page
/// connects again at the live edge. Dropping a camera's bytes instead would cut its fragmented MP4
/// mid-fragment and need a fresh init segment anyway. Pure: no threads, the time is given.
package struct GridQueue: Sendable {
    package let maxBytes: Int
    package let maxAge: Double
    private var records: [[UInt8]] = []
    package private(set) var bytes = 0
    /// When the oldest record still queued was pushed.
    private var oldest: Double?
    package private(set) var dropped = false

    package init(maxBytes: Int = 16 << 20, maxAge: Double = 10) {
        self.maxBytes = maxBytes
        self.maxAge = maxAge
    }

    /// Queues `record`; false when the viewer is dropped (now or before).
    package mutating func push(_ record: [UInt8], now: Double) -> Bool {
        if dropped { return false }
        if bytes + record.count > maxBytes || oldest.map({ now - $0 > maxAge }) == true {
            dropped = true
            records = []
            bytes = 0
            oldest = nil
            return false
        }
        if records.isEmpty { oldest = now }
        records.append(record)
        bytes += record.count
        return true
    }

    /// Everything queued, oldest first, as one run of bytes.
    package mutating func drain() -> [UInt8] {
        let out = records.count == 1 ? records[0] : Array(records.joined())
        records = []
        bytes = 0
        oldest = nil
        return out
    }

    package var isEmpty: Bool { records.isEmpty }
}
