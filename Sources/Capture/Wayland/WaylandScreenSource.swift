import Foundation
import Glibc
import Media
import RecCore

/// The screen of a Wayland desktop, or any PipeWire video node, as a frame source: frames of a
/// PipeWire stream (`PipeWireStream`), timed by the producer's timestamps, 0 at the first frame.
///
/// A compositor sends a frame only when something changed. Every frame is recorded, and while
/// none comes the newest is recorded again (`FramePacing`: at least once a second, sooner when the
/// keyframe interval is shorter), so every range of the recording has pictures and keyframes. A
/// producer that changes size (a resolution switch) has its frames scaled to the size it started
/// with, so the file, the ring and clips keep one size.
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
    private let keyframeSeconds: Double
    private var pacing: FramePacing
    /// The newest frame, which a repeat records again, and when (CLOCK_MONOTONIC nanoseconds) the
    /// last recorded frame was handed on.
    private var latest: VideoFrame?
    private var lastRecordedAt: UInt64 = 0
    /// The size and pixel format the producer started with, which every frame is handed on in.
    private var sessionFormat: VideoFormat?
    private var scaler: Scaler?
    private var sequence: Int64 = 0

    /// - Parameter keyframeSeconds: the preset's keyframe interval: a static screen is recorded
    ///   again at least this often (and at least once a second).
    package init(origin: Origin, startSeconds: Double = 10, keyframeSeconds: Double = 1) {
        self.origin = origin
        self.startSeconds = startSeconds
        self.keyframeSeconds = keyframeSeconds
        pacing = Self.pacing(keyframeSeconds: keyframeSeconds)
    }

    /// A frame for every one the producer sends (it paces itself), and repeats while it sends none.
    private static func pacing(keyframeSeconds: Double) -> FramePacing {
        FramePacing(mode: .changes, maxRate: 1000, keyframeSeconds: keyframeSeconds)
    }

    deinit {
        if case .portal(let fd, _) = origin { close(fd) }
    }

    package var format: VideoFormat {
        sessionFormat ?? stream?.format?.video ?? VideoFormat(width: 0, height: 0, pixelFormat: .none)
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
    /// Frames come unevenly (changes, then one a second), so keyframes are placed by time.
    package var capabilities: SourceCapabilities { SourceCapabilities(isLive: true, interrupt: interrupt, keyframesByTime: true) }
    /// Frames recorded as the producer sent them, and again while it sent none.
    package var pacingCounts: (changes: Int, repeats: Int) { (pacing.changes, pacing.repeats) }

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
        pacing = Self.pacing(keyframeSeconds: keyframeSeconds)
        (latest, sessionFormat, scaler, sequence) = (nil, nil, nil, 0)
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
        while true {
            // The producer's next frame, or the newest one again once `repeatGap` has passed.
            var deadline: UInt64?
            if let due = pacing.repeatDue, let last = pacing.lastRecorded {
                deadline = lastRecordedAt + UInt64(max(0, due - last)) * 1000
            }
            if let frame = try stream.next(interrupt: interrupt, deadline: deadline) {
                latest = frame
                // A frame stamped before a repeat already recorded is shown by the next repeat.
                guard pacing.decide(at: frame.captureTime.rescaled(to: .microseconds).value, changed: true) == .record else { continue }
                return try handedOn(frame)
            }
            guard !interrupt.isSet, let deadline, PipeWireStream.monotonicNow() >= deadline,
                  let latest, let due = pacing.repeatDue else { return nil }
            guard pacing.decide(at: due, changed: false) == .record else { continue }
            let again: VideoFrame
            do throws(FFmpegError) { again = try latest.clone() } catch { throw error.recError("repeating the last PipeWire frame failed") }
            again.captureTime = .microseconds(due)
            return try handedOn(again)
        }
    }

    /// `frame` in the session's format, numbered, with the time it was handed on noted.
    private func handedOn(_ frame: VideoFrame) throws(RecError) -> VideoFrame {
        lastRecordedAt = PipeWireStream.monotonicNow()
        let format = sessionFormat ?? frame.format
        sessionFormat = format
        var out = frame
        if frame.format != format {
            do throws(FFmpegError) {
                let scaler: Scaler
                if let reusable = self.scaler, reusable.input == frame.format { scaler = reusable } else {
                    scaler = try Scaler(from: frame.format, to: format)
                }
                self.scaler = scaler
                out = try scaler.scale(frame)
            } catch {
                throw error.recError("scaling the PipeWire frame of \(frame.format) to \(format) failed")
            }
            out.captureTime = frame.captureTime
        }
        out.sequence = sequence
        sequence += 1
        return out
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
    package static func opened(_ origin: Origin, size: (width: Int, height: Int)?, fps: Int?,
                               keyframeSeconds: Double = 1) throws(RecError) -> WaylandScreenSource {
        return try checked(WaylandScreenSource(origin: origin, keyframeSeconds: keyframeSeconds), size: size, fps: fps)
    }

    /// The screen through the ScreenCast portal: the user picks it the first time; the portal's
    /// restore token is kept in `$XDG_STATE_HOME/rec/screencast-restore-token` (default
    /// ~/.local/state) so the next start (rec@.service) does not ask again.
    ///
    /// A saved token the portal refuses (its SelectSources fails on it) is dropped, said through
    /// `warn`, and the screen asked for again.
    package static func openedThroughPortal(size: (width: Int, height: Int)?, fps: Int?, keyframeSeconds: Double = 1,
                                            window: Bool = false, cursor: Bool = true,
                                            warn: (String) -> Void = { _ in }) throws(RecError) -> WaylandScreenSource {
        var portal = try ScreenCastPortal()
        let tokenFile = restoreTokenPath(window: window)
        let saved = (try? String(contentsOfFile: tokenFile, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
        let grant: ScreenCastPortal.Grant
        do {
            grant = try portal.start(restoreToken: saved, window: window, cursor: cursor)
        } catch where saved != nil {
            warn("the screen-cast portal refused the saved restore token in \(tokenFile) (\(error.message)); "
                 + "it is dropped and the screen is asked for again")
            try? FileManager.default.removeItem(atPath: tokenFile)
            portal = try ScreenCastPortal()
            grant = try portal.start(restoreToken: nil, window: window, cursor: cursor)
        }
        if let token = grant.restoreToken {
            try? FileManager.default.createDirectory(atPath: (tokenFile as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try? token.write(toFile: tokenFile, atomically: true, encoding: .utf8)
        }
        let source = WaylandScreenSource(origin: .portal(descriptor: grant.descriptor, nodeID: grant.nodeID), keyframeSeconds: keyframeSeconds)
        source.portal = portal
        return try checked(source, size: size, fps: fps)
    }

    /// The token of the last monitor chosen, or of the last window (`window-` in its name).
    static func restoreTokenPath(window: Bool = false) -> String {
        let env = ProcessInfo.processInfo.environment
        let state = env["XDG_STATE_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? ((env["HOME"] ?? "") + "/.local/state")
        return state + (window ? "/rec/screencast-window-restore-token" : "/rec/screencast-restore-token")
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
