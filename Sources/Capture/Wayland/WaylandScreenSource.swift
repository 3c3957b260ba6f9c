import Foundation
import Glibc
import Media
import RecCore

/// The screen of a Wayland desktop, or any PipeWire video node, as a frame source: frames of a
/// PipeWire stream (`PipeWireStream`), timed by the producer's timestamps, 0 at the first frame.
///
/// `pipewire:NODE` reads a node of the user's PipeWire by name or serial (what `pw-cli ls Node`
/// shows). A portal session (`ScreenCastPortal`) hands over its own PipeWire connection and node.
package final class WaylandScreenSource: FrameSource {
    /// Where the frames come from.
    package enum Origin: Sendable, Equatable {
        /// A node of the user's PipeWire, by `node.name` or serial.
        case node(String)
        /// A screen cast the portal started: its PipeWire connection (owned by the source from here
        /// on) and node id.
        case portal(descriptor: Int32, nodeID: UInt32)
    }

    private let origin: Origin
    /// The portal session the stream belongs to, kept open as long as the source.
    private var portal: ScreenCastPortal?
    private var stream: PipeWireStream?
    private let interrupt = InterruptFlag()
    /// How long `start()` waits for the producer to agree on a format.
    private let startSeconds: Double

    package init(origin: Origin, startSeconds: Double = 10) {
        self.origin = origin
        self.startSeconds = startSeconds
    }

    deinit {
        if case .portal(let fd, _) = origin { close(fd) }
    }

    package var format: VideoFormat {
        stream?.format?.video ?? VideoFormat(width: 0, height: 0, pixelFormat: .none)
    }
    package var nominalFrameRate: Rational? { stream?.format?.rate }
    package var description: String {
        let what = switch origin {
        case .node(let name): "PipeWire node \(name)"
        case .portal(_, let id): "screen (portal, PipeWire node \(id))"
        }
        guard let f = stream?.format else { return what }
        return "\(what) \(f.video.width)x\(f.video.height) \(f.spaName)"
    }
    package var droppedFrames: Int { stream?.lost ?? 0 }
    package var capabilities: SourceCapabilities { SourceCapabilities(isLive: true, interrupt: interrupt) }

    /// Connects and waits until the producer streams in a format rec reads; throws if it has not
    /// within `startSeconds`.
    package func start() throws(RecError) {
        guard stream == nil else { return }
        let made = switch origin {
        case .node(let name): PipeWireStream(remote: .user, target: name)
        // PipeWire closes the descriptor it connects with; the source keeps the portal's own.
        case .portal(let fd, let id): PipeWireStream(remote: .descriptor(dup(fd)), target: nil, nodeID: id)
        }
        stream = made
        do throws(RecError) {
            try made.open()
            let deadline = PipeWireStream.monotonicNow() + UInt64(startSeconds * 1e9)
            let streams: Bool
            do throws(RecError) {
                streams = try made.waitForFormat(deadline: deadline, interrupt: interrupt)
            } catch {
                // WirePlumber removes a stream whose node.dont-reconnect target is missing: the
                // server's error then names only its own objects ("unknown resource 2").
                throw .runtime("\(description) did not stream (\(error.message)); check that it exists and streams "
                               + "('pw-cli ls Node' lists nodes by name)")
            }
            guard streams else {
                if interrupt.isSet { throw .runtime("stopped while waiting for \(description)") }
                throw .runtime("\(description) sent no video within \(Int(startSeconds)) s; "
                                       + "check that it exists and streams ('pw-cli ls Node' lists nodes by name)")
            }
        } catch {
            made.close()
            stream = nil
            throw error
        }
    }

    package func nextFrame() throws(RecError) -> VideoFrame? {
        guard let stream else { return nil }
        return try stream.next(interrupt: interrupt)
    }

    /// Closes the stream (its format and counts stay readable).
    package func stop() {
        stream?.close()
    }
}

extension WaylandScreenSource {
    /// The source, checked now: connected until the producer streams, then closed again, so a
    /// missing node or server fails before the recording starts. `Recorder` then starts it on its
    /// capture thread, the one thread a PipeWire loop may run on once entered.
    package static func opened(_ origin: Origin, size: (width: Int, height: Int)?, fps: Int?) throws(RecError) -> WaylandScreenSource {
        return try checked(WaylandScreenSource(origin: origin), size: size, fps: fps)
    }

    /// The screen through the ScreenCast portal: the user picks it the first time; the portal's
    /// restore token is kept in `$XDG_STATE_HOME/rec/screencast-restore-token` (default
    /// ~/.local/state) so the next start (rec@.service) does not ask again.
    package static func openedThroughPortal(size: (width: Int, height: Int)?, fps: Int?) throws(RecError) -> WaylandScreenSource {
        let portal = try ScreenCastPortal()
        let tokenFile = restoreTokenPath()
        let saved = try? String(contentsOfFile: tokenFile, encoding: .utf8)
        let grant = try portal.start(restoreToken: saved?.trimmingCharacters(in: .whitespacesAndNewlines))
        if let token = grant.restoreToken {
            try? FileManager.default.createDirectory(atPath: (tokenFile as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try? token.write(toFile: tokenFile, atomically: true, encoding: .utf8)
        }
        let source = WaylandScreenSource(origin: .portal(descriptor: grant.descriptor, nodeID: grant.nodeID))
        source.portal = portal
        return try checked(source, size: size, fps: fps)
    }

    static func restoreTokenPath() -> String {
        let env = ProcessInfo.processInfo.environment
        let state = env["XDG_STATE_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? ((env["HOME"] ?? "") + "/.local/state")
        return state + "/rec/screencast-restore-token"
    }

    private static func checked(_ source: WaylandScreenSource, size: (width: Int, height: Int)?, fps: Int?) throws(RecError) -> WaylandScreenSource {
        if size != nil || fps != nil {
            throw .usage("--size and --fps do not apply to a PipeWire source, which sends its own size and rate; "
                         + "use --filter scale=W:H or --filter fps=N with a preset that encodes")
        }
        try source.start()
        source.stop()
        source.stream = nil
        return source
    }
}
