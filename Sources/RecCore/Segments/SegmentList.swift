import Foundation

/// One file of a segmented recording.
package struct SegmentRecord: Sendable, Equatable {
    package enum State: Sendable, Equatable {
        /// Packets are still being written to it.
        case writing
        /// Rotated out; its file is being finished (trailer, MP4 rewrite) off the encode thread.
        case finishing
        /// Finished: a standard file, safe to read to the end or to delete.
        case done
    }

    package var path: String
    /// Session time of its first frame; the file's own timeline starts at 0 there.
    package var start: Timestamp
    /// Session time where the next segment starts; nil while it is written.
    package var end: Timestamp?
    /// Wall-clock time of its first frame (what its name says).
    package var startDate: Date
    package var bytes: Int64
    package var state: State

    package init(path: String, start: Timestamp, end: Timestamp? = nil, startDate: Date, bytes: Int64 = 0,
                state: State = .writing) {
        self.path = path
        self.start = start
        self.end = end
        self.startDate = startDate
        self.bytes = bytes
        self.state = state
    }

    /// Wall-clock time of its end, once it has one.
    package var endDate: Date? { end.map { startDate.addingTimeInterval($0.seconds - start.seconds) } }
}

/// The segments one recording has made and still keeps, oldest first, and the policy on them:
/// when to start the next one and which old ones to delete. Pure: the writer does the files.
package struct SegmentList: Sendable, Equatable {
    package let settings: SegmentSettings
    package private(set) var records: [SegmentRecord] = []

    package init(settings: SegmentSettings) {
        self.settings = settings
    }

    /// Whether a keyframe presented at `time` starts a new segment: the first one at or after the
    /// boundary following the current segment's start.
    package func startsSegment(keyframeAt time: Timestamp) -> Bool {
        guard let current = records.last else { return false }
        return time >= settings.boundary(after: current.start)
    }

    /// A new segment begins (the previous one, if any, is then finishing).
    package mutating func begin(path: String, start: Timestamp, date: Date) {
        if let last = records.indices.last {
            records[last].end = start
            records[last].state = .finishing
        }
        records.append(SegmentRecord(path: path, start: start, startDate: date))
    }

    /// A segment's file is finished at `bytes`.
    package mutating func finished(path: String, bytes: Int64) {
        guard let i = records.firstIndex(where: { $0.path == path }) else { return }
        records[i].state = .done
        records[i].bytes = bytes
    }

    /// The current segment has grown to `bytes`.
    package mutating func updateCurrent(bytes: Int64) {
        if let last = records.indices.last { records[last].bytes = bytes }
    }

    package mutating func remove(paths: [String]) {
        records.removeAll { paths.contains($0.path) }
    }

    /// The segments to delete now, oldest first: finished ones that ended before `now - keep`, then
    /// the oldest finished ones while all together take more than `maxBytes`. The newest segment
    /// and any still being written or finished are never chosen.
    package func expired(now: Date) -> [String] { retention(now: now).delete }

    /// What `--keep` and `--max-disk` delete now when the files in `held` are not yet copied off
    /// the box (`--upload`): those are kept, unless the disk would otherwise fill (`freeBytes`
    /// below `reserve`), and then the oldest of them go until the reserve is free again. Nothing
    /// that `expired` would not choose is ever deleted.
    package func retention(now: Date, held: Set<String> = [], freeBytes: Int64? = nil) -> SegmentRetention {
        let candidates = records.dropLast().filter { $0.state == .done }
        var chosen: [String] = []
        if let keep = settings.keep {
            let cutoff = now.addingTimeInterval(-keep.seconds)
            chosen = candidates.filter { ($0.endDate ?? now) < cutoff }.map(\.path)
        }
        if let maxBytes = settings.maxBytes {
            // Held files count: they take the disk all the same.
            var total = records.filter { !chosen.contains($0.path) || held.contains($0.path) }.reduce(Int64(0)) { $0 + $1.bytes }
            for r in candidates where total > maxBytes && !chosen.contains(r.path) {
                chosen.append(r.path)
                if !held.contains(r.path) { total -= r.bytes }
            }
        }
        let order = Dictionary(uniqueKeysWithValues: records.enumerated().map { ($1.path, $0) })
        chosen.sort { order[$0, default: 0] < order[$1, default: 0] }
        var result = SegmentRetention(delete: chosen.filter { !held.contains($0) })
        var kept = chosen.filter { held.contains($0) }
        let reserve = self.reserve
        if var free = freeBytes {
            free += records.filter { result.delete.contains($0.path) }.reduce(Int64(0)) { $0 + $1.bytes }
            while free < reserve, !kept.isEmpty {
                let path = kept.removeFirst()
                result.forced.append(path)
                free += records.first { $0.path == path }?.bytes ?? 0
            }
            result.delete = chosen.filter { result.delete.contains($0) || result.forced.contains($0) }
        }
        result.kept = kept
        return result
    }

    /// The free space below which the disk is about to fill: room for two more of the largest
    /// segment kept, and at least 256 MiB.
    package var reserve: Int64 {
        max(256 << 20, 2 * (records.map(\.bytes).max() ?? 0))
    }

    /// The segments holding any of `range` (session time), oldest first.
    package func covering(_ range: Range<Timestamp>) -> [SegmentRecord] {
        records.filter { $0.start < range.upperBound && ($0.end.map { $0 > range.lowerBound } ?? true) }
    }

    /// Session time of the oldest frame still kept in a file.
    package var start: Timestamp? { records.first?.start }
}

/// What retention does now (`SegmentList.retention`).
package struct SegmentRetention: Sendable, Equatable {
    /// Files to delete, oldest first: `forced` among them.
    package var delete: [String]
    /// Files deleted although not yet copied, because the disk would otherwise fill.
    package var forced: [String] = []
    /// Files retention would delete but keeps until they are copied.
    package var kept: [String] = []

    package init(delete: [String], forced: [String] = [], kept: [String] = []) {
        self.delete = delete
        self.forced = forced
        self.kept = kept
    }
}
