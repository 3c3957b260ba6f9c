import CFFmpeg
import Glibc
import Synchronization

/// A stop request for blocking reads on another thread: a latch that any thread sets once and a
/// reader checks (libavformat's `AVIOInterruptCB`) or waits on in `poll(2)` beside its input (the
/// read end of a pipe that becomes readable when the flag is set), so a stop wakes the reader at
/// once instead of at its next timeout. The pipe's descriptors are fixed at init and closed in
/// `deinit`; writing its one byte is safe from any thread.
public final class InterruptFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    /// CLOCK_MONOTONIC nanoseconds after which libavformat's calls are interrupted too; 0 for none.
    private let deadline = Atomic<UInt64>(0)
    /// The pipe's read end, for `poll(2)`; -1 if no pipe could be made (readers then poll with a
    /// timeout and check `isSet`).
    public let wakeDescriptor: Int32
    private let writeDescriptor: Int32

    public init() {
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) == 0 {
            for fd in fds {
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            }
        }
        wakeDescriptor = fds[0]
        writeDescriptor = fds[1]
    }

    deinit {
        if wakeDescriptor >= 0 { close(wakeDescriptor) }
        if writeDescriptor >= 0 { close(writeDescriptor) }
    }

    public var isSet: Bool { flag.load(ordering: .acquiring) }

    /// Sets the flag and wakes whoever polls `wakeDescriptor`; later calls do nothing.
    public func set() {
        guard !flag.exchange(true, ordering: .acquiringAndReleasing) else { return }
        var byte: UInt8 = 1
        if writeDescriptor >= 0 { _ = write(writeDescriptor, &byte, 1) }
    }

    /// Interrupts libavformat's calls (not `isSet`) once `seconds` have passed without a new
    /// deadline: a network read that gets nothing (a camera gone silent without a reset) ends
    /// with `FFmpegError.exit` instead of waiting for a TCP timeout. nil clears it.
    public func expire(after seconds: Double?) {
        deadline.store(seconds.map { Self.now() + UInt64(max(0, $0) * 1e9) } ?? 0, ordering: .releasing)
    }

    /// Whether the deadline set by `expire(after:)` has passed.
    public var hasExpired: Bool {
        let d = deadline.load(ordering: .acquiring)
        return d != 0 && Self.now() >= d
    }

    private static func now() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }

    /// The callback for a format context's `interrupt_callback`, with `self` as its opaque
    /// pointer; the caller keeps `self` alive while the context lives.
    var callback: AVIOInterruptCB {
        AVIOInterruptCB(callback: { opaque in
            guard let opaque else { return 0 }
            let flag = Unmanaged<InterruptFlag>.fromOpaque(opaque).takeUnretainedValue()
            return flag.isSet || flag.hasExpired ? 1 : 0
        }, opaque: Unmanaged.passUnretained(self).toOpaque())
    }
}
