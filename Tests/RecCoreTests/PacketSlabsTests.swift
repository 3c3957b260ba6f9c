import Testing
@testable import RecCore

/// The ring's byte store: copies that read back the same, padded and aligned as FFmpeg wants,
/// and slabs that go back to the pool once nothing holds their packets.
@Suite struct PacketSlabsTests {
    static func packet(_ bytes: [UInt8], pts: Int64 = 0) -> EncodedPacket {
        EncodedPacket(data: bytes, pts: pts, dts: pts, duration: 1, timeBase: Rational(1, 30), isKeyframe: true)
    }

    static func bytes(_ n: Int, seed: Int) -> [UInt8] { (0..<n).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ seed) } }

    @Test func storedPacketsReadBackTheSameBytesPaddedAndAligned() throws {
        var writer = SlabWriter(pool: SlabPool(slabBytes: 4096, spares: 1))
        var stored: [EncodedPacket] = []
        for (i, n) in [1, 63, 64, 65, 1000, 3000, 17].enumerated() {
            var p = Self.packet(Self.bytes(n, seed: i), pts: Int64(i))
            p.sideData = [PacketSideData(kind: 7, bytes: [1, 2])]
            stored.append(writer.store(p))
        }
        for (i, p) in stored.enumerated() {
            let slab = try #require(p.shared as? SlabBytes)
            #expect(Int(bitPattern: slab.start) % 64 == 0)
            #expect(p.data == Self.bytes(p.size, seed: i))
            let padding = UnsafeRawBufferPointer(start: slab.start + p.size, count: SlabWriter.padding)
            #expect(padding.allSatisfy { $0 == 0 })
            #expect(p.pts == Int64(i) && p.sideData == [PacketSideData(kind: 7, bytes: [1, 2])])
        }
    }

    @Test func aPacketBiggerThanASlabGetsItsOwnAndEmptyOnesStayAsTheyAre() throws {
        var writer = SlabWriter(pool: SlabPool(slabBytes: 4096, spares: 1))
        let big = writer.store(Self.packet(Self.bytes(10_000, seed: 3)))
        #expect(big.data == Self.bytes(10_000, seed: 3))
        #expect(big.shared is SlabBytes)
        let empty = writer.store(Self.packet([]))
        #expect(empty.size == 0 && empty.shared == nil)
    }

    @Test func slabsGoBackToThePoolWhenTheirPacketsAreGone() throws {
        let pool = SlabPool(slabBytes: 4096, spares: 2)
        var writer = SlabWriter(pool: pool)
        // 1,000 bytes + padding take 1,088: three to a slab, so 12 packets fill four slabs.
        var held: [EncodedPacket] = (0..<12).map { writer.store(Self.packet(Self.bytes(1000, seed: $0))) }
        let bases = try held.map { try #require($0.shared as? SlabBytes).start }
        #expect(pool.spareCount == 0)
        held.removeFirst(6)
        // The first two slabs are free: both kept as spares.
        #expect(pool.spareCount == 2)
        held.removeAll()
        // The third too, but the pool keeps two; the fourth is still the writer's.
        #expect(pool.spareCount == 2)
        // The next slab the writer needs is a spare (the newest), and its bytes read back whole;
        // the fourth, left by the writer, becomes a spare in its place.
        let reused = (0..<3).map { writer.store(Self.packet(Self.bytes(1000, seed: 50 + $0))) }
        #expect(try #require(reused[0].shared as? SlabBytes).start == bases[3])
        #expect(pool.spareCount == 2)
        #expect(reused.enumerated().allSatisfy { $0.element.data == Self.bytes(1000, seed: 50 + $0.offset) })
    }

    @Test func theRingHoldsItsOwnCopiesOfWhatItIsGiven() throws {
        let ring = PacketRing(limits: RingLimits(maxDuration: .microseconds(10_000_000), maxBytes: .max))
        let given = (0..<30).map { i in
            EncodedPacket(data: Self.bytes(500 + i, seed: i), pts: Int64(i), dts: Int64(i), duration: 1,
                          timeBase: Rational(1, 30), isKeyframe: i % 10 == 0)
        }
        for p in given { ring.append(p) }
        let held = try ring.snapshot(from: .microseconds(0), to: .microseconds(1_000_000))
        #expect(held.count == 30)
        for (a, b) in zip(held, given) {
            #expect(a.shared is SlabBytes)
            #expect(a.data == b.data && a.pts == b.pts && a.isKeyframe == b.isKeyframe)
        }
        #expect(ring.stats.bytes == given.reduce(0) { $0 + $1.size })
    }
}
