import Foundation
import RecCore

/// The recording file, or with `--segment` a series of files: a new one starts at the first
/// keyframe at or after each segment boundary, and each is a crash-safe `AssetWriter` of its own.
///
/// Each segment's timeline starts at 0 in its own file (players prefer that); the catalog keeps the
/// session time at which each starts, so saves can translate. A rotated-out segment goes to a
/// `SegmentFinisher` thread for its trailer and MP4 rewrite, and retention (`--keep`,
/// `--max-disk`) runs there after each one is finished: deleting only files in the catalog, never
/// the newest. Owned by the encode thread.
package final class SegmentedWriter {
    package let container: ContainerFormat
    private let streams: [StreamParameters]
    /// The stream whose keyframes start segments: the first video stream.
    private let timeline: StreamID?
    private let naming: SegmentNaming?
    private let catalog: SegmentCatalog?
    private let wallClockAtZero: Date
    private let finisher: SegmentFinisher?
    private let fragmentLength: Timestamp
    /// Hears of each finished file and keeps retention off files not yet copied (`--upload`).
    private let observer: (any RecordingFileObserver)?
    // `@exclusivity(unchecked)`: the state touched for every packet. This object is owned by one
    // thread and never lends that state across a call that could reach it again, so the runtime's
    // check of each access (~80 instructions under callgrind, several per packet) never fires.
    @exclusivity(unchecked) private var current: AssetWriter
    /// Session time of the current segment's first frame, and of the next boundary.
    @exclusivity(unchecked) private var start = Timestamp.zero
    @exclusivity(unchecked) private var boundary: Timestamp?
    /// Each stream's last decode time in the current segment, by its place in `streams`.
    @exclusivity(unchecked) private var lastDTS: [Int64]
    /// Packets held until the other streams have caught up with them, so each sound packet goes
    /// into the segment whose pictures it plays with: sound comes ahead of the pictures while
    /// recording (the encoder looks ahead) and behind them with `--pace off`. `Interleave`
    /// releases them in time order, holding at most `maxHeld`.
    @exclusivity(unchecked) private var held: Interleave
    static let maxHeld = 1.0
    /// Whether the current file's first picture is still only in the fragment being filled: it is
    /// written out at once, alone, so that a file on disk (what a kill leaves) holds a frame from
    /// its first one on. Not with sound: the MP4 header waits for the first fragment to have the
    /// sound's edit list (`AssetWriter`), which a fragment of the picture alone would leave out;
    /// nor with B-frames (below).
    @exclusivity(unchecked) private var firstPictureHeld: Bool
    private let writesFirstPictureAlone: Bool
    /// `completeBefore`'s last answer, for the current file's line and segment start it came from.
    @exclusivity(unchecked) private var lastComplete: (line: Timestamp?, start: Timestamp, result: Timestamp?)?

    /// One file at `path` when `catalog` is nil; else segments named by `naming`.
    /// - Parameter onProblem: called (on the finisher thread) when finishing or deleting an old
    ///   segment fails; the recording goes on.
    package init(path: String, container: ContainerFormat, streams: [StreamParameters],
                naming: SegmentNaming? = nil, catalog: SegmentCatalog? = nil, wallClockAtZero: Date = Date(),
                fragmentLength: Timestamp = FragmentClock.defaultLength, observer: (any RecordingFileObserver)? = nil,
                onProblem: @escaping @Sendable (String) -> Void = { _ in }) throws(FFmpegError) {
        self.container = container
        self.observer = observer
        self.streams = streams
        self.lastDTS = Array(repeating: .min, count: streams.count)
        self.timeline = streams.first { $0.id.isVideo }?.id
        self.held = Interleave(streams: streams.map(\.id))
        self.writesFirstPictureAlone = !streams.contains { $0.id.isSound }
        self.firstPictureHeld = writesFirstPictureAlone
        self.wallClockAtZero = wallClockAtZero
        self.fragmentLength = fragmentLength
        guard let naming, let catalog else {
            (self.naming, self.catalog, finisher) = (nil, nil, nil)
            current = try AssetWriter(path: path, container: container, streams: streams, fragmentLength: fragmentLength)
            observer?.fileStarted(path)
            return
        }
        self.naming = naming
        self.catalog = catalog
        let first = Self.name(naming, at: .zero, wallClockAtZero: wallClockAtZero, catalog: catalog)
        current = try AssetWriter(path: first, container: container, streams: streams, fragmentLength: fragmentLength)
        observer?.fileStarted(first)
        catalog.update { $0.begin(path: first, start: .zero, date: wallClockAtZero) }
        boundary = catalog.settings.boundary(after: .zero)
        finisher = SegmentFinisher { path, error in
            Self.finished(path, error: error, catalog: catalog, observer: observer, onProblem: onProblem)
        }
    }

    /// The file being written.
    package var path: String { current.path }
    package var bytesWritten: Int64 { current.bytesWritten }
    /// Bytes of the current file complete on disk (see `AssetWriter`).
    package var durableBytes: Int64 { current.durableBytes }
    /// The write error that ended the current file early, if one did.
    package var failure: FFmpegError? { current.failure }

    /// Session time before which the files hold every frame on disk (the current segment's line,
    /// moved from its own timeline back onto the session's).
    package var completeBefore: Timestamp? {
        // Asked after every packet; the line moves once a fragment: worked out again only then.
        let line = current.completeBefore
        if let known = lastComplete, known.line == line, known.start == start { return known.result }
        let startUS = start.rescaled(to: .microseconds).value
        let result: Timestamp? = line.map { .microseconds($0.rescaled(to: .microseconds).value + startUS) } ?? (startUS > 0 ? start : nil)
        lastComplete = (line, start, result)
        return result
    }

    /// Writes a packet of any of the file's streams, on the session timeline.
    package func append(_ packet: consuming EncodedPacket) throws(FFmpegError) {
        guard streams.count > 1 else { return try write(packet) }
        held.add(packet)
        while let next = held.next(maxHeld: Self.maxHeld) { try write(next) }
    }

    /// `stream` has ended early (its source failed): the others are written without waiting for it.
    package func ended(_ stream: StreamID) {
        held.end(stream)
    }

    private func write(_ packet: consuming EncodedPacket) throws(FFmpegError) {
        let onTimeline = packet.stream == timeline, keyframe = packet.isKeyframe
        if onTimeline, keyframe, let b = boundary, packet.presentationTime >= b, current.packetsWritten > 0 {
            try rotate(at: packet.presentationTime)
        }
        guard let index = streams.firstIndex(where: { $0.id == packet.stream }) else { return }
        packet.move(back: start, after: &lastDTS[index])
        // A camera re-timed by its first RTCP sender report can repeat a decode time, which the
        // line above moves one tick on: the picture must still not be presented before it is
        // decoded, or the muxer refuses it (pts < dts) and the file ends there.
        if packet.pts < packet.dts { packet.pts = packet.dts }
        let inOrder = packet.pts == packet.dts
        try current.append(packet)
        guard onTimeline else { return }
        if firstPictureHeld {
            firstPictureHeld = false
            // Its duration then ends exactly at the next packet's decode time, which the fragment
            // takes for its end; a reordered stream's first picture waits for its fragment's end.
            if inOrder { try current.endFragment() }
        }
        if keyframe, let catalog {
            let bytes = current.bytesWritten
            catalog.update { $0.updateCurrent(bytes: bytes) }
        }
    }

    /// Finishes the current file here and waits for the finisher to finish the older ones; the
    /// observer hears of the last file after the older ones.
    package func finish() throws(FFmpegError) {
        var failure: FFmpegError?
        do {
            while let next = held.next(maxHeld: 0, draining: true) { try write(next) }
            try current.finish()
        } catch {
            failure = error
        }
        finisher?.drain()
        let path = current.path
        let bytes = Self.size(of: path) ?? current.bytesWritten
        if let catalog { catalog.update { $0.finished(path: path, bytes: bytes) } }
        // A file that failed to finish still plays up to its last fragment: it is copied too.
        if Self.size(of: path) != nil { observer?.fileFinished(path, bytes: bytes) }
        if let failure { throw failure }
    }

    /// Starts the next segment at a keyframe presented at `time` and hands the old one over.
    private func rotate(at time: Timestamp) throws(FFmpegError) {
        guard let naming, let catalog, let finisher else { return }
        let path = Self.name(naming, at: time, wallClockAtZero: wallClockAtZero, catalog: catalog)
        let next = try AssetWriter(path: path, container: container, streams: streams, fragmentLength: fragmentLength)
        observer?.fileStarted(path)
        let old = current
        current = next
        let date = wallClockAtZero.addingTimeInterval(time.seconds)
        catalog.update { $0.begin(path: path, start: time, date: date) }
        (start, boundary) = (time, catalog.settings.boundary(after: time))
        lastDTS = Array(repeating: .min, count: streams.count)
        firstPictureHeld = writesFirstPictureAlone
        finisher.finish(old)
    }

    private static func name(_ naming: SegmentNaming, at time: Timestamp, wallClockAtZero: Date,
                             catalog: SegmentCatalog) -> String {
        let taken = Set(catalog.records.map(\.path))
        return SegmentNaming.unique(naming.expand(wallClockAtZero.addingTimeInterval(time.seconds))) {
            taken.contains($0) || FileManager.default.fileExists(atPath: $0)
        }
    }

    /// On the finisher thread: records the finished size, tells the observer, then deletes what
    /// retention selects: files the observer holds (not yet copied) only when the disk would
    /// otherwise fill, and then it is told.
    private static func finished(_ path: String, error: FFmpegError?, catalog: SegmentCatalog,
                                 observer: (any RecordingFileObserver)?, onProblem: @Sendable (String) -> Void) {
        if let error { onProblem("finishing the segment \(path) failed (\(error)); its fragmented file still plays") }
        let bytes = size(of: path) ?? 0
        observer?.fileFinished(path, bytes: bytes)
        let held = observer?.heldFiles ?? []
        let free = held.isEmpty ? nil : freeBytes(near: path)
        let retention = catalog.update { list in
            list.finished(path: path, bytes: bytes)
            return list.retention(now: Date(), held: held, freeBytes: free)
        }
        var removed: [String] = []
        for old in retention.delete {
            if unlink(old) == 0 || errno == ENOENT {
                removed.append(old)
            } else {
                onProblem("cannot delete the old segment \(old): \(String(cString: strerror(errno))); check the folder's permissions")
            }
        }
        catalog.update { $0.remove(paths: removed) }
        let forced = retention.forced.filter(removed.contains)
        if !forced.isEmpty { observer?.heldFilesDeleted(forced, freeBytes: freeBytes(near: path) ?? 0) }
    }

    /// Free bytes (for an unprivileged user) on the file system holding `path`.
    private static func freeBytes(near path: String) -> Int64? {
        var info = statvfs()
        guard statvfs((path as NSString).deletingLastPathComponent, &info) == 0 else { return nil }
        return Int64(info.f_bavail) * Int64(info.f_frsize)
    }

    private static func size(of path: String) -> Int64? {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int64) ?? nil
    }
}

