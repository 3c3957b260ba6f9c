/// Whether a packet of a camera's H.264 or H.265 (Annex B, as libavformat's RTP depacketizers
/// hand them out) begins a picture or continues the one before it.
///
/// libavformat's parser ends an access unit at a parameter set. A camera that sends its SPS and
/// PPS before every IDR slice (GStreamer's `rtph264pay config-interval=-1` on a picture of two
/// slices, as x264's zerolatency tune makes) puts parameter sets between one picture's slices,
/// so the parser hands out that picture as two packets of one time, both flagged as keyframes.
/// A picture is one frame: one count, one ring entry, one time. The slice header says which it
/// is: a picture's first slice has `first_mb_in_slice` 0 (H.264) or
/// `first_slice_segment_in_pic_flag` set (H.265); a later slice does not.
package enum PictureParts {
    /// What a packet of a camera's pictures is, judged by its first slice.
    package enum Part: Sendable, Equatable {
        /// Its first slice starts a picture.
        case picture
        /// Its first slice continues the picture before it.
        case continuation
        /// Annex B with no slice at all: parameter sets, a delimiter or SEI alone, as libavformat
        /// hands out what it has of an access unit when a connection ends between them and the
        /// slice. Such a packet is no picture: it goes with the next one.
        case sliceless
    }

    /// What the packet is: nil when it is not Annex B H.264 or H.265, where rec keeps the packet
    /// as it came. One pass over the units before the first slice: a picture's bytes are not
    /// read past its first slice header.
    package static func part(_ bytes: UnsafeRawBufferPointer, codec: Codec) -> Part? {
        guard codec == .h264 || codec == .hevc else { return nil }
        var units = 0
        var first: Bool?
        forEachUnit(bytes) { start, _ in
            units += 1
            first = sliceStart(bytes, at: start, codec: codec)
            return first == nil
        }
        if let first { return first ? .picture : .continuation }
        return units > 0 ? .sliceless : nil
    }

    /// Whether the packet's first slice starts a picture: nil when it has no slice (parameter
    /// sets alone) or is not Annex B, where rec keeps the packet as it came.
    package static func startsPicture(_ bytes: UnsafeRawBufferPointer, codec: Codec) -> Bool? {
        switch part(bytes, codec: codec) {
        case .picture: true
        case .continuation: false
        case .sliceless, nil: nil
        }
    }

    /// Whether the packet is Annex B with no slice at all (`Part.sliceless`).
    package static func isSliceless(_ bytes: UnsafeRawBufferPointer, codec: Codec) -> Bool {
        part(bytes, codec: codec) == .sliceless
    }

    /// What a continuation adds to the picture it continues: its bytes from its first slice on
    /// (start code included). The parameter sets and delimiters before that slice repeat the ones
    /// the picture began with, and a second SPS after a slice would end the access unit again.
    package static func continuation(_ bytes: UnsafeRawBufferPointer, codec: Codec) -> ArraySlice<UInt8> {
        var from = 0
        forEachUnit(bytes) { start, codeStart in
            guard sliceStart(bytes, at: start, codec: codec) != nil else { return true }
            from = codeStart
            return false
        }
        return Array(bytes[from...])[...]
    }

    /// For a NAL unit whose header is at `at`: nil if it is not a slice, else whether it is a
    /// picture's first slice.
    static func sliceStart(_ bytes: UnsafeRawBufferPointer, at: Int, codec: Codec) -> Bool? {
        switch codec {
        case .h264:
            // Coded slices, IDR or not (types 1 and 5); first_mb_in_slice is ue(v): 0 is a bit 1.
            let type = bytes[at] & 0x1F
            guard type == 1 || type == 5, at + 1 < bytes.count else { return nil }
            return bytes[at + 1] & 0x80 != 0
        default:
            // VCL units are types 0-31; the header is two bytes, then first_slice_segment_in_pic_flag.
            let type = (bytes[at] >> 1) & 0x3F
            guard type < 32, at + 2 < bytes.count else { return nil }
            return bytes[at + 2] & 0x80 != 0
        }
    }

    /// Calls `body` with the offset of each NAL unit's header and of its start code, until it
    /// returns false.
    static func forEachUnit(_ bytes: UnsafeRawBufferPointer, _ body: (_ header: Int, _ code: Int) -> Bool) {
        var i = 0
        while i + 3 < bytes.count {
            guard bytes[i] == 0, bytes[i + 1] == 0 else {
                i += bytes[i + 1] == 0 ? 1 : 2
                continue
            }
            if bytes[i + 2] == 1 {
                let code = i > 0 && bytes[i - 1] == 0 ? i - 1 : i
                guard body(i + 3, code) else { return }
                i += 3
            } else {
                i += 1
            }
        }
    }
}
