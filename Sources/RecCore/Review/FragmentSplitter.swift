/// Splits a fragmented MP4 byte stream (a session's `/live.mp4`) into its init segment and its
/// fragments as the bytes arrive, and says which fragments begin with a picture a decoder can
/// start at, so that the review server can read each camera's stream once and start any number of
/// viewers on it (docs/REVIEW.md). Pure: bytes in, pieces out.
///
/// The init segment is every top-level box before the first `moof` (`ftyp`, `moov`). A fragment is
/// the boxes from the one after the previous fragment (`styp`, `prft`, …) through a `moof` and the
/// `mdat` after it. A fragment is a keyframe when the first sample of the picture track's run is a
/// sync sample (ISO/IEC 14496-12 sample flags: `sample_is_non_sync_sample` clear), its flags read
/// from the run, the track fragment's defaults or the movie's `trex`, in that order.
package struct FragmentSplitter: Sendable {
    package enum Piece: Sendable, Equatable {
        case initSegment([UInt8])
        case fragment([UInt8], keyframe: Bool)
    }

    /// What makes a stream unreadable: a box that cannot be, or is larger than `maxBox`.
    package struct Malformed: Error, Equatable, CustomStringConvertible {
        package let description: String
    }

    /// The largest top-level box accepted (a live fragment is one picture).
    package static let maxBox = 64 << 20

    private var buffer: [UInt8] = []
    /// The boxes of the piece being put together.
    private var pending: [UInt8] = []
    private var pendingKeyframe: Bool?
    private var initDone = false
    private var movie = Movie()

    package init() {}

    /// Takes the next bytes of the stream; returns the pieces they complete.
    package mutating func push(_ bytes: some Collection<UInt8>) throws(Malformed) -> [Piece] {
        buffer.append(contentsOf: bytes)
        var pieces: [Piece] = [], at = 0
        while let (type, size) = try Self.head(buffer[...], at: at), buffer.count - at >= size {
            let box = buffer[at..<(at + size)]
            at += size
            if let piece = try take(type: type, box: box) { pieces.append(piece) }
        }
        buffer.removeFirst(at)
        return pieces
    }

    private mutating func take(type: String, box: ArraySlice<UInt8>) throws(Malformed) -> Piece? {
        var piece: Piece?
        if !initDone {
            if type == "moof" {
                guard movie.seen else { throw Malformed(description: "a moof came before the moov") }
                piece = .initSegment(pending)
                pending = []
                initDone = true
            } else if type == "moov" {
                movie = Movie(moov: Self.body(of: box))
            }
        }
        pending.append(contentsOf: box)
        guard initDone else { return piece }
        if type == "moof" {
            pendingKeyframe = movie.startsWithKeyframe(moof: Self.body(of: box))
        } else if type == "mdat", let keyframe = pendingKeyframe {
            let fragment = Piece.fragment(pending, keyframe: keyframe)
            pending = []
            pendingKeyframe = nil
            return fragment
        }
        return piece
    }

    // MARK: - Boxes

    /// The type and whole size of the box at `at`, or nil while its head has not all come.
    static func head(_ bytes: ArraySlice<UInt8>, at: Int) throws(Malformed) -> (String, Int)? {
        guard bytes.endIndex - at >= 8 else { return nil }
        let size32 = read32(bytes[at...]), type = String(decoding: bytes[(at + 4)..<(at + 8)], as: UTF8.self)
        var size = Int(size32)
        if size32 == 1 {
            guard bytes.endIndex - at >= 16 else { return nil }
            let large = UInt64(read32(bytes[(at + 8)...])) << 32 | UInt64(read32(bytes[(at + 12)...]))
            guard large <= UInt64(maxBox) else { throw Malformed(description: "a '\(type)' box of \(large) bytes") }
            size = Int(large)
            guard size >= 16 else { throw Malformed(description: "a '\(type)' box of \(size) bytes") }
        } else if size32 == 0 {
            throw Malformed(description: "a '\(type)' box that runs to the end of a stream that does not end")
        }
        guard size >= 8, size <= maxBox else { throw Malformed(description: "a '\(type)' box of \(size) bytes") }
        return (type, size)
    }

    /// A box's contents after its head.
    static func body(of box: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        let start = box.startIndex
        return read32(box) == 1 ? box[(start + 16)...] : box[(start + 8)...]
    }

    /// The boxes inside a container's contents, by type, each with its contents; a box that
    /// cannot be, or runs past the container, ends the list.
    static func children(_ contents: ArraySlice<UInt8>) -> [(type: String, body: ArraySlice<UInt8>)] {
        var out: [(String, ArraySlice<UInt8>)] = [], at = contents.startIndex
        while let (type, size) = (try? head(contents, at: at)) ?? nil, size <= contents.endIndex - at {
            out.append((type, body(of: contents[at..<(at + size)])))
            at += size
        }
        return out
    }

    /// The big-endian 32-bit number at the start of `bytes` (0 past their end).
    static func read32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        guard bytes.count >= 4 else { return 0 }
        let s = bytes.startIndex
        return UInt32(bytes[s]) << 24 | UInt32(bytes[s + 1]) << 16 | UInt32(bytes[s + 2]) << 8 | UInt32(bytes[s + 3])
    }
}
