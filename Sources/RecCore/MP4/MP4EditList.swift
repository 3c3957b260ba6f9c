/// Sets how long a track of an MP4/MOV file is presented, by rewriting its edit list in place.
///
/// FFmpeg's MP4 muxer writes an edit list that starts the presentation where a cut begins (hiding
/// the preroll before it) but ends it at the last sample's end, so frames decoded only as
/// references after a cut's end would show. This rewrites the fixed-size duration fields of the
/// last `elst` entry, `tkhd` and `mvhd`; the file's size and layout do not change. Works on the
/// bytes of the `moov` box, so it is tested without files.
package enum MP4EditList {
    package struct Box: Equatable {
        package var type: String
        /// Offset of the box header and of its payload within the buffer, and its end.
        package var start: Int
        package var payload: Int
        package var end: Int
    }

    package enum PatchError: Error, Equatable {
        case malformed(String)
        case missing(String)
    }

    /// The boxes directly inside `range` of `bytes`.
    package static func boxes(in bytes: [UInt8], range: Range<Int>) throws(PatchError) -> [Box] {
        var result: [Box] = []
        var at = range.lowerBound
        while at + 8 <= range.upperBound {
            var size = Int(readUInt32(bytes, at))
            let type = String(decoding: bytes[(at + 4)..<(at + 8)], as: UTF8.self)
            var header = 8
            if size == 1 {
                guard at + 16 <= range.upperBound else { throw .malformed("truncated \(type) box") }
                size = Int(readUInt64(bytes, at + 8))
                header = 16
            } else if size == 0 {
                size = range.upperBound - at
            }
            guard size >= header, at + size <= range.upperBound else { throw .malformed("\(type) box overruns its parent") }
            result.append(Box(type: type, start: at, payload: at + header, end: at + size))
            at += size
        }
        return result
    }

    /// Rewrites, in a `moov` box's bytes, the presentation duration of the track with `trackID`:
    /// its last edit's duration becomes `duration` minus any empty edits before it, and `tkhd` and
    /// `mvhd` durations are updated to match. `duration` is in the movie time scale (`mvhd`).
    package static func setDuration(_ duration: Int64, trackID: UInt32, moov bytes: inout [UInt8]) throws(PatchError) {
        let top = try boxes(in: bytes, range: 0..<bytes.count)
        guard let moov = top.first(where: { $0.type == "moov" }) else { throw .missing("moov") }
        let inside = try boxes(in: bytes, range: moov.payload..<moov.end)
        guard let mvhd = inside.first(where: { $0.type == "mvhd" }) else { throw .missing("mvhd") }
        var maxTrackDuration: Int64 = 0
        var found = false
        for trak in inside where trak.type == "trak" {
            let parts = try boxes(in: bytes, range: trak.payload..<trak.end)
            guard let tkhd = parts.first(where: { $0.type == "tkhd" }) else { throw .missing("tkhd") }
            guard tkhd.end - tkhd.payload >= 24, tkhd.end - tkhd.payload >= (bytes[tkhd.payload] == 1 ? 36 : 24) else {
                throw .malformed("tkhd too short")
            }
            let v1 = bytes[tkhd.payload] == 1
            let idOffset = tkhd.payload + (v1 ? 20 : 12)
            let durationOffset = tkhd.payload + (v1 ? 28 : 20)
            var trackDuration = v1 ? Int64(readUInt64(bytes, durationOffset)) : Int64(readUInt32(bytes, durationOffset))
            if readUInt32(bytes, idOffset) == trackID {
                found = true
                guard let edts = parts.first(where: { $0.type == "edts" }),
                      let elst = try boxes(in: bytes, range: edts.payload..<edts.end).first(where: { $0.type == "elst" })
                else { throw .missing("elst") }
                guard elst.end - elst.payload >= 8 else { throw .malformed("elst") }
                let ev1 = bytes[elst.payload] == 1
                let count = Int(readUInt32(bytes, elst.payload + 4))
                let entrySize = ev1 ? 20 : 12
                guard count >= 1, elst.payload + 8 + count * entrySize <= elst.end else { throw .malformed("elst") }
                var before: Int64 = 0
                for i in 0..<(count - 1) {
                    let e = elst.payload + 8 + i * entrySize
                    before += ev1 ? Int64(readUInt64(bytes, e)) : Int64(readUInt32(bytes, e))
                }
                let last = elst.payload + 8 + (count - 1) * entrySize
                let segment = max(0, duration - before)
                if ev1 { writeUInt64(&bytes, last, UInt64(segment)) } else {
                    guard segment <= Int64(UInt32.max) else { throw .malformed("duration too long for a version 0 elst") }
                    writeUInt32(&bytes, last, UInt32(segment))
                }
                trackDuration = before + segment
                if v1 { writeUInt64(&bytes, durationOffset, UInt64(trackDuration)) } else {
                    writeUInt32(&bytes, durationOffset, UInt32(clamping: trackDuration))
                }
            }
            maxTrackDuration = max(maxTrackDuration, trackDuration)
        }
        guard found else { throw .missing("track \(trackID)") }
        guard mvhd.end - mvhd.payload >= 20 else { throw .malformed("mvhd too short") }
        let mv1 = bytes[mvhd.payload] == 1
        guard mvhd.end - mvhd.payload >= (mv1 ? 32 : 20) else { throw .malformed("mvhd too short") }
        let mvDuration = mvhd.payload + (mv1 ? 24 : 16)
        if mv1 { writeUInt64(&bytes, mvDuration, UInt64(maxTrackDuration)) } else {
            writeUInt32(&bytes, mvDuration, UInt32(clamping: maxTrackDuration))
        }
    }

    package static func readUInt32(_ b: [UInt8], _ at: Int) -> UInt32 {
        UInt32(b[at]) << 24 | UInt32(b[at + 1]) << 16 | UInt32(b[at + 2]) << 8 | UInt32(b[at + 3])
    }

    package static func readUInt64(_ b: [UInt8], _ at: Int) -> UInt64 {
        UInt64(readUInt32(b, at)) << 32 | UInt64(readUInt32(b, at + 4))
    }

    static func writeUInt32(_ b: inout [UInt8], _ at: Int, _ v: UInt32) {
        for i in 0..<4 { b[at + i] = UInt8(truncatingIfNeeded: v >> (24 - 8 * i)) }
    }

    static func writeUInt64(_ b: inout [UInt8], _ at: Int, _ v: UInt64) {
        writeUInt32(&b, at, UInt32(truncatingIfNeeded: v >> 32))
        writeUInt32(&b, at + 4, UInt32(truncatingIfNeeded: v))
    }
}
