extension CutPlan {
    /// What `--dry-run` prints: the requested and presented ranges, the keyframes copies start
    /// from, what is hidden and what is re-encoded, one fact per line.
    package var summary: String {
        func clock(_ ticks: Int64) -> String { Timestamp(value: ticks, timeBase: timeBase).clockText }
        func frames(_ count: Int) -> String { count == 1 ? "1 frame" : "\(count) frames" }
        var lines = [
            ("requested", Timestamp.rangeText(requestedFrom, requestedTo)),
            ("presented", "\(Timestamp.rangeText(presentedStart, presentedEnd)) (\(frames(presentedFrames)))"),
            ("keyframes", keyframesUsed.isEmpty ? "none copied" : keyframesUsed.map(clock).joined(separator: ", ")),
        ]
        if mode == .keyframe {
            lines.append(("start", "moved back to the keyframe at \(presentedStart.clockText) (--keyframe)"))
        }
        switch strategy {
        case .editList:
            lines.append(("preroll", "\(frames(prerollFrames)) copied and hidden by the edit list"))
            lines.append(("trailing", "\(frames(trailingHiddenFrames)) copied as references and hidden"))
        case .spliceReencode:
            lines.append(("re-encoded", frames(reencodedFrames)))
        }
        var keyframes = keyframesUsed.makeIterator() // one per copy segment starting on a keyframe
        for segment in segments {
            switch segment {
            case .copy(let range):
                let from = copiedKeyframes.contains(range.lowerBound) ? "from the keyframe at \(keyframes.next().map(clock) ?? "?")" : "continuing"
                lines.append(("copy", "packets \(range.lowerBound)–\(range.upperBound - 1) \(from)"))
            case .reencode(let decode, let present):
                lines.append(("re-encode", "\(clock(present.lowerBound))–\(clock(present.upperBound)) "
                    + "decoding packets \(decode.lowerBound)–\(decode.upperBound - 1)"))
            }
        }
        let width = lines.map(\.0.count).max() ?? 0
        return lines.map { $0.0 + String(repeating: " ", count: width - $0.0.count + 2) + $0.1 }
            .joined(separator: "\n")
    }
}