/// Any number of streams' packets merged by presentation time: the oldest packet held leaves once
/// every other stream has been seen at or past it, or once the held span grows past `maxHeld`
/// seconds (a stream that stalls never holds the others up for long). Pure bookkeeping for
/// `SegmentedWriter`; each stream's state is kept by its place in `streams` (two or three
/// streams: a search of the list is cheaper than hashing for every packet).
struct Interleave {
    private let streams: [StreamID]
    /// Each stream's held packets, oldest first from `heads`: a packet leaves by being moved out
    /// (its place left nil) rather than by shifting the rest, and a queue emptied starts over.
    private var queues: [[EncodedPacket?]]
    private var heads: [Int]
    /// The newest presentation time seen of each stream, in seconds.
    private var seen: [Double]
    /// Streams that will send nothing more: nothing waits for them.
    private var ended: [Bool]

    init(streams: [StreamID]) {
        self.streams = streams
        queues = Array(repeating: [], count: streams.count)
        heads = Array(repeating: 0, count: streams.count)
        seen = Array(repeating: -.infinity, count: streams.count)
        ended = Array(repeating: false, count: streams.count)
    }

    /// `stream` will send nothing more.
    mutating func end(_ stream: StreamID) {
        if let i = streams.firstIndex(of: stream) { ended[i] = true }
    }

