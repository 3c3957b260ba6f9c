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
            throw .usage("this preset stores the source's own compressed frames (a USB camera's MJPEG, a network camera's H.264 or H.265), "
                         + "but \(source.description) delivers raw pictures; ask a USB camera for MJPEG with --pixel-format MJPG, "
                         + "or choose a preset that encodes")
        }
        encoderParameters.withLock { $0 = parameters }
        return c
    }

    /// The next frame or compressed packet and its capture time; waits for an unplugged camera to
    /// return when `--on-unplug wait` says so. `outage` is the one under way, kept by the caller
    /// across calls: a source may first hand out what it held from before it went away.
    func next(from source: FrameSource, compressed: (any CompressedFrames)?, outage: inout Outage?) throws(RecError) -> (CaptureItem, Timestamp)? {
        while true {
            do {
                let item: (CaptureItem, Timestamp)
                if let compressed {
                    guard let p = try compressed.nextPacket() else { return nil }
                    let time = p.captureTime ?? p.presentationTime
                    item = (.packet(p), time)
                } else {
                    guard let f = try source.nextFrame() else { return nil }
                    item = (.frame(f), f.captureTime)
                }
                if let away = outage {
                    if let held = away.straggler(item.1) {
                        outage?.from = held
                    } else {
                        noteGap(from: away.from, to: item.1)
                        onOutage("\(source.description) is back after " + String(format: "%.1f", item.1.seconds - away.from.seconds) + " s away")
                        outage = nil
                    }
                }
                return item
            } catch {
                guard case .wait(let seconds) = configuration.onUnplug, let r = source.capabilities.reconnection,
                      r.isDisconnect(error) else { throw error }
                let what = r.disconnectText(error)
                let last = stats.withLock { s in
                    s.gaps += 1
                    s.lastGap = what
                    s.lastError = "\(source.description) \(what); " + (seconds.isFinite ? "waiting up to \(Int(seconds)) s for it to return"
                                                                                     : "connecting again until it answers")
                    return s.framesCaptured > 0 ? s.lastCaptureTime : nil
                }
                onOutage("\(source.description) \(what); connecting again")
                configuration.motion?.sourceAway()
                // The gap starts where the last picture ended (one nominal frame after it began).
                let frame = source.nominalFrameRate.map { $0.num > 0 ? $0.inverted.doubleValue : 0 } ?? 0
                if outage == nil, let last { outage = Outage(from: Timestamp(seconds: last.seconds + frame), frame: frame) }
                try r.reconnect(waitingUpTo: seconds, stop: stopping)
                stats.withLock { $0.lastError = $0.fileError }
                // A stop while waiting ends the recording cleanly with what it holds.
                if stopRequested.load(ordering: .acquiring) { return nil }
            }
        }
    }

    /// Hands `watch` its own view of a captured frame: a picture over the same pixels, or the
    /// packet with the stream's parameters. Sound items are not frames and are not told.
    func tell(_ watch: @Sendable (CapturedFrame) -> Void, _ item: CaptureItem, time: Timestamp, number: Int) {
        switch item {
        case .frame(let frame):
            if let copy = try? frame.clone() { watch(.picture(copy, number: number)) }
        case .packet(let packet):
            watch(.packet(packet, time: time, number: number, parameters: encoderParameters.withLock { $0 }))
        case .sound: break
        }
    }

    /// Notes that the source was away between two session times.
    func noteGap(from: Timestamp, to: Timestamp) {
        guard to > from else { return }
        gapRanges.withLock { $0.append(from..<to) }
    }

    /// Seconds of `range` in which the source was away; nil when none.
    package func missingSeconds(in range: Range<Timestamp>) -> Double? {
        let total = gapRanges.withLock { gaps in
            gaps.reduce(0.0) { sum, gap in
                sum + max(0, min(gap.upperBound.seconds, range.upperBound.seconds) - max(gap.lowerBound.seconds, range.lowerBound.seconds))
            }
        }
        return total > 0 ? total : nil
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

/// A source that went away and has not yet delivered a frame from after it: where the gap begins.
struct Outage {
    /// Session time at which the source was last heard from (the end of its last picture).
    var from: Timestamp
    /// The nominal frame interval in seconds (0 if unknown).
    let frame: Double

    /// A frame from before the outage, which the source held until it reconnected (a network
    /// camera's last packet waits for its successor to know its duration): within half a frame
    /// of where the gap begins, or earlier. Returns where the gap then begins; nil for a frame
    /// from after it.
    func straggler(_ time: Timestamp) -> Timestamp? {
        time.seconds < from.seconds + frame / 2 ? Timestamp(seconds: max(from.seconds, time.seconds + frame)) : nil
    }
}
