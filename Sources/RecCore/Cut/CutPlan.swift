/// How to cut `[requestedFrom, requestedTo)` out of a video stream so that the clip presents
/// exactly the frames whose pts fall in that range, from 0, with their original durations.
/// Made by `CutPlanner`; executed by the clip writer in `Media`.
///
/// All `Int64` fields are ticks of `timeBase`; all packet indices are decode-order indices into
/// the packets the plan was made from.
package struct CutPlan: Sendable, Equatable {
    package enum Mode: Sendable, Equatable {
        /// Present exactly the frames in the range.
        case exact
        /// `--keyframe`: start at the keyframe at or before the range's first frame, hide nothing.
        case keyframe
    }

    package enum Strategy: Sendable, Equatable {
        /// The container has edit lists (MP4, MOV): copy from a keyframe and hide the preroll and
        /// trailing references with an edit list from `firstPresentedPTS` to `presentedEndPTS`.
        case editList
        /// The container has none (Matroska, WebM): re-encode the frames before the first usable
        /// keyframe (and a tail that would otherwise present extra frames), copy the rest.
        case spliceReencode
    }

    package enum Segment: Sendable, Equatable {
        /// Copy these packets as they are.
        case copy(Range<Int>)
        /// Decode these packets and re-encode the frames whose pts lie in `presentPTS`.
        case reencode(decode: Range<Int>, presentPTS: Range<Int64>)
    }

    package var mode: Mode
    package var strategy: Strategy
    /// In clip order; copy segments start on keyframes.
    package var segments: [Segment]
    package var timeBase: Rational
    package var requestedFrom: Timestamp
    package var requestedTo: Timestamp
    /// The pts that becomes 0 in the clip.
    package var firstPresentedPTS: Int64
    /// The end (pts + duration) of the last frame presented.
    package var presentedEndPTS: Int64
    package var presentedFrames: Int
    /// Frames copied but hidden before the start by the edit list.
    package var prerollFrames: Int
    /// Frames copied only as references of earlier-presented frames, hidden after the end.
    package var trailingHiddenFrames: Int
    package var reencodedFrames: Int
    /// The pts of the keyframes copy segments start from.
    package var keyframesUsed: [Int64]
    /// The decode indices of those keyframes (a copy segment may also continue one before it,
    /// past left-out leading pictures).
    package var copiedKeyframes: [Int] = []

    /// The presented range on the source timeline.
    package var presentedStart: Timestamp { Timestamp(value: firstPresentedPTS, timeBase: timeBase) }
    package var presentedEnd: Timestamp { Timestamp(value: presentedEndPTS, timeBase: timeBase) }
    /// Whether any frame is decoded and encoded again.
    package var needsReencode: Bool { reencodedFrames > 0 }
}

extension CutPlan {
    /// The pts of the clip's video packets in the order they are written (`packets` are those the
    /// plan was made from): copied packets in decode order, re-encoded frames (no reordering) in
    /// presentation order.
    package func writtenPTS(_ packets: [PacketTiming]) -> [Int64] {
        segments.flatMap { segment -> [Int64] in
            switch segment {
            case .copy(let range): range.map { packets[$0].pts }
            case .reencode(let decode, let present): decode.map { packets[$0].pts }.filter(present.contains).sorted()
            }
        }
    }

    /// Whether the clip's copied keyframes carry the source's parameter sets in-band (H.264,
    /// HEVC): where a re-encoded segment may have put its own in a decoder, whichever keyframe a
    /// player seeks to must decode with the parameter sets it was encoded with. So whenever the
    /// plan re-encodes, and in every splice of a stream that reorders its frames (`packets`, the
    /// packets the plan was made from): a splice of B-frames almost always re-encodes its tail,
    /// which a cut written as its range is read (`StreamingCut`) learns only at the range's end,
    /// after its keyframes were written. The sets cost some 40 bytes a keyframe.
    package func carriesParameterSets(_ packets: [PacketTiming]) -> Bool {
        needsReencode || (strategy == .spliceReencode && DecodeTimes.reorders(packets))
    }

    /// Decode times for the clip's video packets, in the order they are written: rebuilt over the
    /// whole clip (`DecodeTimes.rebuilt`), so they span exactly what the clip presents. Kept from
    /// the source, a splice lost the copied frames' B-frame delay where re-encoded frames (decoded
    /// at their pts) met them, and the time of leading pictures left out of a copy: an MP4's
    /// sample table then said a shorter or longer clip than its frames (Chromium took 5.40 s for
    /// 5.48 s; GStreamer and MediaInfo counted 55 frames of 57). They lag at least
    /// `reorderDepth` frames, the source's declared reordering, so that a cut written as its range
    /// is read (`StreamingCut`) knows them before it has read the whole range.
    package func decodeTimes(_ packets: [PacketTiming], reorderDepth: Int = 0) -> [Int64] {
        DecodeTimes.rebuilt(pts: writtenPTS(packets), atLeast: reorderDepth)
    }
}
