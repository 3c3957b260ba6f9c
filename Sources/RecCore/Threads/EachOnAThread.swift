import Foundation
import Synchronization

/// One piece of work for each of several things (sessions, boxes) done at once, each on a
/// thread of its own, so a slow one holds up no other: the results in order, once all are in or
/// `limit` seconds have passed, whichever is first; nil for those not in by then.
package enum EachOnAThread {
    package static func run<Value: Sendable>(_ count: Int, name: String, limit: Double,
                                            _ work: @escaping @Sendable (Int) -> Value) -> [Value?] {
        let results = Results<Value>(count: count)
        for index in 0..<count {
            let thread = Thread { results.store(work(index), at: index) }
            thread.name = name
            thread.start()
        }
        _ = results.arrived.wait(until: .after(limit)) { results.isComplete }
        return results.values
    }
}

/// The results as they arrive, one slot each; `arrived` pulses on each.
private final class Results<Value: Sendable>: Sendable {
    private let slots: Mutex<[Value?]>
    let arrived = Latch()

    init(count: Int) {
        slots = Mutex(Array(repeating: nil, count: count))
    }

    func store(_ value: Value, at index: Int) {
        slots.withLock { $0[index] = value }
        arrived.pulse()
    }

    var isComplete: Bool { slots.withLock { $0.allSatisfy { $0 != nil } } }

    var values: [Value?] { slots.withLock { $0 } }
}
