import Foundation
import RecCore

/// A motion index file beside a recording file (`<recording>.motion.jsonl`, docs/EVENTS.md):
/// lines appended with one write each, so that what was written is in the file after a kill -9.
/// Owned by the session's motion thread.
final class MotionIndexFile {
    let path: String
    private let handle: FileHandle

    /// The index file of the recording file at `recording`.
    static func path(for recording: String) -> String { recording + ".motion.jsonl" }

    /// Starts the file with its header; nil (and `problem` says why) when it cannot be written.
    init(recording: String, header: MotionIndexLine) throws(RecError) {
        path = Self.path(for: recording)
        guard FileManager.default.createFile(atPath: path, contents: Data(header.text.utf8)),
              let handle = FileHandle(forWritingAtPath: path) else {
            throw .runtime("cannot write the motion index \(path); the recording goes on without it")
        }
        handle.seekToEndOfFile()
        self.handle = handle
    }

    func write(_ lines: [MotionIndexLine]) {
        guard !lines.isEmpty else { return }
        let text = lines.map(\.text).joined()
        try? handle.write(contentsOf: Data(text.utf8))
    }

    /// The file's length, once closed.
    func close() -> Int64 {
        let size = (try? handle.offset()).map(Int64.init) ?? 0
        try? handle.close()
        return size
    }
}

/// Tells the motion watch of each recording file as it starts and ends, so that each has its own
/// index, and hands the index to whoever watched the files before (the `--upload` queue) beside
/// its recording file.
final class MotionFileObserver: RecordingFileObserver {
    let watch: MotionWatch
    let next: (any RecordingFileObserver)?

    init(watch: MotionWatch, next: (any RecordingFileObserver)?) {
        self.watch = watch
        self.next = next
    }

    func fileStarted(_ path: String) {
        watch.recordingStarted(path)
        next?.fileStarted(path)
    }

    func fileFinished(_ path: String, bytes: Int64) {
        let index = watch.recordingFinished(path)
        next?.fileFinished(path, bytes: bytes)
        if let index { next?.fileFinished(index.path, bytes: index.bytes) }
    }

    var heldFiles: Set<String> { next?.heldFiles ?? [] }

    func heldFilesDeleted(_ paths: [String], freeBytes: Int64) {
        next?.heldFilesDeleted(paths, freeBytes: freeBytes)
    }
}
