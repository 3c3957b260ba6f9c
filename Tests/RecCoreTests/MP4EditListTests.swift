import RecCore
import Testing

/// `MP4EditList.setDuration` on `moov` boxes built byte by byte: it must rewrite the last edit's
/// duration and the `tkhd` and `mvhd` durations, and not one other byte.
@Suite struct MP4EditListTests {
    typealias PatchError = MP4EditList.PatchError

    /// One edit, every box the same version; version 1 takes durations past `UInt32.max`.
    @Test(arguments: [(0 as UInt8, 3000 as UInt64, 2000 as UInt64, 1024 as Int64),
                      (1, 9_000_000_000, 5_000_000_123, 5_000_000_000)])
    func oneEditRewritesTheThreeDurations(version: UInt8, old: UInt64, new: UInt64, mediaTime: Int64) throws {
        let track = MovieBytes.Track(id: 7, version: version, duration: old, elstVersion: version, edits: [(old, mediaTime)])
        var bytes = MovieBytes.moov(version: version, duration: old, tracks: [track])
        try MP4EditList.setDuration(Int64(new), trackID: 7, moov: &bytes)
        let want = track.with([(new, mediaTime)])
        #expect(bytes == MovieBytes.moov(version: version, duration: new, tracks: [want]))
    }

    /// Every mix of mvhd, tkhd and elst versions: each field is found at its version's offset.
    @Test(arguments: [0, 1] as [UInt8], [0, 1] as [UInt8])
    func mixedVersions(tkhdVersion: UInt8, elstVersion: UInt8) throws {
        for mvhdVersion: UInt8 in [0, 1] {
            let track = MovieBytes.Track(id: 2, version: tkhdVersion, duration: 90_000, elstVersion: elstVersion,
                                         edits: [(90_000, 3003)])
            var bytes = MovieBytes.moov(version: mvhdVersion, duration: 90_000, tracks: [track])
            try MP4EditList.setDuration(45_045, trackID: 2, moov: &bytes)
            let want = track.with([(45_045, 3003)])
            #expect(bytes == MovieBytes.moov(version: mvhdVersion, duration: 45_045, tracks: [want]),
                    "mvhd v\(mvhdVersion) tkhd v\(tkhdVersion) elst v\(elstVersion)")
        }
    }

    /// An empty edit (media time -1) delays the start; only the last edit is shortened, by the
    /// empty edit's length, and the track lasts the sum of both. A duration inside the empty edit
    /// leaves a zero-length last edit, never a negative one.
    @Test(arguments: [(0 as UInt8, 2000 as Int64, 1500 as UInt64), (1, 2000, 1500), (0, 200, 0), (1, 500, 0)])
    func emptyEditThenEntry(elstVersion: UInt8, duration: Int64, lastEdit: UInt64) throws {
        let track = MovieBytes.Track(id: 1, version: 0, duration: 3500, elstVersion: elstVersion,
                                     edits: [(500, -1), (3000, 0)])
        var bytes = MovieBytes.moov(version: 0, duration: 3500, tracks: [track])
        try MP4EditList.setDuration(duration, trackID: 1, moov: &bytes)
        let want = track.with([(500, -1), (lastEdit, 0)])
        #expect(bytes == MovieBytes.moov(version: 0, duration: 500 + lastEdit, tracks: [want]))
    }

    /// Only the named track changes; the movie lasts as long as its longest track.
    @Test func otherTracksAreUntouchedAndMovieTakesTheLongest() throws {
        let video = MovieBytes.Track(id: 1, version: 0, duration: 3000, elstVersion: 0, edits: [(3000, 0)])
        let audio = MovieBytes.Track(id: 2, version: 1, duration: 4000, elstVersion: 1, edits: [(4000, 0)])
        var bytes = MovieBytes.moov(version: 0, duration: 4000, tracks: [video, audio])
        try MP4EditList.setDuration(2000, trackID: 1, moov: &bytes)
        let shortVideo = video.with([(2000, 0)])
        #expect(bytes == MovieBytes.moov(version: 0, duration: 4000, tracks: [shortVideo, audio]))

        var again = MovieBytes.moov(version: 0, duration: 4000, tracks: [video, audio])
        try MP4EditList.setDuration(1000, trackID: 2, moov: &again)
        let shortAudio = audio.with([(1000, 0)])
        #expect(again == MovieBytes.moov(version: 0, duration: 3000, tracks: [video, shortAudio]))
    }

    /// The moov may follow other top-level boxes and use a 64-bit size; the bytes around it stay.
    @Test func moovAfterFtypWithLargeSize() throws {
        let track = MovieBytes.Track(id: 1, version: 0, duration: 3000, elstVersion: 0, edits: [(3000, 0)])
        let ftyp = MovieBytes.box("ftyp", Array("isom\0\0\u{2}\0isomiso2".utf8))
        let payload = MovieBytes.moovPayload(version: 0, duration: 3000, tracks: [track])
        var bytes = ftyp + MovieBytes.largeBox("moov", payload) + MovieBytes.box("free", [9, 9, 9])
        try MP4EditList.setDuration(1234, trackID: 1, moov: &bytes)
        let want = track.with([(1234, 0)])
        let wantPayload = MovieBytes.moovPayload(version: 0, duration: 1234, tracks: [want])
        #expect(bytes == ftyp + MovieBytes.largeBox("moov", wantPayload) + MovieBytes.box("free", [9, 9, 9]))
    }

    @Test func boxesListsChildrenWithHeaderSizes() throws {
        let bytes = MovieBytes.box("ftyp", [1, 2, 3, 4]) + MovieBytes.largeBox("mdat", [5, 6]) + MovieBytes.box("free", [])
        func text(_ b: MP4EditList.Box) -> String { "\(b.type) \(b.start) \(b.payload) \(b.end)" }
        let boxes = try MP4EditList.boxes(in: bytes, range: 0..<bytes.count)
        #expect(boxes.map(text) == ["ftyp 0 8 12", "mdat 12 28 30", "free 30 38 38"])
        // Size 0 runs to the end of the range.
        let open = MovieBytes.box("ftyp", [1]) + [0, 0, 0, 0] + Array("mdat".utf8) + [7, 7, 7]
        #expect(try MP4EditList.boxes(in: open, range: 0..<open.count).map(text) == ["ftyp 0 8 9", "mdat 9 17 20"])
        // A sub-range: only the boxes inside it.
        #expect(try MP4EditList.boxes(in: bytes, range: 12..<30).map(text) == ["mdat 12 28 30"])
    }

    @Test func boxesRejectsOverrunsAndTinySizes() {
        var overrun = MovieBytes.box("trak", [1, 2, 3, 4])
        overrun[3] = 40
        #expect(throws: PatchError.malformed("trak box overruns its parent")) {
            try MP4EditList.boxes(in: overrun, range: 0..<overrun.count)
        }
        let tiny: [UInt8] = [0, 0, 0, 4] + Array("free".utf8)
        #expect(throws: PatchError.malformed("free box overruns its parent")) {
            try MP4EditList.boxes(in: tiny, range: 0..<tiny.count)
        }
        let truncatedLarge: [UInt8] = [0, 0, 0, 1] + Array("mdat".utf8) + [0, 0, 0]
        #expect(throws: PatchError.malformed("truncated mdat box")) {
            try MP4EditList.boxes(in: truncatedLarge, range: 0..<truncatedLarge.count)
        }
    }

    /// Each missing or malformed piece throws its own error and leaves the bytes as they were.
    @Test(arguments: BrokenMovie.allCases)
    func brokenMoovThrows(_ broken: BrokenMovie) {
        let original = broken.bytes
        var bytes = original
        #expect(throws: broken.error) { try MP4EditList.setDuration(broken.duration, trackID: 1, moov: &bytes) }
        #expect(bytes == original)
    }

    /// A `tkhd` too short for its fields is malformed input, which should throw, not trap.
    @Test func truncatedTkhdThrowsInsteadOfTrapping() {
        let head = MovieBytes.box("mvhd", MovieBytes.mvhdPayload(version: 0, duration: 10))
        var bytes = MovieBytes.box("moov", head + MovieBytes.box("trak", MovieBytes.box("tkhd", [0, 0, 0, 0])))
        #expect(throws: MP4EditList.PatchError.malformed("tkhd too short")) {
            try MP4EditList.setDuration(5, trackID: 1, moov: &bytes)
        }
    }
}

