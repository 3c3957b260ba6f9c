import Synchronization

/// Timeline thumbnails made lazily, one per keyframe, kept up to a count and a byte total; the
/// oldest keyframe's go first (they are the ones the ring lets go of first).
package final class ThumbnailCache: Sendable {
    struct State {
        var pictures: [Int64: [UInt8]] = [:]
        var bytes = 0
    }

    package let maxCount: Int
    package let maxBytes: Int
    private let state = Mutex(State())

    package init(maxCount: Int = 400, maxBytes: Int = 16 << 20) {
        self.maxCount = maxCount
        self.maxBytes = maxBytes
    }

    package func picture(for key: Int64, make: () throws -> [UInt8]) rethrows -> [UInt8] {
        if let hit = state.withLock({ $0.pictures[key] }) { return hit }
        let made = try make()
        state.withLock { s in
            if s.pictures[key] == nil {
                s.pictures[key] = made
                s.bytes += made.count
            }
            while s.pictures.count > maxCount || s.bytes > maxBytes, let oldest = s.pictures.keys.min() {
                s.bytes -= s.pictures.removeValue(forKey: oldest)?.count ?? 0
            }
        }
        return made
    }

    package var count: Int { state.withLock { $0.pictures.count } }
}
