import Dispatch
import Foundation
import Media
import RecCore

/// The capture thread's helpers: copy sources, waiting out an unplugged camera, pacing.
extension Recorder {
    /// The source as a compressed one when the preset copies, or nil; a usage error if it can't.
    func compressedSource(_ source: FrameSource) throws(RecError) -> (any CompressedFrames)? {
        guard configuration.copiesCompressedFrames else { return nil }
        guard let c = source.capabilities.compressed, let parameters = c.compressedParameters else {
            throw .usage("this preset stores the camera's own MJPEG frames, but \(source.description) does not deliver MJPEG; "
                         + "ask for it with --pixel-format MJPG, or choose a preset that encodes")
        }
        encoderParameters.withLock { $0 = parameters }
        return c
    }

    /// The next frame or compressed packet and its capture time; waits for an unplugged camera to
    /// return when `--on-unplug wait` says so.
    func next(from source: FrameSource, compressed: (any CompressedFrames)?) throws(RecError) -> (CaptureItem, Timestamp)? {
        while true {
            do {
                if let compressed {
                    guard let p = try compressed.nextPacket() else { return nil }
                    return (.packet(p), p.captureTime ?? p.presentationTime)
                }
                guard let f = try source.nextFrame() else { return nil }
                return (.frame(f), f.captureTime)
            } catch {
                guard case .wait(let seconds) = configuration.onUnplug, let r = source.capabilities.reconnection,
                      r.isDisconnect(error) else { throw error }
                let what = r.disconnectText(error)
                stats.withLock {
                    $0.gaps += 1
                    $0.lastGap = what
                    $0.lastError = "\(source.description) \(what); waiting up to \(Int(seconds)) s for it to return"
                }
                try r.reconnect(waitingUpTo: seconds, stop: stopping)
                stats.withLock { $0.lastError = $0.fileError }
                // A stop while waiting ends the recording cleanly with what it holds.
                if stopRequested.load(ordering: .acquiring) { return nil }
            }
        }
    }

    /// Sleeps until a monotonic instant, waking to check for a stop; false if stopped.
    func sleep(until due: UInt64) -> Bool {
        while true {
            if stopRequested.load(ordering: .acquiring) { return false }
            let now = DispatchTime.now().uptimeNanoseconds
            if now >= due { return true }
            let wait = min(due - now, 50_000_000)
            var ts = timespec(tv_sec: 0, tv_nsec: Int(wait))
            nanosleep(&ts, nil)
        }
    }
}
