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
public final class SegmentedWriter {
    public let container: ContainerFormat
    private let video: CodecParameters
    private let audio: CodecParameters?
    private let naming: SegmentNaming?
    private let catalog: SegmentCatalog?
    private let wallClockAtZero: Date
    private let finisher: SegmentFinisher?
    private var current: AssetWriter
    /// Session time of the current segment's first frame, and of the next boundary.
    private var start = Timestamp.zero
    private var boundary: Timestamp?
    private var lastDTS = Int64.min
    private var lastAudioDTS = Int64.min
    /// Packets held until the other stream has caught up with them, so each sound packet goes
    /// into the segment whose pictures it plays with: sound comes ahead of the pictures while
    /// recording (the encoder looks ahead) and behind them with `--pace off`. `Interleave` (below)
    /// releases them in time order, holding at most `maxHeld`.
    private var held = Interleave()
    static let maxHeld = 1.0

    /// One file at `path` when `catalog` is nil; else segments named by `naming`.
    /// - Parameter onProblem: called (on the finisher thread) when finishing or deleting an old
    ///   segment fails; the recording goes on.
    public init(path: String, container: ContainerFormat, video: CodecParameters, audio: CodecParameters? = nil,
                naming: SegmentNaming? = nil, catalog: SegmentCatalog? = nil, wallClockAtZero: Date = Date(),
                onProblem: @escaping @Sendable (String) -> Void = { _ in }) throws(FFmpegError) {
        self.container = container
        self.video = video
        self.audio = audio
        self.wallClockAtZero = wallClockAtZero
        guard let naming, let catalog else {
            (self.naming, self.catalog, finisher) = (nil, nil, nil)
            current = try AssetWriter(path: path, container: container, video: video, audio: audio)
            return
        }
        self.naming = naming
        self.catalog = catalog
        let first = Self.name(naming, at: .zero, wallClockAtZero: wallClockAtZero, catalog: catalog)
        current = try AssetWriter(path: first, container: container, video: video, audio: audio)
        catalog.update { $0.begin(path: first, start: .zero, date: wallClockAtZero) }
        boundary = catalog.settings.boundary(after: .zero)
        finisher = SegmentFinisher { path, error in
            Self.finished(path, error: error, catalog: catalog, onProblem: onProblem)
        }
    }

    /// The file being written.
    public var path: String { current.path }
    public var bytesWritten: Int64 { current.bytesWritten }
    /// Bytes of the current file complete on disk (see `AssetWriter`).
    public var durableBytes: Int64 { current.durableBytes }
    /// The write error that ended the current file early, if one did.
    public var failure: FFmpegError? { current.failure }

    /// Session time before which the files hold every frame on disk (the current segment's line,
    /// moved from its own timeline back onto the session's).
    public var completeBefore: Timestamp? {
        let startUS = start.rescaled(to: .microseconds).value
        guard let line = current.completeBefore else { return startUS > 0 ? start : nil }
        return .microseconds(line.rescaled(to: .microseconds).value + startUS)
    }

    /// Writes a video (stream 0) or sound (stream 1) packet, on the session timeline.
    public func append(_ packet: EncodedPacket) throws(FFmpegError) {
        guard audio != nil else { return try write(packet) }
        held.add(packet)
        while let next = held.next(maxHeld: Self.maxHeld) { try write(next) }
    }

    /// The sound has ended early (its source failed): pictures are written without waiting for it.
    public func soundEnded() {
        held.otherEnded = true
    }

    private func write(_ packet: EncodedPacket) throws(FFmpegError) {
        var p = packet
        if packet.streamIndex != 0 {
            p.move(back: start, after: &lastAudioDTS)
            return try current.append(p)
        }
        if packet.isKeyframe, let b = boundary, packet.presentationTime >= b, current.packetsWritten > 0 {
            try rotate(at: packet.presentationTime)
        }
        p.move(back: start, after: &lastDTS)
        try current.append(p)
        if packet.isKeyframe, let catalog {
            let bytes = current.bytesWritten
            catalog.update { $0.updateCurrent(bytes: bytes) }
        }
    }

