import Synchronization
import Testing
@testable import RecCore

@Suite struct PacketQueueTests {
    /// Bytes that say when they are freed.
    final class Bytes: SharedBytes {
        let count = 1
        let freed: @Sendable () -> Void
        init(freed: @escaping @Sendable () -> Void) { self.freed = freed }
        deinit { freed() }
        func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
            try [UInt8(0)].withUnsafeBytes(body)
        }
    }

    static func packet(_ pts: Int64) -> EncodedPacket {
        EncodedPacket(data: [1], pts: pts, dts: pts, duration: 1, timeBase: Rational(1, 30), isKeyframe: pts % 30 == 0)
    }

    @Test func dropsFromTheFrontAndPutsKeptPacketsBack() {
        var q = PacketQueue((0..<10).map { Self.packet($0) })
        q.removeFirst(3)
        #expect(q.map(\.pts) == Array(3..<10))
        q.replaceFront(4, with: [Self.packet(100), Self.packet(101)])
        #expect(q.map(\.pts) == [100, 101, 7, 8, 9])
        q.append(Self.packet(10))
        #expect(q.count == 6 && q[5].pts == 10 && q.first?.pts == 100)
        #expect(q[1...2].map(\.pts) == [101, 7])
        q.removeAll(keepingCapacity: true)
        #expect(q.isEmpty)
    }

    @Test func growsWhileItsPacketsWrapAround() {
        var q = PacketQueue()
        for pts in 0..<Int64(PacketQueue.growth) { q.append(Self.packet(pts)) }
        q.removeFirst(100)
        // The next 100 take the slots cleared at the front; the rest grow the queue mid-wrap.
        for pts in Int64(PacketQueue.growth)..<Int64(PacketQueue.growth + 150) { q.append(Self.packet(pts)) }
        #expect(q.map(\.pts) == Array(100..<Int64(PacketQueue.growth + 150)))
        q.replaceFront(10, with: [Self.packet(-1)])
        #expect(q.first?.pts == -1 && q[1].pts == 110 && q.last?.pts == Int64(PacketQueue.growth + 149))
    }

    @Test func keepsItsOrderThroughManyDropsAndWraps() {
        // A ring's life: appends at the back, a GOP off the front at a time, many times round.
        var q = PacketQueue()
        var next: Int64 = 0
        for _ in 0..<400 {
            for _ in 0..<30 {
                q.append(Self.packet(next))
                next += 1
            }
            if q.count > 300 { q.removeFirst(30) }
            #expect(q.first?.pts == next - Int64(q.count))
        }
        #expect(q.count == 300)
        #expect(q.map(\.pts) == Array((next - 300)..<next))
    }

    @Test func aDroppedPacketsBytesAreFreedAtOnce() {
        let freed = FreeCount()
        var q = PacketQueue()
        for pts in 0..<4 {
            q.append(EncodedPacket(shared: Bytes { freed.add() }, pts: Int64(pts), dts: Int64(pts), duration: 1,
                                   timeBase: Rational(1, 30), isKeyframe: pts == 0))
        }
        q.removeFirst(2)
        #expect(freed.value == 2)
        q.replaceFront(1, with: [])
        #expect(freed.value == 3)
        #expect(q.map(\.pts) == [3])
    }
}

/// A count shared with the bytes' deinit.
final class FreeCount: Sendable {
    private let count = Mutex(0)
    var value: Int { count.withLock { $0 } }
    func add() { count.withLock { $0 += 1 } }
}
