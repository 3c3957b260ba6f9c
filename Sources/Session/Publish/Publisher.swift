import Dispatch
import Foundation
import Live
import Media
import RecCore
import Synchronization

/// Sends the session's encoded packets to one RTMP/SRT/RTSP server, no second encode, on its own
/// thread ("rec.publish") with a bounded queue: the encode thread only appends (`offer`). The
/// sound goes too when the target's container takes its codec (AAC over RTMP; AAC or Opus over
/// SRT and RTSP). When the server goes away the recording goes on; this retries with backoff,
/// starts each new connection at a picture keyframe (with the sound that plays from it, kept in a
/// `SoundBacklog`), and keeps each stream's decode times rising
/// across reconnects (session time, less the first packet ever sent). The muxer belongs to the
/// publish thread alone.
package final class Publisher: Sendable {
    package struct Status: Sendable {
        package var state = "waiting"
        package var retries = 0
        package var bytesSent: Int64 = 0
        package var packetsSent = 0
        package var dropped = 0
        package var lastError: String?
        package var target = ""
        /// The sound codec sent, "off", or "off: why".
        package var sound = "off"
        package var summary: String { "\(state) \(target), \(bytesSent) bytes, \(retries) retries, \(dropped) packets dropped" + (lastError.map { ", last error: \($0)" } ?? "") }
    }

    static let inboxLimit = 300
    let target: PublishTarget
    private let parameters: @Sendable () -> CodecParameters?
    private let sound: @Sendable () -> LiveSound
    /// Sound before the first keyframe is queued too: a connection's first sound comes from it.
    private let inbox = Mutex(PacketInbox(limit: Publisher.inboxLimit, startAtKeyframe: false))
    /// Pulsed by each packet queued, released by `stop()`: every wait of the publish thread
    /// (for packets, for the encoders to open, a retry's back-off) ends at once on a stop.
    private let wake = Latch()
    private let state = Mutex(Status())
    private let finished = Latch()
    /// Ends a connect or write that waits on a silent server the moment `stop()` is called.
    private let interrupt = InterruptFlag()
    private let log: SessionLog?

    init(target: PublishTarget, parameters: @escaping @Sendable () -> CodecParameters?,
         sound: @escaping @Sendable () -> LiveSound = { .none }, log: SessionLog?) {
        self.target = target
        self.parameters = parameters
        self.sound = sound
        self.log = log
        state.withLock { $0.target = target.display }
        let thread = Thread { [self] in
            ThreadName.set("rec.publish")
            self.run()
            self.finished.release()
        }
        thread.name = "rec.publish"
        thread.start()
    }

    package var status: Status {
        var s = state.withLock { $0 }
        s.dropped = inbox.withLock { $0.dropped }
        return s
    }

    /// Called on the encode thread: a lock and an append. A full queue (the server is slow or
    /// gone) is emptied and refilled from the next keyframe.
    func offer(_ packet: EncodedPacket) {
        if inbox.withLock({ $0.offer(packet) }) { wake.pulse() }
    }

    func stop() {
        inbox.withLock { $0.stopped = true }
        interrupt.set()
        wake.release()
        _ = finished.wait(until: .after(5))
    }

    private var stopped: Bool { inbox.withLock { $0.stopped } }

    /// The streams to send, or nil while the sound encoder is still opening; says in status
    /// whether the sound goes.
    private func streams() -> [CodecParameters]? {
        guard let video = parameters() else { return nil }
        let sound = self.sound()
        let note: String
        var streams = [video]
        switch sound {
        case .opening: return nil
        case .none: note = "off"
        case .ended: note = "off: the sound failed"
        case .running(let p):
            if target.carries(sound: p.codec) {
                streams.append(p)
                note = p.codecName
            } else {
                note = "off: \(target.format) cannot carry \(p.codecName) sound; choose an AAC preset to send it"
            }
        }
        state.withLock { $0.sound = note }
        return streams
    }

    private func run() {
        var muxer: Muxer?
        var origin: Timestamp?
        var previous: [Int: Int64] = [:]
        var needKeyframe = true
        var retries = 0
        var backlog = SoundBacklog()
        while !stopped {
            let connection: Muxer
            if let open = muxer {
                connection = open
            } else {
                guard let streams = streams() else {
                    // The encoders are still opening: look again when the next packet comes.
                    let seen = wake.pulses
                    _ = wake.wait { wake.pulses != seen }
                    continue
                }
                state.withLock { $0.state = retries == 0 ? "connecting" : "reconnecting" }
                // Half a second at most between the streams: a sound that fails holds no picture back.
                var options = ["max_interleave_delta": "500000"]
                if target.kind == .rtsp { options["rtsp_transport"] = "tcp" }
                do {
                    connection = try Muxer(path: target.url, container: target.format, streams: streams,
                                           options: options, interrupt: interrupt)
                    muxer = connection
                    needKeyframe = true
                    state.withLock { $0.state = "publishing" }
                    log?.write("publishing to \(target.display)")
                } catch {
                    retries += 1
                    failed(error, retries: retries)
                    if !pause(PublishTarget.backoff(retry: retries)) { break }
                    continue
                }
            }
            _ = wake.wait { inbox.withLock { !$0.packets.isEmpty } }
            // The session's pictures and its first sound: what FLV, RTSP and the rest carry.
            let sending = [StreamID.video, .sound(0)].prefix(connection.streamTimeBases.count)
            let batch = inbox.withLock { $0.take() }
            // A connection starts at a picture keyframe, with the sound that plays from it.
            var sendable = batch
            if needKeyframe {
                guard let started = backlog.start(with: batch) else { continue }
                sendable = started
                needKeyframe = false
            } else {
                batch.forEach { backlog.add($0) }
            }
            for var packet in sendable {
                guard let index = sending.firstIndex(of: packet.stream) else { continue }
                packet.streamIndex = index
                let start = origin ?? packet.decodeTime
                origin = start
                // Session time less the first packet sent: rising across reconnects.
                var last = previous[packet.streamIndex] ?? Int64.min + 1
                packet.move(back: start, after: &last)
                do {
                    try connection.write(packet)
                    previous[packet.streamIndex] = last
                    retries = 0
                    state.withLock { s in
                        s.packetsSent += 1
                        s.bytesSent += Int64(packet.size)
                    }
                } catch {
                    connection.abandon()
                    muxer = nil
                    retries += 1
                    failed(error, retries: retries)
                    if !pause(PublishTarget.backoff(retry: retries)) { break }
                    break
                }
            }
        }
        if let muxer { try? muxer.finish() }
        state.withLock { $0.state = "stopped" }
    }

    private func failed(_ error: FFmpegError, retries: Int) {
        let text = "\(error.operation.replacingOccurrences(of: target.url, with: target.display)): \(error.text)"
        state.withLock {
            $0.state = "retrying"
            $0.retries += 1
            $0.lastError = text
        }
        log?.write("publishing to \(target.display) failed (\(text)); retry \(retries)")
    }

    /// Waits `seconds`, waking at once for a stop; false if stopped.
    private func pause(_ seconds: Double) -> Bool {
        !wake.wait(until: .after(seconds))
    }
}
