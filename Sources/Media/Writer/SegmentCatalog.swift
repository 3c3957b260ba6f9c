import RecCore
import Synchronization

/// The segments of one recording, shared: the encode thread adds them, the finisher thread marks
/// them finished and deletes expired ones, and `rec status` and saves read them.
package final class SegmentCatalog: Sendable {
    private let list: Mutex<SegmentList>
    /// Pulsed after every change: a save waiting for a segment to be finished wakes on it.
    package let changes = Latch()

    package init(settings: SegmentSettings) {
        list = Mutex(SegmentList(settings: settings))
    }

    package var settings: SegmentSettings { list.withLock { $0.settings } }

    /// The segments kept, oldest first; the last is the one being written.
    package var records: [SegmentRecord] { list.withLock { $0.records } }

    /// The segments holding any of `range` (session time), oldest first.
    package func covering(_ range: Range<Timestamp>) -> [SegmentRecord] { list.withLock { $0.covering(range) } }

    func update<Result: Sendable>(_ body: (inout SegmentList) -> Result) -> Result {
        defer { changes.pulse() }
        return list.withLock { body(&$0) }
    }
}
