import Dispatch
import Foundation
import Media
import RecCore
import Synchronization

/// The live picture and sound: packets from the encode thread (`offer`, which never blocks) cross
/// a bounded inbox to one fan-out thread ("rec.live") that owns a `FragmentMuxer` while anyone
/// watches and gives each viewer the same moof + mdat fragments, one a picture with the sound
/// before it. No second encode; one mux for all viewers. When the sound fails, the stream starts
/// again with pictures only: the viewers' streams end and the page reconnects. A browser plays
/// one sound track: a session with several sound streams is watched with its first.
package final class LiveBroadcast: Sendable {
    package static let maxViewers = 24
    /// About 3 s of 30 fps pictures with 48 kHz AAC beside them.
    private let inbox = Mutex(PacketInbox(limit: 240, startAtKeyframe: false))
    private let wake = DispatchSemaphore(value: 0)
    private let viewers = Mutex<[LiveViewer]>([])
    private let parameters: @Sendable () -> CodecParameters?
    private let sound: @Sendable () -> LiveSound
    private let failure = Mutex<String?>(nil)

    /// `parameters` gives the encoder's stream parameters once it runs, `sound` the session's sound.
    package init(parameters: @escaping @Sendable () -> CodecParameters?, sound: @escaping @Sendable () -> LiveSound = { .none }) {
        self.parameters = parameters
        self.sound = sound
        let thread = Thread { [self] in
            ThreadName.set("rec.live")
            self.run()
        }
        thread.name = "rec.live"
        thread.start()
    }

    /// What the stream carries now, or nil until the encoders run (an H.264 session only).
    package var tracks: LiveTracks? {
        guard let p = parameters(), p.isH264, let video = CodecString.h264(extradata: p.extradata) else { return nil }
        return LiveTracks.choose(video: video, sound: sound().policy)
    }

    /// Called on the encode thread for every packet: a lock and an append, nothing else.
    package func offer(_ packet: EncodedPacket) {
        if inbox.withLock({ $0.offer(packet) }) { wake.signal() }
    }

    /// A new viewer, or nil when `maxViewers` are watching.
    package func addViewer() -> LiveViewer? {
        viewers.withLock { list in
            list.removeAll { $0.isClosed }
            guard list.count < Self.maxViewers else { return nil }
            let v = LiveViewer()
            list.append(v)
            return v
        }
    }

    package var viewerCount: Int { viewers.withLock { $0.count { !$0.isClosed } } }
    package var skippedFragments: Int { viewers.withLock { $0.reduce(0) { $0 + $1.skips } } }
    package var lastError: String? { failure.withLock { $0 } }

    /// Ends every viewer's stream and the fan-out thread.
    package func stop() {
        inbox.withLock { $0.stopped = true }
        wake.signal()
        for v in viewers.withLock({ $0 }) { v.close() }
    }

    private func run() {
        var muxer: FragmentMuxer?
        // A stream that starts at a keyframe starts its sound there too, though the sound for it
        // went by before the picture.
        var backlog = SoundBacklog()
        // Sound not yet sent: it goes out with the next picture.
        var pendingSound: [EncodedPacket] = []
        while true {
            wake.wait()  // every offered packet and stop() signal
            let (packets, stopped) = inbox.withLock { ($0.take(), $0.stopped) }
            if stopped { return }
            let watching = viewers.withLock { list in
                list.removeAll { $0.isClosed }
                return list
            }
            if watching.isEmpty { muxer = nil }  // nobody watches: no muxing at all
            if let m = muxer, let t = tracks, m.hasSound != (t.sound != nil) {
                // The sound ended: viewers reconnect to a stream of pictures only.
                for v in watching { v.close() }
                muxer = nil
                packets.forEach { backlog.add($0) }
                continue
            }
            for packet in packets where packet.stream == backlog.pictures || packet.stream == backlog.sound {
                if packet.stream == backlog.sound {
                    backlog.add(packet)
                    if muxer?.hasSound == true, pendingSound.count < 200 { pendingSound.append(packet) }
                    continue
                }
                guard !watching.isEmpty else { continue }
                if muxer == nil {
                    muxer = start(at: packet)
                    pendingSound = muxer?.hasSound == true ? backlog.from(packet.presentationTime) : []
                }
                guard let m = muxer else { continue }
                for v in watching where v.needsStart { v.start(initSegment: m.initSegment) }
                var group = pendingSound + [packet]
                pendingSound.removeAll(keepingCapacity: true)
                // The muxer starts both tracks from the first packet it is given: the earliest.
                if !m.started { group.sort { $0.decodeTime < $1.decodeTime } }
                do {
                    let fragment = try m.fragment(group)
                    for v in watching { v.push(fragment, keyframe: packet.isKeyframe) }
                } catch {
                    failure.withLock { $0 = "the live stream failed at \(packet.presentationTime.clockText): \(error)" }
                    muxer = nil
                }
            }
        }
    }

    /// A muxer for a stream that starts at `packet`, if it is a keyframe and the encoders run.
    private func start(at packet: EncodedPacket) -> FragmentMuxer? {
        guard packet.isKeyframe, let p = parameters(), let tracks else { return nil }
        do {
            return try FragmentMuxer(parameters: p, sound: tracks.sound == nil ? nil : sound().parameters)
        } catch {
            failure.withLock { $0 = "the live stream cannot start: \(error)" }
            return nil
        }
    }
}
