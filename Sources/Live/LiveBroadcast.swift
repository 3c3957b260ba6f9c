import Dispatch
import Foundation
import Media
import RecCore
import Synchronization

/// The live picture: packets from the encode thread (`offer`, which never blocks) cross a bounded
/// inbox to one fan-out thread ("rec.live") that owns a `FragmentMuxer` while anyone watches and
/// gives each viewer the same moof + mdat fragments. No second encode; one mux for all viewers.
public final class LiveBroadcast: Sendable {
    public static let maxViewers = 24
    private let inbox = Mutex(PacketInbox(limit: 120, startAtKeyframe: false))
    private let wake = DispatchSemaphore(value: 0)
    private let viewers = Mutex<[LiveViewer]>([])
    private let parameters: @Sendable () -> CodecParameters?
    private let failure = Mutex<String?>(nil)

    /// `parameters` gives the encoder's stream parameters once it runs.
    public init(parameters: @escaping @Sendable () -> CodecParameters?) {
        self.parameters = parameters
        let thread = Thread { [self] in
            ThreadName.set("rec.live")
            self.run()
        }
        thread.name = "rec.live"
        thread.start()
    }

    /// Called on the encode thread for every packet: a lock and an append, nothing else.
    public func offer(_ packet: EncodedPacket) {
        if inbox.withLock({ $0.offer(packet) }) { wake.signal() }
    }

    /// A new viewer, or nil when `maxViewers` are watching.
    public func addViewer() -> LiveViewer? {
        viewers.withLock { list in
            list.removeAll { $0.isClosed }
            guard list.count < Self.maxViewers else { return nil }
            let v = LiveViewer()
            list.append(v)
            return v
        }
    }

    public var viewerCount: Int { viewers.withLock { $0.count { !$0.isClosed } } }
    public var skippedFragments: Int { viewers.withLock { $0.reduce(0) { $0 + $1.skips } } }
    public var lastError: String? { failure.withLock { $0 } }

    /// Ends every viewer's stream and the fan-out thread.
    public func stop() {
        inbox.withLock { $0.stopped = true }
        wake.signal()
        for v in viewers.withLock({ $0 }) { v.close() }
    }

    private func run() {
        var muxer: FragmentMuxer?
        while true {
            _ = wake.wait(timeout: .now() + 0.5)
            let (packets, stopped) = inbox.withLock { ($0.take(), $0.stopped) }
            if stopped { return }
            let watching = viewers.withLock { list in
                list.removeAll { $0.isClosed }
                return list
            }
            if watching.isEmpty {
                muxer = nil  // nobody watches: no muxing at all
                continue
            }
            for packet in packets {
                if muxer == nil {
                    guard packet.isKeyframe, let p = parameters() else { continue }
                    do { muxer = try FragmentMuxer(parameters: p) } catch {
                        failure.withLock { $0 = "the live stream cannot start: \(error)" }
                        continue
                    }
                }
                guard let m = muxer else { continue }
                for v in watching where v.needsStart { v.start(initSegment: m.initSegment) }
                do {
                    let fragment = try m.fragment(packet)
                    for v in watching { v.push(fragment, keyframe: packet.isKeyframe) }
                } catch {
                    failure.withLock { $0 = "the live stream failed at \(packet.presentationTime.clockText): \(error)" }
                    muxer = nil
                }
            }
        }
    }
}
