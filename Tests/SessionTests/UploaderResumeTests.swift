import Foundation
import RecCore
import Session
import Synchronization
import Testing
import TestPool

/// What an upload queue says when it finds files the last session was still writing.
@Suite(.blocking) struct UploaderResumeTests {
    @Test func onlyFilesStillThereAreSaidToBeQueued() throws {
        let folder = NSTemporaryDirectory() + "rec-uploader-resume-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let kept = "\(folder)/kept.mp4", gone = "\(folder)/gone.mp4"
        #expect(FileManager.default.createFile(atPath: kept, contents: Data(count: 100)))
        let journal = "\(folder)/uploads.jsonl"
        let lines = [UploadJournal.Record.open(UploadEntry(id: 1, path: kept, destination: "remote:box", bytes: 0)),
                     UploadJournal.Record.open(UploadEntry(id: 2, path: gone, destination: "remote:box", bytes: 0))]
            .flatMap(UploadJournal.line)
        #expect(FileManager.default.createFile(atPath: journal, contents: Data(lines)))
        let notices = Mutex<[String]>([])
        let uploader = try Uploader(destination: nil, journal: journal, bandwidthLimit: nil) { text in notices.withLock { $0.append(text) } }
        defer { uploader.abandon() }
        let said = notices.withLock { $0 }
        let queued = try #require(said.first { $0.contains("queued as it was left") })
        #expect(queued.contains("kept.mp4"))
        #expect(!queued.contains("gone.mp4"), "\(said)")
        #expect(said.contains { $0.contains("gone.mp4") && $0.contains("gone") && !$0.contains("queued") }, "\(said)")
    }
}
