import Foundation
import Live
import Media
import RecCore

/// A clip the session wrote, as the review timeline lists it (`GET /api/recordings`).
struct SavedClip: Sendable {
    /// Session time when it was written.
    var at: Double
    var saved: ControlSpan
    var path: String
    var frames: Int
    /// Who asked: `save` (the control socket), `page`, `motion`, `mqtt`, `signal`.
    var by: String
    /// Whether it was queued for copying (`--upload`, or the save's own).
    var queued: Bool
}

extension SessionHost {
    /// How many saved clips the session remembers, the oldest forgotten first.
    static let savedClipLimit = 1000

    func noteSaved(_ report: SaveReport, by: String, uploaded: Bool) {
        let at = recorder.currentStats.startedAt.map { Date().timeIntervalSince($0) } ?? 0
        let clip = SavedClip(at: at, saved: report.saved ?? ControlSpan(from: 0, to: 0), path: Self.absolute(report.path),
                             frames: report.frames ?? 0, by: by, queued: uploaded)
        savedClips.withLock {
            $0.append(clip)
            if $0.count > Self.savedClipLimit { $0.removeFirst($0.count - Self.savedClipLimit) }
        }
    }

    package func liveRecordings() -> LiveRecordings {
        let stats = recorder.currentStats
        let held = ring.stats
        let newest = held.newest?.seconds
        var out = LiveRecordings(startedAt: liveStartedAt, frameRate: liveFrameRate, newest: newest,
                                 ring: held.start.flatMap { start in held.end.map { .init(start: start.seconds, end: $0.seconds) } })
        if let output = configuration.recorder.output {
            if output.segments != nil {
                let records = recorder.segments
                out.files = records.indices.compactMap { i in
                    let r = records[i]
                    guard FileManager.default.fileExists(atPath: r.path) else { return nil }
                    let end = r.end?.seconds ?? (i + 1 < records.count ? records[i + 1].start.seconds : newest ?? r.start.seconds)
                    return .init(path: Self.absolute(r.path), span: .init(start: r.start.seconds, end: end))
                }
            } else if let newest, FileManager.default.fileExists(atPath: output.path) {
                out.files = [.init(path: Self.absolute(output.path), span: .init(start: 0, end: newest))]
            }
        }
        let tracker = recorder.gaps.withLock { $0 }
        out.gaps = tracker.gaps.map { .init(span: .init(start: $0.start.seconds, end: $0.end.seconds), reason: $0.reason, open: false) }
        let ended: String? = switch stats.state {
        case .failed: stats.lastError ?? "the recording failed"
        case .stopping, .finished: "the recording ended"
        case .starting, .recording: nil
        }
        if let zero = stats.startedAt, let gap = tracker.current(at: Timestamp(seconds: Date().timeIntervalSince(zero)), ended: ended) {
            out.gaps.append(.init(span: .init(start: gap.start.seconds, end: gap.end.seconds), reason: gap.reason, open: true))
        }
        let uploader = uploads.withLock { $0 }
        out.saves = savedClips.withLock { $0 }.map { c in
            .init(at: c.at, range: .init(start: c.saved.from, end: c.saved.to), path: c.path, frames: c.frames, by: c.by,
                  upload: c.queued ? uploader?.state(of: c.path) ?? "pending" : nil)
        }
        return out
    }

