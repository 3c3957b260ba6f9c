import Foundation
import Media
import RecCore

extension SessionHost {
    /// Session time of the oldest frame the recording still keeps on disk (0 without segments,
    /// or until retention deletes the first one).
    var fileStart: Timestamp { recorder.segments.first?.start ?? .zero }

    /// `rec status` fields for a segmented recording: how many files it keeps, and since when.
    var segmentStatus: [String: String] {
        guard recorder.segmentCatalog != nil else { return [:] }
        return ["segments": String(recorder.segments.count), "segments_start": String(format: "%.3f", fileStart.seconds)]
    }

    /// A usage error when `output` is one of this session's own segment files.
    func checkNotASegment(_ output: String) throws(RecError) {
        if recorder.segments.contains(where: { OutputPath.same(output, $0.path) }) {
            throw .usage("\(output) is one of this session's own segment files; save the clip under another name")
        }
    }

    /// The packets of `range` from the segment files that hold it, on the session timeline.
    /// Waits (bounded, woken as each file is finished) for a rotated-out segment in the range to
    /// be finished first.
    func segmentSource(_ range: Range<Timestamp>, newest: Timestamp) throws(RecError) -> SegmentClip {
        guard let catalog = recorder.segmentCatalog else { throw .runtime("this session records no segments") }
        var parts = catalog.covering(range)
        // The finisher thread pulses the catalog as each file is done.
        let finished = catalog.changes.wait(until: .after(60)) {
            parts = catalog.covering(range)
            return !parts.contains { $0.state == .finishing }
        }
        guard finished == .met else {
            throw .runtime("the segment holding \(range.lowerBound.clockText) is still being finished; try again in a moment")
        }
        guard let first = parts.first, first.start <= range.lowerBound else {
            throw .unavailableRange(from: range.lowerBound, to: range.upperBound, holder: "the segments this session keeps",
                                    availableFrom: fileStart, availableTo: newest)
        }
        return try SegmentClipReader.read(parts.map { .init(path: $0.path, start: $0.start) },
                                          from: range.lowerBound, to: range.upperBound)
    }
}
