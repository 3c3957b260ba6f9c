import CFFmpeg
import Glibc

/// A stop request for blocking reads on another thread: a latch that any thread sets once and a
/// reader checks (libavformat's `AVIOInterruptCB`) or waits on in `poll(2)` beside its input (the
/// read end of a pipe that becomes readable when the flag is set), so a stop wakes the reader at
/// once instead of at its next timeout. The pipe's descriptors are fixed at init and closed in
/// `deinit`; writing its one byte is safe from any thread.
///
/// The flag and the deadline live in C memory (`cffmpeg_interrupt`) that libavformat's callback
/// reads directly, about 2,000 times a second while a network camera is read.
/// `@unchecked Sendable`: `state` is touched only through the shim's atomic builtins, and the
/// pipe's descriptors never change.
package final class InterruptFlag: @unchecked Sendable {
    private let state: UnsafeMutablePointer<cffmpeg_interrupt>
    /// The pipe's read end, for `poll(2)`; -1 if no pipe could be made (readers then poll with a
    /// timeout and check `isSet`).
    package let wakeDescriptor: Int32
    private let writeDescriptor: Int32

    package init() {
        state = .allocate(capacity: 1)
        state.initialize(to: cffmpeg_interrupt(set: 0, passed: 0, calls: 0, deadline: 0))
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
        state.deallocate()
    }

    package var isSet: Bool { cffmpeg_interrupt_is_set(state) != 0 }

    /// Sets the flag and wakes whoever polls `wakeDescriptor`; later calls do nothing.
    package func set() {
        guard cffmpeg_interrupt_set(state) == 0 else { return }
        var byte: UInt8 = 1
        if writeDescriptor >= 0 { _ = write(writeDescriptor, &byte, 1) }
    }

    /// Interrupts libavformat's calls (not `isSet`) once `seconds` have passed without a new
    /// deadline: a network read that gets nothing (a camera gone silent without a reset) ends
    /// with `FFmpegError.exit` instead of waiting for a TCP timeout. nil clears it. The clock is
    /// CLOCK_MONOTONIC_COARSE (the kernel's last tick: a few milliseconds behind at most, plenty
    /// for deadlines of seconds).
    package func expire(after seconds: Double?) {
        cffmpeg_interrupt_expire(state, seconds.map { cffmpeg_coarse_now() + UInt64(max(0, $0) * 1e9) } ?? 0)
    }

    /// Sleeps `seconds`, or until the flag is set; returns whether it is set. Without a pipe
    /// (none could be made) it sleeps the whole time.
    package func wait(seconds: Double) -> Bool {
        if isSet { return true }
        var descriptor = pollfd(fd: wakeDescriptor, events: Int16(POLLIN), revents: 0)
        _ = poll(&descriptor, 1, Int32(max(0, min(seconds * 1000, Double(Int32.max)))))
        return isSet
    }

    /// Whether the deadline set by `expire(after:)` has passed.
    package var hasExpired: Bool { cffmpeg_interrupt_expired(state) != 0 }

    /// The callback for a format context's `interrupt_callback`; the caller keeps `self` alive
    /// while the context lives. The corresponding C function is `cffmpeg_interrupt_callback`.
    var callback: AVIOInterruptCB {
        AVIOInterruptCB(callback: cffmpeg_interrupt_callback, opaque: UnsafeMutableRawPointer(state))
    }
}