    /// The picture shown at `seconds`: the frame presented last at or before it (0.5 ms
    /// tolerance), decoded from its keyframe on with a decoder of this thread's own. From a
    /// snapshot of the ring's packets (references, taken under the ring's lock) when the ring
    /// holds it, else from the recording file or segments. Never waits on capture or encoding.
    package func liveFrame(at seconds: Double, width: Int?) throws(RecError) -> LiveFrameAnswer {
        let held = ring.stats
        guard let parameters = recorder.codecParameters, let newest = held.newest, let end = held.end else {
            return .none("nothing is recorded yet; try again once the session has frames")
        }
        guard seconds >= 0 else { return .none("\(seconds) s is before the session's first frame (at 0)") }
        if seconds > newest.seconds + 1 {
            return .none(String(format: "%.6f s is not recorded yet: the newest frame is at %.6f s", seconds, newest.seconds))
        }
        let t = Timestamp.microseconds(Int64((seconds * 1_000_000).rounded()))
        let limit = Timestamp.microseconds(t.value + 500)
        let tracker = recorder.gaps.withLock { $0 }
        var gaps = tracker.gaps(in: t..<Timestamp.microseconds(t.value + 1))
        if let zero = recorder.currentStats.startedAt, let open = tracker.current(at: Timestamp(seconds: Date().timeIntervalSince(zero))),
           open.start <= t {
            gaps.append(open)
        }
        if let gap = gaps.first {
            return .none(String(format: "no picture at %.6f s: it falls in a gap from %.6f to %.6f s (%@)",
                                seconds, gap.start.seconds, gap.end.seconds, gap.reason))
        }
        if let start = held.start, limit >= start {
            let from = min(max(t, start), newest)
            // The ring may have let the range go since its stats were read: the file has it then.
            if let packets = try? ring.snapshot(from: from, to: min(Timestamp.microseconds(limit.value + 1), end)) {
                let frame: VideoFrame?
                do { frame = try NewestPicture.decode(packets, parameters: parameters, upTo: limit) } catch {
                    throw error.recError("cannot decode the picture at \(t.clockText)")
                }
                if let frame { return .picture(try Self.jpeg(frame, time: frame.captureTime.seconds, source: "ring", width: width)) }
            }
        }
        return try fileFrame(at: t, limit: limit, newest: newest, width: width)
    }

    /// `liveFrame` older than the ring: from the recording file, or the segments that hold it.
    private func fileFrame(at t: Timestamp, limit: Timestamp, newest: Timestamp, width: Int?) throws(RecError) -> LiveFrameAnswer {
        let ringStart = ring.stats.start?.seconds ?? 0
        guard let file = configuration.recorder.output else {
            return .none(String(format: "%.6f s is older than the ring (which starts at %.6f s) and this session records no file",
                                t.seconds, ringStart))
        }
        if t < fileStart {
            return .none(String(format: "%.6f s is older than the oldest recording file kept (from %.6f s)", t.seconds, fileStart.seconds))
        }
        guard (recorder.fileComplete.map { $0 >= limit }) ?? false else {
            throw .runtime("the recording file has not reached \(t.clockText) yet; try again in a moment")
        }
        let range = t..<Timestamp.microseconds(limit.value + 1)
        do {
            let frame: VideoFrame?
            var zero = Timestamp.zero
            if file.segments != nil {
                frame = try NewestPicture.decode(try segmentSource(range, newest: newest), upTo: limit)
            } else {
                let reader = try FileClipReader(path: file.path)
                zero = reader.start
                let read = try reader.read(from: range.lowerBound, to: range.upperBound)
                frame = try NewestPicture.decode(read.source, upTo: .microseconds(zero.rescaled(to: .microseconds).value + limit.value))
            }
            guard let frame else { return .none(String(format: "the recording holds no picture at %.6f s", t.seconds)) }
            return .picture(try Self.jpeg(frame, time: frame.captureTime.seconds - zero.seconds, source: "file", width: width))
        } catch let error as RecError {
            throw error
        } catch let error as FFmpegError {
            throw error.recError("cannot decode the picture at \(t.clockText) from \(file.path)")
        } catch {
            throw .runtime("cannot read the picture at \(t.clockText) from \(file.path): \(error)")
        }
    }

    private static func jpeg(_ frame: VideoFrame, time: Double, source: String, width: Int?) throws(RecError) -> LiveFrame {
        do {
            return LiveFrame(jpeg: try JPEGWriter.encode(frame, width: width, qscale: 3), time: time, source: source)
        } catch {
            throw error.recError("cannot make the picture's JPEG")
        }
    }

    static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }
}
