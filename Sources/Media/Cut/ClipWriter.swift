import Foundation
import RecCore

/// Writes the clip a `CutPlan` describes: copied packets, re-encoded heads and tails where the
/// container has no edit lists, other streams cut to the same range, into a temporary file that is
/// renamed over `path` only once it is complete. Runs on whatever thread calls it (a save's own
/// thread, never capture or encode).
package enum ClipWriter {
    package struct Report: Sendable {
        package var path: String
        package var plan: CutPlan
        package var bytes: Int64
        package var otherPackets: Int
        /// Streams of the source the clip's container cannot take, each with why.
        package var leftOut: [String] = []
        /// Whether the range's packets were read twice: a cut written as it read its range
        /// (`FileClipReader.cut`) whose final plan wrote something differently, written again.
        package var readTwice = false
        /// The most bytes of packets a cut written as it read its range held at once.
        package var heldAtMost = 0
    }

    /// How a clip is written, beyond what it holds.
    package struct Options {
        /// Called now and then with the share of the clip's video written (0…1).
        package var progress: ((Double) -> Void)?
        /// The settings the source was encoded with, when rec encoded it (a session's ring or
        /// file): re-encoded frames use its encoder, speed and quality.
        package var sessionEncoder: EncoderSettings?
        /// Threads for the decoder and encoder of a whole-clip re-encode (`--reencode`); 0 lets
        /// libavcodec choose. A save inside a recording session takes 1, leaving the cores to the
        /// live encoder. The head and tail of a splice always take 1 (they are a GOP at most).
        package var codecThreads: Int

        package init(progress: ((Double) -> Void)? = nil, sessionEncoder: EncoderSettings? = nil, codecThreads: Int = 0) {
            self.progress = progress
            self.sessionEncoder = sessionEncoder
            self.codecThreads = codecThreads
        }
    }

    /// - Parameters:
    ///   - reencode: settings for `--reencode` (the whole range encoded again); nil copies.
    ///   - progress: called now and then with the share of the clip's video written (0…1).
    package static func write(_ source: any ClipInput, plan: CutPlan, to path: String, container: ContainerFormat,
                             reencode: EncoderSettings? = nil,
                             progress: ((Double) -> Void)? = nil) throws(RecError) -> Report {
        try write(source, plan: plan, to: path, container: container, reencode: reencode, options: Options(progress: progress))
    }

    package static func write(_ source: any ClipInput, plan: CutPlan, to path: String, container: ContainerFormat,
                             reencode: EncoderSettings? = nil, options: Options) throws(RecError) -> Report {
        var plan = plan
        if reencode != nil, let whole = wholeRange(plan) {
            plan.segments = [.reencode(decode: whole, presentPTS: plan.firstPresentedPTS..<plan.presentedEndPTS)]
            plan.reencodedFrames = plan.presentedFrames
            plan.prerollFrames = 0
            plan.trailingHiddenFrames = 0
        }
        // Sound the container cannot hold as recorded (G.711 into MP4) is re-encoded as it is written.
        let source = try ClipSoundFit.fitting(source, into: container)
        let temporary = OutputPath.temporarySibling(of: path)
        do {
            let job = try ClipJob(input: source, plan: plan, container: container, reencode: reencode, options: options)
            let others = try job.run(to: temporary)
            return try seal(job, others: others, plan: plan, temporary: temporary, path: path, container: container,
                            reencode: reencode)
        } catch {
            unlink(temporary)
            throw recError(error, path: path)
        }
    }

    /// Completes a clip `job` wrote to `temporary`: the edit lists' ends, then renamed over `path`.
    static func seal(_ job: ClipJob, others: Int, plan: CutPlan, temporary: String, path: String, container: ContainerFormat,
                     reencode: EncoderSettings?) throws -> Report {
        let duration = plan.presentedEndPTS - plan.firstPresentedPTS
        if container.hasEditLists {
            // The pictures' end, where an edit list hides the trailing references; sound ends
            // with them, to the sample (the last packet's surplus is hidden).
            let video: [UInt32] = plan.strategy == .editList && reencode == nil ? [1] : []
            try EditListPatch.apply(to: temporary, trackIDs: video + job.soundTrackIDs, duration: duration,
                                    timeBase: plan.timeBase, movieTimeScale: job.movieTimeScale)
        }
        try OutputPath.commit(temporary, to: path)
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int64) ?? 0
        return Report(path: path, plan: plan, bytes: size, otherPackets: others, leftOut: job.leftOut)
    }

    /// What writing the clip at `path` failing says to the user.
    static func recError(_ error: any Error, path: String) -> RecError {
        if let error = error as? RecError { return error }
        if let error = error as? FFmpegError { return error.recError("writing the clip \(path) failed") }
        return .runtime("writing the clip \(path) failed", cause: "\(error)")
    }

    private static func wholeRange(_ plan: CutPlan) -> Range<Int>? {
        var lower = Int.max, upper = Int.min
        for s in plan.segments {
            switch s {
            case .copy(let r), .reencode(decode: let r, presentPTS: _):
                lower = min(lower, r.lowerBound)
                upper = max(upper, r.upperBound)
            }
        }
        return lower < upper ? lower..<upper : nil
    }
}

/// Rewrites an MP4's edit lists so the tracks end exactly where the clip does (`MP4EditList`):
/// the index is read and written back once, whatever the number of tracks.
enum EditListPatch {
    static func apply(to path: String, trackIDs: [UInt32], duration: Int64, timeBase: Rational,
                      movieTimeScale: Int32) throws {
        guard !trackIDs.isEmpty else { return }
        // Round down: a frame starting exactly at the end must stay hidden.
        let ticks = duration.multipliedFullWidth(by: Int64(timeBase.num) * Int64(movieTimeScale))
        let (movieDuration, _) = Int64(timeBase.den).dividingFullWidth(ticks)
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        var offset: UInt64 = 0
        let size = try handle.seekToEnd()
        while offset + 8 <= size {
            try handle.seek(toOffset: offset)
            let bytes = [UInt8](try handle.read(upToCount: 16) ?? Data())
            guard bytes.count >= 8 else { break }
            guard let box = MP4BoxHeader(bytes, remaining: size - offset) else {
                throw RecError.runtime("malformed MP4 box at \(offset) in \(path)")
            }
            let boxSize = box.size
            if box.type == "moov" {
                try handle.seek(toOffset: offset)
                var moov = [UInt8](try handle.read(upToCount: Int(boxSize)) ?? Data())
                do {
                    for trackID in trackIDs { try MP4EditList.setDuration(movieDuration, trackID: trackID, moov: &moov) }
                } catch {
                    throw RecError.runtime("cannot set the clip's end in \(path)", cause: "\(error)")
                }
                try handle.seek(toOffset: offset)
                try handle.write(contentsOf: moov)
                return
            }
            offset += boxSize
        }
        throw RecError.runtime("no moov box in \(path)")
    }
}