/// Ways a `moov` can be wrong, with the error each must produce.
enum BrokenMovie: CaseIterable, CustomTestStringConvertible, Sendable {
    case noMoov, noMvhd, noTkhd, noEdts, edtsWithoutElst, unknownTrack, zeroEdits, fewerEditsThanCounted
    case version0ElstTooLong, childOverrunsMoov

    var testDescription: String { "\(self)" }

    static let track = MovieBytes.Track(id: 1, version: 0, duration: 3000, elstVersion: 0, edits: [(3000, 0)])
    static var mvhd: [UInt8] { MovieBytes.box("mvhd", MovieBytes.mvhdPayload(version: 0, duration: 3000)) }

    var duration: Int64 { self == .version0ElstTooLong ? Int64(UInt32.max) + 1 : 2000 }

    var bytes: [UInt8] {
        let tkhd = MovieBytes.box("tkhd", MovieBytes.tkhdPayload(version: 0, id: 1, duration: 3000))
        let mdia = MovieBytes.box("mdia", [1, 2, 3])
        switch self {
        case .noMoov: return MovieBytes.box("ftyp", Array("isom".utf8)) + MovieBytes.box("free", [])
        case .noMvhd: return MovieBytes.box("moov", MovieBytes.trak(Self.track))
        case .noTkhd: return MovieBytes.box("moov", Self.mvhd + MovieBytes.box("trak", mdia))
        case .noEdts: return MovieBytes.box("moov", Self.mvhd + MovieBytes.box("trak", tkhd + mdia))
        case .edtsWithoutElst:
            return MovieBytes.box("moov", Self.mvhd + MovieBytes.box("trak", tkhd + MovieBytes.box("edts", []) + mdia))
        case .unknownTrack:
            var other = Self.track
            other.id = 9
            return MovieBytes.moov(version: 0, duration: 3000, tracks: [other])
        case .zeroEdits:
            var t = Self.track
            t.edits = []
            return MovieBytes.moov(version: 0, duration: 3000, tracks: [t])
        case .fewerEditsThanCounted:
            let elst = MovieBytes.box("elst", [0, 0, 0, 0, 0, 0, 0, 3] + MovieBytes.entry(version: 0, 3000, 0))
            return MovieBytes.box("moov", Self.mvhd + MovieBytes.box("trak", tkhd + MovieBytes.box("edts", elst)))
        case .version0ElstTooLong: return MovieBytes.moov(version: 0, duration: 3000, tracks: [Self.track])
        case .childOverrunsMoov:
            var bytes = MovieBytes.moov(version: 0, duration: 3000, tracks: [Self.track])
            bytes.replaceSubrange(8..<12, with: MovieBytes.be32(5000))  // mvhd claims to reach past the moov
            return bytes
        }
    }

