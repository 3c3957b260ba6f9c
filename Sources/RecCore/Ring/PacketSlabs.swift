import Glibc
import Synchronization

/// Where the ring keeps its packets' bytes: copied, one after another, into 512 KiB blocks
/// ("slabs") of their own, so that the buffer the demuxer or encoder filled goes back to malloc
/// as soon as the file has it, as it does in the ffmpeg CLI.
///
/// Held by reference for the ring's length instead, those buffers were long-lived blocks among
/// the short-lived ones of every read and write: the heap fragmented, free pages had to be
/// trimmed every 10 s and came back as page faults, and each packet kept an `AVPacket`, a buffer
/// reference and a buffer header (measured in bench/cameras.sh: 15.6 MB private beyond the ring's
/// bytes for a 60 s camera ring, 37 minor faults a second). A slab is a private anonymous mapping
/// that the ring fills front to back and that goes back to a short list of spares (`SlabPool`)
/// when its last packet has left the ring and every save that took it.
///
/// Each packet's bytes start on a 64-byte boundary and are followed by 64 zero bytes, the padding
/// FFmpeg's readers may touch (`AV_INPUT_BUFFER_PADDING_SIZE`), so a muxer can take them where
/// they are. A packet bigger than a slab gets a mapping of its own, unmapped when released.
package struct SlabWriter: ~Copyable {
    private let pool: SlabPool
    private var current: Slab?
    private var used = 0

    package init(pool: SlabPool = SlabPool()) {
        self.pool = pool
    }

    /// The packet with its bytes copied into the slabs (a packet without bytes as it is).
    package mutating func store(_ packet: EncodedPacket) -> EncodedPacket {
        let count = packet.size
        guard count > 0 else { return packet }
        let needed = Self.rounded(count + Self.padding)
        let slab: Slab
        var offset = 0
        if needed > pool.slabBytes {
            guard let own = Slab(capacity: needed, pool: nil) else { return packet }
            slab = own
        } else {
            if current == nil || used + needed > pool.slabBytes {
                guard let fresh = pool.take() else { return packet }
                (current, used) = (fresh, 0)
            }
            guard let current else { return packet }
            (slab, offset) = (current, used)
            used += needed
        }
        let start = slab.base + offset
        packet.withUnsafeBytes { src in
            if let from = src.baseAddress { start.copyMemory(from: from, byteCount: count) }
        }
        (start + count).initializeMemory(as: UInt8.self, repeating: 0, count: Self.padding)
        var stored = packet
        stored.keepBytes(in: SlabBytes(slab: slab, offset: offset, count: count))
        return stored
    }

    /// Zero bytes after each packet's.
    package static let padding = 64

    private static func rounded(_ n: Int) -> Int { (n + 63) & ~63 }
}

/// One packet's bytes inside a slab; the slab stays mapped while any of these lives.
package final class SlabBytes: SharedBytes, @unchecked Sendable {
    private let slab: Slab
    private let offset: Int
    package let count: Int

    fileprivate init(slab: Slab, offset: Int, count: Int) {
        self.slab = slab
        self.offset = offset
        self.count = count
    }

    /// The first byte; `count` bytes and then `SlabWriter.padding` zero bytes follow, unchanged
    /// while `self` lives.
    package var start: UnsafeRawPointer { UnsafeRawPointer(slab.base + offset) }

    package func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: start, count: count))
    }
}

/// A private anonymous mapping. `SlabWriter` (on the thread that appends to the ring) writes each
/// packet's range once, before the `SlabBytes` for it is made, and never writes a range again
/// while the slab lives; other threads only read ranges already handed out: `@unchecked Sendable`.
final class Slab: @unchecked Sendable {
    let base: UnsafeMutableRawPointer
    let capacity: Int
    private let pool: SlabPool?

    /// nil when the kernel refuses the mapping (the packet then keeps the bytes it came with).
    init?(capacity: Int, pool: SlabPool?) {
        guard let p = mmap(nil, capacity, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
              p != MAP_FAILED else { return nil }
        base = p
        self.capacity = capacity
        self.pool = pool
    }

    /// Reused through the pool when it has room for a spare, else unmapped.
    fileprivate init(reusing base: UnsafeMutableRawPointer, capacity: Int, pool: SlabPool) {
        self.base = base
        self.capacity = capacity
        self.pool = pool
    }

    deinit {
        if let pool, pool.keep(base) { return }
        munmap(base, capacity)
    }
}

/// The slabs a ring has finished with, kept for its next ones (at most `spares`, touched pages
/// that stay resident), so a ring that is full maps nothing new and takes no page faults.
package final class SlabPool: Sendable {
    package let slabBytes: Int
    private let spares: Int
    private let free: Mutex<[SlabAddress]>

    package init(slabBytes: Int = 1 << 19, spares: Int = 2) {
        self.slabBytes = slabBytes
        self.spares = spares
        free = Mutex([])
    }

    deinit {
        free.withLock { list in for slab in list { munmap(slab.base, slabBytes) } }
    }

    /// Spare slabs held now.
    package var spareCount: Int { free.withLock { $0.count } }

    fileprivate func take() -> Slab? {
        if let spare = free.withLock({ $0.popLast() }) {
            return Slab(reusing: spare.base, capacity: slabBytes, pool: self)
        }
        return Slab(capacity: slabBytes, pool: self)
    }

    /// Takes `base` back as a spare; false when it already holds enough (the caller unmaps it).
    fileprivate func keep(_ base: UnsafeMutableRawPointer) -> Bool {
        free.withLock { list in
            guard list.count < spares else { return false }
            list.append(SlabAddress(base: base))
            return true
        }
    }
}

/// A spare slab's address: only the pool touches it, under its lock.
private struct SlabAddress: @unchecked Sendable {
    let base: UnsafeMutableRawPointer
}
