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
        encoderParameters.set(parameters)
        return c
    }

    /// The next frame or compressed packet and its capture time; waits for an unplugged camera to
    /// return when `--on-unplug wait` says so. Each picture's time goes to `gaps`, which keeps
    /// the outage under way (a source may first hand out what it held from before it went away).
    func next(from source: FrameSource, compressed: (any CompressedFrames)?) throws(RecError) -> (CaptureItem, Timestamp)? {
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
                if let gap = gaps.withLock({ $0.picture(at: item.1) }), gap.reported {
                    onOutage("\(source.description) is back after " + String(format: "%.1f", gap.seconds) + " s away")
                }
                return item
            } catch {
                guard case .wait(let seconds) = configuration.onUnplug, let r = source.capabilities.reconnection,
                      r.isDisconnect(error) else { throw error }
                let what = r.disconnectText(error)
                // Before the error shows: a status waiting for it then finds the gap under way.
                gaps.withLock { $0.sourceAway("\(source.description) \(what)") }
                stats.withLock { s in
                    s.gaps += 1
                    s.lastGap = what
                    s.lastError = "\(source.description) \(what); " + (seconds.isFinite ? "waiting up to \(Int(seconds)) s for it to return"
                                                                                     : "connecting again until it answers")
                }
                onOutage("\(source.description) \(what); connecting again")
                configuration.motion?.sourceAway()
                try r.reconnect(waitingUpTo: seconds, stop: stopping)
                stats.withLock { $0.lastError = $0.fileError }
                // A stop while waiting ends the recording cleanly with what it holds.
                if stopping.isReleased { return nil }
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
            watch(.packet(packet, time: time, number: number, parameters: encoderParameters.value))
        case .sound: break
        }
    }

    /// Seconds of `range` in which the source was away (it said so); nil when none.
    package func missingSeconds(in range: Range<Timestamp>) -> Double? {
        gaps.withLock { $0.missingSeconds(in: range, reportedOnly: true) }
    }

    /// Waits until a monotonic instant (a paced frame's time) or the stop, whichever comes first:
    /// one wake either way (`stopping` is released with `stopRequested`); false if stopped.
    func waitForFrameTime(_ due: UInt64) -> Bool {
        !stopping.wait(until: .at(DispatchTime(uptimeNanoseconds: due)))
    }
}
