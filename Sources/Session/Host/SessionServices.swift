import Live
import RecCore
import Synchronization

/// What a session runs beside the file and the ring: the live page and the publishers. The encode
/// thread hands each packet to `fanOut`, which only appends to each listener's bounded queue.
package final class SessionServices: Sendable {
    private let listeners = Mutex<[@Sendable (EncodedPacket) -> Void]>([])
    let live = Mutex<LiveServer?>(nil)
    let publishers = Mutex<[Publisher]>([])

    /// Called on the encode thread for every packet; never blocks beyond each listener's lock.
    func fanOut(_ packet: EncodedPacket) {
        for listener in listeners.withLock({ $0 }) { listener(packet) }
    }

    func listen(_ listener: @escaping @Sendable (EncodedPacket) -> Void) {
        listeners.withLock { $0.append(listener) }
    }

    /// Status fields (`extra` in `rec status --json`).
    var status: [String: String] {
        var out: [String: String] = [:]
        if let live = live.withLock({ $0 }) {
            out["live_viewers"] = String(live.broadcast.viewerCount)
            if let tracks = live.broadcast.tracks {
                out["live_sound"] = tracks.sound ?? (tracks.soundNote.map { "off: " + $0 } ?? "off")
            }
            out["live_skipped"] = String(live.broadcast.skippedFragments)
            if let e = live.broadcast.lastError { out["live_error"] = e }
        }
        let publishers = publishers.withLock { $0 }
        for (i, p) in publishers.enumerated() {
            let s = p.status
            let key = publishers.count == 1 ? "publish" : "publish\(i + 1)"
            out[key] = s.summary
            out[key + "_state"] = s.state
            out[key + "_retries"] = String(s.retries)
            out[key + "_bytes"] = String(s.bytesSent)
            out[key + "_sound"] = s.sound
            if let e = s.lastError { out[key + "_error"] = e }
        }
        return out
    }

    /// Ends the live page and the publishers (once; later calls do nothing).
    func stop() {
        listeners.withLock { $0.removeAll() }
        live.withLock { server in
            server?.stop()
            server = nil
        }
        for p in publishers.withLock({ list in defer { list.removeAll() }; return list }) { p.stop() }
    }
}
