extension FragmentSplitter {
    /// What the `moov` says that fragments need: which track holds the pictures and each track's
    /// default sample flags (`mvex/trex`).
    struct Movie: Sendable {
        /// Whether a `moov` was read.
        var seen = false
        /// The first track whose handler is `vide`; nil when there is none (every fragment is then
        /// judged by its first track).
        var pictures: UInt32?
        var trexFlags: [UInt32: UInt32] = [:]

        init() {}

        init(moov: ArraySlice<UInt8>) {
            seen = true
            for (type, body) in FragmentSplitter.children(moov) {
                if type == "trak", pictures == nil {
                    var id: UInt32?, handler: String?
                    for (inner, part) in FragmentSplitter.children(body) {
                        if inner == "tkhd", let version = part.first {
                            // version, flags; two times of 4 or 8 bytes; the track's ID
                            id = FragmentSplitter.read32(part.dropFirst(version == 1 ? 20 : 12))
                        } else if inner == "mdia" {
                            for (leaf, hdlr) in FragmentSplitter.children(part) where leaf == "hdlr" {
                                // version, flags, pre_defined; the handler type
                                handler = String(decoding: hdlr.dropFirst(8).prefix(4), as: UTF8.self)
                            }
                        }
                    }
                    if handler == "vide", let id { pictures = id }
                } else if type == "mvex" {
                    for (inner, trex) in FragmentSplitter.children(body) where inner == "trex" {
                        // version, flags, track ID, description index, duration, size, flags
                        trexFlags[FragmentSplitter.read32(trex.dropFirst(4))] = FragmentSplitter.read32(trex.dropFirst(20))
                    }
                }
            }
        }

        /// Whether the picture track's first sample in `moof` (its contents) is a sync sample.
        /// A fragment without the picture track is not one a viewer can start at.
        func startsWithKeyframe(moof: ArraySlice<UInt8>) -> Bool {
            for (type, traf) in FragmentSplitter.children(moof) where type == "traf" {
                var track: UInt32?, defaultFlags: UInt32?, first: UInt32?
                for (inner, part) in FragmentSplitter.children(traf) {
                    if inner == "tfhd" {
                        let flags = FragmentSplitter.read32(part) & 0xFF_FFFF
                        track = FragmentSplitter.read32(part.dropFirst(4))
                        // base data offset (8), description index, duration, size (4 each)
                        var at = 8
                        for (bit, bytes) in [(UInt32(0x01), 8), (0x02, 4), (0x08, 4), (0x10, 4)] where flags & bit != 0 { at += bytes }
                        if flags & 0x20 != 0 { defaultFlags = FragmentSplitter.read32(part.dropFirst(at)) }
                    } else if inner == "trun", first == nil {
                        first = Self.firstSampleFlags(trun: part)
                    }
                }
                guard let track, pictures == nil || track == pictures else { continue }
                let flags = first ?? defaultFlags ?? trexFlags[track] ?? 0
                return flags & 0x1_0000 == 0  // sample_is_non_sync_sample
            }
            return false
        }

        /// The first sample's flags as a run gives them, or nil when it leaves them to the defaults.
        static func firstSampleFlags(trun: ArraySlice<UInt8>) -> UInt32? {
            let flags = FragmentSplitter.read32(trun) & 0xFF_FFFF
            guard FragmentSplitter.read32(trun.dropFirst(4)) > 0 else { return nil }  // no samples
            var at = 8 + (flags & 0x01 != 0 ? 4 : 0)  // data offset
            if flags & 0x04 != 0 { return FragmentSplitter.read32(trun.dropFirst(at)) }
            guard flags & 0x400 != 0 else { return nil }
            if flags & 0x100 != 0 { at += 4 }  // duration
            if flags & 0x200 != 0 { at += 4 }  // size
            return FragmentSplitter.read32(trun.dropFirst(at))
        }
    }
}
