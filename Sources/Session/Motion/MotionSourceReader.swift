import Capture
import Foundation
import Media
import RecCore
import Synchronization

/// `--motion-source URL`: a second, smaller stream of the same camera (its sub-stream) read for
/// motion alone, as Frigate's detect stream is, so the recorded stream is never decoded. Its
/// packets go to the session's motion watch at session times, by the two streams' wall clocks
/// (each camera stream's sender reports, or its arrival); it connects again after an outage, and
/// the recording never waits for it. One thread, which owns the stream's network source.
final class MotionSourceReader: Sendable {
    private let stopping = Latch()
    private let done = Latch()
    private let interrupt = Mutex<InterruptFlag?>(nil)
    let url: NetworkURL

    /// `sessionZero` is the session's wall clock at its time 0 (Unix seconds), once it has one.
    init(url: NetworkURL, watch: MotionWatch, sessionZero: @escaping @Sendable () -> Double?, log: SessionLog?) {
        self.url = url
        let thread = Thread { [self] in
            read(url, watch: watch, sessionZero: sessionZero, log: log)
            _ = done.release()
        }
        thread.name = "rec-motion-source"
        thread.start()
    }

    private func read(_ url: NetworkURL, watch: MotionWatch, sessionZero: @Sendable () -> Double?, log: SessionLog?) {
        let source = NetworkSource(url: url, settings: .init(copies: true, keepsSound: false))
        interrupt.withLock { $0 = source.interrupt }
        defer { source.stop() }
        var connected = false
        var number = 0
        while !stopping.isReleased {
            do throws(RecError) {
                if !connected {
                    try source.start()
                    connected = true
                    log?.write("motion: reading \(url.redacted) for motion")
                }
                guard let packet = try source.nextPacket() else { return }
                let time = packet.captureTime ?? packet.presentationTime
                guard let zero = sessionZero(), let streamZero = source.wallClockAtZero ?? Self.arrivalZero(source) else { continue }
                let seconds = streamZero.seconds + time.seconds - zero
                guard seconds >= 0 else { continue }
                watch.take(.packet(packet, time: Timestamp(seconds: seconds), number: number, parameters: source.compressedParameters))
                number += 1
            } catch {
                watch.sourceAway()
                guard !stopping.isReleased else { return }
                log?.write("motion: \(url.redacted): \(error.message); connecting again")
                if connected {
                    try? source.reconnect(waitingUpTo: .infinity, stop: stopping)
                } else {
                    // Not connected yet: try again in a second, or at once on a stop.
                    _ = stopping.wait(until: .after(1))
                }
            }
        }
    }

    /// The stream's time 0 on the wall clock when it has no sender report: when its first
    /// picture arrived (its monotonic epoch).
    private static func arrivalZero(_ source: NetworkSource) -> Timestamp? {
        guard let epoch = source.monotonicEpoch else { return nil }
        let now = DispatchTime.now().uptimeNanoseconds
        return .microseconds(Int64(Date().timeIntervalSince1970 * 1_000_000) - Int64(now > epoch ? (now - epoch) / 1000 : 0))
    }

    /// Stops reading (a read under way is interrupted) and waits for the thread to end.
    func stop() {
        _ = stopping.release()
        interrupt.withLock { $0?.set() }
        _ = done.wait()
    }
}
