extension RingState {
    /// The packets a cut of `[from, to)` needs, of every stream, in the order they came: the
    /// timeline's from the keyframe at or before `from` through the last packet (in decode order)
    /// whose pts is before `to`, and every other stream's that play within the span those
    /// pictures present, widened by `leadTime` at each end (the clip writer cuts sound to the
    /// sample, and its decoder needs the packet or two before the first sample).
    ///
    /// That end rule is exact with B-frames: every frame presented before `to` is included, and so
    /// is every reference it has, because references are decoded before the frames using them.
    /// Later-decoded packets presented at or after `to` that lie in between (a P-frame that B-frames
    /// before `to` reference) are included too; the cut planner hides them. The search for that
    /// last packet assumes reordering never reaches past the second keyframe at or after `to`.
    ///
    /// Copies packet references only (the byte arrays are shared, not copied).
    package func snapshot(from: Timestamp, to: Timestamp) throws(RecError) -> [EncodedPacket] {
        guard from < to else {
            throw .reversedRange(from: from, to: to)
        }
        guard let start = firstPresentationTime, let servesFrom, let end = endTime else {
            throw .usage("the ring is empty: nothing has been recorded yet; try again in a moment")
        }
        guard from >= servesFrom, to <= end else {
            throw .unavailableRange(from: from, to: to, holder: "the ring", availableFrom: start, availableTo: end)
        }
        let first = keyframeIndices[keyframeSlot(atOrBefore: from) ?? 0]
        let slotAfter = firstKeyframeSlot(after: to, inclusive: true)
        let bound = slotAfter + 1 < keyframeIndices.count ? keyframeIndices[slotAfter + 1] : packets.count
        var last = bound - 1
        while last > first && !(packets[last].stream == timeline && packets[last].presentationTime < to) { last -= 1 }
        let pictures = packets[first...last].filter { $0.stream == timeline }
        // The pictures may present from their keyframe (--keyframe) and to their last frame's
        // end: the other streams cover whatever they can.
        let low = leadLine(before: min(from, pictures.map(\.presentationTime).min() ?? from))
        let highUS = max(to, pictures.map(\.endTime).max() ?? to).rescaled(to: .microseconds).value
        let high = Timestamp.microseconds(highUS + Self.leadTime.rescaled(to: .microseconds).value)
        return packets.indices.compactMap { i in
            let p = packets[i]
            if p.stream == timeline { return first <= i && i <= last ? p : nil }
            return low < p.endTime && p.presentationTime < high ? p : nil
        }
    }

    /// Drops the whole GOPs that end before `time` (for `rec save --clear`), keeping the GOP that
    /// contains it; returns how many packets were dropped.
    @discardableResult
    package mutating func clear(upTo time: Timestamp) -> Int {
        guard let slot = keyframeSlot(atOrBefore: time) else { return 0 }
        let dropped = dropLeading(upTo: keyframeIndices[slot])
        countCleared(dropped)
        return dropped
    }

    /// The presentation time of the earliest-presented frame captured at or after `captureTime`
    /// (on the session timeline), for wall-clock selections; nil if none is held or packets carry
    /// no capture times. A linear scan: it runs once per save.
    package func presentationTime(atCapture captureTime: Timestamp) -> Timestamp? {
        packets.lazy
            .filter { $0.stream == timeline }
            .filter { $0.captureTime.map { $0 >= captureTime } ?? false }
            .map(\.presentationTime)
            .min()
    }

    /// The slot in `keyframeIndices` of the last keyframe presented at or before `time`, or nil
    /// if `time` is before the first. Binary search: keyframe pts ascend in decode order.
    func keyframeSlot(atOrBefore time: Timestamp) -> Int? {
        let after = firstKeyframeSlot(after: time, inclusive: false)
        return after == 0 ? nil : after - 1
    }

    /// The first slot whose keyframe is presented after `time` (at or after it if `inclusive`);
    /// `keyframeIndices.count` if none.
    func firstKeyframeSlot(after time: Timestamp, inclusive: Bool) -> Int {
        var low = 0
        var high = keyframeIndices.count
        while low < high {
            let mid = (low + high) / 2
            let pts = packets[keyframeIndices[mid]].presentationTime
            if pts > time || (inclusive && pts == time) { high = mid } else { low = mid + 1 }
        }
        return low
    }
}