    /// Finishes the current file here and waits for the finisher to finish the older ones.
    public func finish() throws(FFmpegError) {
        defer { finisher?.drain() }
        while let next = held.next(maxHeld: 0, draining: true) { try write(next) }
        try current.finish()
        if let catalog {
            let path = current.path
            let bytes = Self.size(of: path) ?? current.bytesWritten
            catalog.update { $0.finished(path: path, bytes: bytes) }
        }
    }

    /// Starts the next segment at a keyframe presented at `time` and hands the old one over.
    private func rotate(at time: Timestamp) throws(FFmpegError) {
        guard let naming, let catalog, let finisher else { return }
        let path = Self.name(naming, at: time, wallClockAtZero: wallClockAtZero, catalog: catalog)
        let next = try AssetWriter(path: path, container: container, video: video, audio: audio)
        let old = current
        current = next
        let date = wallClockAtZero.addingTimeInterval(time.seconds)
        catalog.update { $0.begin(path: path, start: time, date: date) }
        (start, lastDTS, lastAudioDTS, boundary) = (time, .min, .min, catalog.settings.boundary(after: time))
        finisher.finish(old)
    }

    private static func name(_ naming: SegmentNaming, at time: Timestamp, wallClockAtZero: Date,
                             catalog: SegmentCatalog) -> String {
        let taken = Set(catalog.records.map(\.path))
        return SegmentNaming.unique(naming.expand(wallClockAtZero.addingTimeInterval(time.seconds))) {
            taken.contains($0) || FileManager.default.fileExists(atPath: $0)
        }
    }

    /// On the finisher thread: records the finished size, then deletes what retention selects.
    private static func finished(_ path: String, error: FFmpegError?, catalog: SegmentCatalog,
                                 onProblem: @Sendable (String) -> Void) {
        if let error { onProblem("finishing the segment \(path) failed (\(error)); its fragmented file still plays") }
        let bytes = size(of: path) ?? 0
        let expired = catalog.update { list in
            list.finished(path: path, bytes: bytes)
            return list.expired(now: Date())
        }
        var removed: [String] = []
        for old in expired {
            if unlink(old) == 0 || errno == ENOENT {
                removed.append(old)
            } else {
                onProblem("cannot delete the old segment \(old): \(String(cString: strerror(errno))); check the folder's permissions")
            }
        }
        catalog.update { $0.remove(paths: removed) }
    }

    private static func size(of path: String) -> Int64? {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int64) ?? nil
    }
}

/// Two streams' packets merged by presentation time: a packet leaves once the other stream has
/// been seen at or past it, or once the held span grows past `maxHeld` seconds (a stream that
/// stalls never holds the other up for long). Pure bookkeeping for `SegmentedWriter`.
struct Interleave {
    private var video: [EncodedPacket] = []
    private var sound: [EncodedPacket] = []
    private var videoSeen = -Double.infinity
    private var soundSeen = -Double.infinity
    /// The sound will send nothing more: pictures leave at once.
    var otherEnded = false

    mutating func add(_ packet: EncodedPacket) {
        let t = packet.presentationTime.seconds
        if packet.streamIndex == 0 {
            video.append(packet)
            videoSeen = max(videoSeen, t)
        } else {
            sound.append(packet)
            soundSeen = max(soundSeen, t)
        }
    }

    mutating func next(maxHeld: Double, draining: Bool = false) -> EncodedPacket? {
        let v = video.first?.presentationTime.seconds, s = sound.first?.presentationTime.seconds
        let oldest = min(v ?? .infinity, s ?? .infinity)
        let forced = draining || otherEnded || max(videoSeen, soundSeen) - oldest > maxHeld
        if let v, (s.map { v <= $0 } ?? true), forced || soundSeen >= v { return video.removeFirst() }
        if let s, forced || videoSeen >= s { return sound.removeFirst() }
        return nil
    }
}
