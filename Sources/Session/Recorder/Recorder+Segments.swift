import Foundation
import Media
import RecCore

extension Recorder {
    /// The segments this recording made and still keeps, oldest first (the last is being
    /// written); empty without `--segment`.
    package var segments: [SegmentRecord] { segmentCatalog?.records ?? [] }

    /// The recording file (or its first segment), on the encode thread.
    func makeWriter(_ output: RecorderConfiguration.Output, video: CodecParameters,
                    sounds: [StreamParameters] = [], fragmentLength: Timestamp = FragmentClock.defaultLength) throws(RecError) -> SegmentedWriter {
        let naming = try segmentCatalog.map { _ throws(RecError) in try SegmentNaming(path: output.path) }
        do {
            return try SegmentedWriter(path: output.path, container: output.container,
                                       streams: [StreamParameters(.video, video)] + sounds, naming: naming,
                                       catalog: segmentCatalog, fragmentLength: fragmentLength, observer: output.observer) { [self] problem in
                stats.withLock { $0.lastError = problem }
            }
        } catch {
            throw RecError.runtime("cannot create \(output.path); check the folder exists and is writable", cause: error.description)
                .because(error.kind ?? .notWritable)
        }
    }
}