    mutating func add(_ packet: consuming EncodedPacket) {
        guard let i = streams.firstIndex(of: packet.stream) else { return }
        seen[i] = max(seen[i], packet.presentationTime.seconds)
        queues[i].append(packet)
    }

    /// The presentation time (seconds) of stream `i`'s oldest packet held.
    private func headTime(_ i: Int) -> Double? {
        heads[i] < queues[i].count ? queues[i][heads[i]]?.presentationTime.seconds : nil
    }

    mutating func next(maxHeld: Double, draining: Bool = false) -> EncodedPacket? {
        // The oldest head; on a tie, the stream listed first (the pictures).
        var oldest: (index: Int, time: Double)?
        for i in queues.indices {
            guard let t = headTime(i) else { continue }
            if oldest.map({ t < $0.time }) ?? true { oldest = (i, t) }
        }
        guard let (index, time) = oldest else { return nil }
        let newest = seen.max() ?? time
        let caughtUp = seen.indices.allSatisfy { $0 == index || ended[$0] || seen[$0] >= time }
        guard draining || caughtUp || newest - time > maxHeld else { return nil }
        let packet = queues[index][heads[index]].take()
        heads[index] += 1
        if heads[index] == queues[index].count {
            queues[index].removeAll(keepingCapacity: true)
            heads[index] = 0
        }
        return packet
    }
}
