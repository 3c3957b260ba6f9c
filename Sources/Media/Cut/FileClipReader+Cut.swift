import RecCore

extension FileClipReader {
    /// Bytes of packets a cut written as it reads holds at most before it gives that up and
    /// writes the clip from the final plan, reading the range again: 64 MiB, a GOP of 10 s at
    /// 50 Mb/s. Cuts hold a GOP or two.
    package static let streamingWindow = 64 << 20

    /// Whether `cut` writes the clip of `[from, to)` in `container` as it reads the range: the
    /// scan must read the samples, the range looks longer than `FileClip.heldLimit`, and the clip
    /// re-encodes no sound. `StreamingClip` hands the packets to the clip as the scan reads them
    /// and plans each sound track's cut from that track's own packets read so far; a track
    /// re-encoded for the container (G.711 into MP4, `ClipSoundFit`) is planned from the packets
    /// the whole input makes, known only once the range is read. Such a clip is scanned first and
    /// then written (reading the range's packets twice when they are too many to keep).
    package func writesAsItReads(from: Timestamp, to: Timestamp, into container: ContainerFormat) -> Bool {
        reading == .normal && !likelyFits(from: from, to: to, limit: FileClip.heldLimit)
            && !demuxer.streams.contains { ClipSoundFit.reencodes($0.parameters, in: container) }
    }

    /// Cuts `[from, to)` (file timeline) into `path`, copying (no `--reencode`), reading the range
    /// once: where the scan must read the samples (Matroska, WebM, MPEG-TS, fragmented MP4) and
    /// the range looks longer than `FileClip.heldLimit`, the clip is written as the range is read
    /// (`StreamingClip`); a skimmed MP4 or MOV, or a short range, is scanned and then written
    /// (`read`, `ClipWriter.write`), reading its samples once too; so is a clip that re-encodes
    /// sound (`writesAsItReads`).
    package func cut(from: Timestamp, to: Timestamp, mode: CutPlan.Mode, strategy: CutPlan.Strategy, into path: String,
                    container: ContainerFormat, options: ClipWriter.Options = .init(),
                    window: Int = streamingWindow) throws(RecError) -> ClipWriter.Report {
        guard writesAsItReads(from: from, to: to, into: container) else {
            let read = try read(from: from, to: to)
            let plan = try CutPlanner.plan(packets: read.source.timings, timeBase: read.source.timeBase, from: read.from,
                                           to: read.to, mode: mode, strategy: strategy)
            return try ClipWriter.write(read.source, plan: plan, to: path, container: container, options: options)
        }
        let cut = StreamingCut(timeBase: video.timeBase, from: streamTime(from), to: streamTime(to), mode: mode, strategy: strategy,
                               reorderDepth: video.reorderDepth)
        let streaming = StreamingClip(reader: self, cut: cut, seconds: to.seconds - from.seconds, path: path,
                                      container: container, options: options, window: window)
        do {
            let read = try read(from: from, to: to, keeping: 0, streaming: streaming)
            return try streaming.finish(read.source)
        } catch {
            streaming.giveUp()
            throw error
        }
    }
}

extension FileClip {
    /// The clip of a paced screen's range, as the screen showed it (`HeldPictures`): the picture
    /// on screen at `from` moved to `from`, the last one held to `to`; `from` and `to` on the
    /// video stream's clock (as `FileClipReader.read` returns them).
    package func held(from: Timestamp, to: Timestamp) -> FileClip {
        var clip = self
        clip.readPTS = timings.map(\.pts)
        clip.timings = HeldPictures.held(timings, timeBase: timeBase, from: from, to: to)
        return clip
    }
}
