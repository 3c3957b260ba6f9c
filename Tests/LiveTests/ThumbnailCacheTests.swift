import Live
import Testing
import TestPool

@Suite(.blocking) struct ThumbnailCacheTests {
    @Test func picturesAreMadeOnceAndTheOldestGoFirst() {
        let cache = ThumbnailCache(maxCount: 3, maxBytes: 1000)
        var made = 0
        for key in [5, 1, 5, 9, 7] as [Int64] {
            _ = cache.picture(for: key) { made += 1; return [UInt8](repeating: 0, count: 10) }
        }
        #expect(made == 4 && cache.count == 3)
        _ = cache.picture(for: 1) { made += 1; return [0] }
        #expect(made == 5, "key 1, the oldest, was let go and made again")
    }

    @Test func theByteCapHolds() {
        let cache = ThumbnailCache(maxCount: 100, maxBytes: 25)
        for key in 0..<10 as Range<Int64> { _ = cache.picture(for: key) { [UInt8](repeating: 0, count: 10) } }
        #expect(cache.count == 2)
    }
}
