/// One viewer's queue of live video fragments: bounded, so a slow viewer costs memory up to a cap
/// and never holds up the session. A viewer starts at a keyframe; when its queue is full, what it
/// holds is thrown away and it waits for the next keyframe (it skips ahead rather than falling
/// behind). After `maxSkips` skips in a row without draining it is closed. Pure: no threads.
package struct FragmentQueue: Sendable {
    package let maxFragments: Int
    package let maxBytes: Int
    package let maxSkips: Int
    package private(set) var fragments: [[UInt8]] = []
    package private(set) var bytes = 0
    package private(set) var waitingForKeyframe = true
    /// How many times the queue overflowed and skipped to a keyframe.
    package private(set) var skips = 0
    package private(set) var closed = false
    private var skipsSinceDrain = 0

    package init(maxFragments: Int = 90, maxBytes: Int = 8 << 20, maxSkips: Int = 5) {
        self.maxFragments = maxFragments
        self.maxBytes = maxBytes
        self.maxSkips = maxSkips
    }

    package enum Outcome: Sendable, Equatable { case queued, waiting, skipped, closed }

    package mutating func push(_ fragment: [UInt8], keyframe: Bool) -> Outcome {
        if closed { return .closed }
        if waitingForKeyframe {
            guard keyframe else { return .waiting }
            waitingForKeyframe = false
        }
        if fragments.count + 1 > maxFragments || bytes + fragment.count > maxBytes {
            fragments.removeAll()
            bytes = 0
            skips += 1
            skipsSinceDrain += 1
            if skipsSinceDrain > maxSkips {
                closed = true
                return .closed
            }
            if !keyframe {
                waitingForKeyframe = true
                return .skipped
            }
        }
        fragments.append(fragment)
        bytes += fragment.count
        return .queued
    }

    /// Everything queued, oldest first, as one run of bytes.
    package mutating func drain() -> [UInt8] {
        skipsSinceDrain = 0
        var out: [UInt8] = []
        out.reserveCapacity(bytes)
        for f in fragments { out += f }
        fragments.removeAll(keepingCapacity: true)
        bytes = 0
        return out
    }

    package mutating func close() { closed = true }
}