    var error: MP4EditList.PatchError {
        switch self {
        case .noMoov: .missing("moov")
        case .noMvhd: .missing("mvhd")
        case .noTkhd: .missing("tkhd")
        case .noEdts, .edtsWithoutElst: .missing("elst")
        case .unknownTrack: .missing("track 1")
        case .zeroEdits, .fewerEditsThanCounted: .malformed("elst")
        case .version0ElstTooLong: .malformed("duration too long for a version 0 elst")
        case .childOverrunsMoov: .malformed("mvhd box overruns its parent")
        }
    }
}

/// MP4 boxes, byte by byte (ISO/IEC 14496-12). Every field that `setDuration` must not touch holds
/// a distinct non-zero pattern, so a write at a wrong offset changes the bytes.
enum MovieBytes {
    struct Track: Sendable {
        var id: UInt32
        var version: UInt8
        var duration: UInt64
        var elstVersion: UInt8
        /// (segment duration, media time) per edit; rate 1.0.
        var edits: [(UInt64, Int64)]

        /// The same track with other edits, lasting their sum.
        func with(_ edits: [(UInt64, Int64)]) -> Track {
            var t = self
            t.edits = edits
            t.duration = edits.reduce(0) { $0 + $1.0 }
            return t
        }
    }

    static func be32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (24 - 8 * $0)) } }
    static func be64(_ v: UInt64) -> [UInt8] { be32(UInt32(truncatingIfNeeded: v >> 32)) + be32(UInt32(truncatingIfNeeded: v)) }
    static func pattern(_ count: Int, _ seed: UInt8) -> [UInt8] { (0..<count).map { seed &+ UInt8($0) } }

    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        be32(UInt32(8 + payload.count)) + Array(type.utf8) + payload
    }

    /// A box with `size` 1 and a 64-bit size after the type.
    static func largeBox(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        be32(1) + Array(type.utf8) + be64(UInt64(16 + payload.count)) + payload
    }

    static func mvhdPayload(version: UInt8, duration: UInt64) -> [UInt8] {
        let times = version == 1 ? pattern(16, 0x10) : pattern(8, 0x10)
        let timescale = be32(600)
        let length = version == 1 ? be64(duration) : be32(UInt32(duration))
        return [version, 0, 0, 0] + times + timescale + length + pattern(80, 0x40)
    }

    static func tkhdPayload(version: UInt8, id: UInt32, duration: UInt64) -> [UInt8] {
        let times = version == 1 ? pattern(16, 0x20) : pattern(8, 0x20)
        let length = version == 1 ? be64(duration) : be32(UInt32(duration))
        return [version, 0, 0, 3] + times + be32(id) + [0xAA, 0xBB, 0xCC, 0xDD] + length + pattern(60, 0x80)
    }

    static func entry(version: UInt8, _ duration: UInt64, _ mediaTime: Int64) -> [UInt8] {
        let rate: [UInt8] = [0, 1, 0, 0]
        if version == 1 { return be64(duration) + be64(UInt64(bitPattern: mediaTime)) + rate }
        return be32(UInt32(duration)) + be32(UInt32(bitPattern: Int32(mediaTime))) + rate
    }

    static func trak(_ t: Track) -> [UInt8] {
        let tkhd = box("tkhd", tkhdPayload(version: t.version, id: t.id, duration: t.duration))
        let entries = t.edits.flatMap { entry(version: t.elstVersion, $0.0, $0.1) }
        let elst = box("elst", [t.elstVersion, 0, 0, 0] + be32(UInt32(t.edits.count)) + entries)
        let mdia = box("mdia", box("mdhd", pattern(24, UInt8(truncatingIfNeeded: t.id) &* 16)))
        return box("trak", tkhd + box("edts", elst) + mdia)
    }

    static func moovPayload(version: UInt8, duration: UInt64, tracks: [Track]) -> [UInt8] {
        box("mvhd", mvhdPayload(version: version, duration: duration)) + tracks.flatMap(trak) + box("udta", pattern(12, 0xC0))
    }

    static func moov(version: UInt8, duration: UInt64, tracks: [Track]) -> [UInt8] {
        box("moov", moovPayload(version: version, duration: duration, tracks: tracks))
    }
}
