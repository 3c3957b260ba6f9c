import Foundation
import RecCore
import Testing

/// The `--upload` queue's policy with no files, threads or rclone: destinations, the journal's
/// lines and what survives a crash mid-write, the queue's order, and retention holding files
/// not yet copied.
@Suite struct UploadPolicyTests {
    // MARK: Destinations

    @Test(arguments: [("backup:cams", "backup"), ("backup:", "backup"), ("s3-eu:bucket/dir/sub", "s3-eu"),
                      ("my remote:x", "my remote"), ("backup,bwlimit=1M:cams", "backup")])
    func remotes(text: String, remote: String) throws {
        let d = try UploadDestination(text)
        #expect(d.remote == remote)
        #expect(!d.isLocal)
    }

    @Test func localFoldersAndOnTheFlyRemotes() throws {
        let local = try UploadDestination("/mnt/backup/cams")
        #expect(local.isLocal && local.remote == nil)
        #expect(local.file("a.mp4") == "/mnt/backup/cams/a.mp4")
        // A colon after a slash is part of a local name, as rclone reads it.
        #expect(try UploadDestination("/mnt/odd:name").isLocal)
        let fly = try UploadDestination(":sftp,host=127.0.0.1,port=2222,user=rec,pass=s3cret:videos")
        #expect(fly.remote == nil && !fly.isLocal)
        #expect(fly.file("a.mp4") == ":sftp,host=127.0.0.1,port=2222,user=rec,pass=s3cret:videos/a.mp4")
        #expect(try UploadDestination("backup:").file("a.mp4") == "backup:a.mp4")
        #expect(throws: RecError.self) { try UploadDestination("relative/dir") }
        #expect(throws: RecError.self) { try UploadDestination("  ") }
        #expect(throws: RecError.self) { try UploadDestination("bad*name:dir") }
    }

    @Test func partialNamesAreHiddenAndNeverTheFinalName() throws {
        let d = try UploadDestination("backup:cams")
        let partial = d.partialFile("cam-1.mp4", id: 7)
        #expect(partial == "backup:cams/.cam-1.mp4.rec-partial-7")
        #expect(partial != d.file("cam-1.mp4"))
    }

    @Test func secretsAreNeverShown() throws {
        let d = try UploadDestination(":webdav,url='http://rec:hunter22@127.0.0.1:8080',pass=0bscured-Pa55:cams")
        #expect(!d.redacted.contains("hunter22"))
        #expect(!d.redacted.contains("0bscured-Pa55"))
        #expect(d.redacted.contains("127.0.0.1:8080"))
        let message = "Failed to copy: http://rec:hunter22@127.0.0.1:8080/cams: pass 0bscured-Pa55 refused"
        let scrubbed = d.scrubbed(message)
        #expect(!scrubbed.contains("hunter22") && !scrubbed.contains("0bscured-Pa55"))
        #expect(scrubbed.contains("Failed to copy"))
        #expect("\(d)" == d.redacted)
        #expect(try UploadDestination("backup:cams").redacted == "backup:cams")
    }

    @Test(arguments: ["2M", "512k", "1.5G", "off", "100"])
    func limits(text: String) throws { try UploadDestination.checkLimit(text) }

    @Test(arguments: ["", "fast", "-1M", "0", "2X"])
    func badLimits(text: String) {
        #expect(throws: RecError.self) { try UploadDestination.checkLimit(text) }
    }

    // MARK: The queue and its journal

    @Test func filesGoInTheOrderTheyWereMadeAndOnce() {
        var q = UploadQueue()
        #expect(q.add(path: "/v/a.mp4", destination: "b:c", bytes: 10) != nil)
        #expect(q.add(path: "/v/b.mp4", destination: "b:c", bytes: 20) != nil)
        #expect(q.add(path: "/v/a.mp4", destination: "b:c", bytes: 10) == nil)
        // The same file to another destination is another copy.
        #expect(q.add(path: "/v/a.mp4", destination: "/mnt/x", bytes: 10) != nil)
        #expect(q.next?.path == "/v/a.mp4")
        #expect(q.waitingBytes == 40)
        #expect(q.held == ["/v/a.mp4", "/v/b.mp4"])
        let first = q.next!.id
        _ = q.copied(first, at: Date(timeIntervalSince1970: 100))
        #expect(q.next?.path == "/v/b.mp4")
        #expect(q.lastCopy?.name == "a.mp4")
        #expect(q.held == ["/v/a.mp4", "/v/b.mp4"])   // a.mp4 still goes to /mnt/x
    }

    @Test func replayGivesTheSameQueue() {
        var q = UploadQueue()
        var lines: [UploadJournal.Record] = []
        for i in 0..<5 { lines.append(q.add(path: "/v/\(i).mp4", destination: "b:c", bytes: Int64(i * 100))!) }
        lines.append(q.copied(1, at: Date()))
        lines.append(q.drop(3, why: "deleted"))
        let replayed = UploadQueue.replay(UploadJournal.parse(lines.flatMap(UploadJournal.line)).records)
        #expect(replayed.entries == q.entries)
        #expect(replayed.entries.map(\.id) == [2, 4, 5])
        // Ids are never reused after a restart.
        var again = replayed
        #expect(again.add(path: "/v/new.mp4", destination: "b:c", bytes: 1)?.id == 6)
    }

    /// A file being written is journalled when it begins but not copied until it is finished,
    /// when it keeps its id (so its place in line); a journal that ends while it is still being
    /// written (the session died) queues it as it was left, and drops one that is gone.
    @Test func aFileBeingWrittenWhenTheSessionDiesIsQueuedByTheNextOne() {
        var q = UploadQueue()
        var lines: [UploadJournal.Record] = []
        lines.append(q.opened(path: "/v/0.mp4", destination: "b:c")!)
        #expect(q.opened(path: "/v/0.mp4", destination: "b:c") == nil)
        #expect(q.next == nil && q.held.isEmpty)
        lines.append(q.add(path: "/v/0.mp4", destination: "b:c", bytes: 50)!)
        #expect(q.next?.id == 1 && q.writing.isEmpty)
        lines.append(q.opened(path: "/v/1.mp4", destination: "b:c")!)
        lines.append(q.add(path: "/v/clip.mp4", destination: "b:c", bytes: 5)!)
        lines.append(q.copied(1, at: Date()))
        lines.append(q.opened(path: "/v/gone.mp4", destination: "b:c")!)
        // Compacted, the files being written are still known.
        #expect(UploadQueue.replay(q.compacted) == UploadQueue.replay(lines))

        var next = UploadQueue.replay(UploadJournal.parse(lines.flatMap(UploadJournal.line)).records)
        #expect(next.writing.map(\.path) == ["/v/1.mp4", "/v/gone.mp4"])
        #expect(next.entries.map(\.path) == ["/v/clip.mp4"])
        let records = next.resumeInterrupted { $0 == "/v/1.mp4" ? 70 : nil }
        #expect(records.map(\.op) == [.add, .drop])
        #expect(next.writing.isEmpty && next.dropped == 1)
        // In the order they were begun: the segment begun before the clip goes first.
        #expect(next.entries.map(\.path) == ["/v/1.mp4", "/v/clip.mp4"])
        #expect(next.entries.first?.bytes == 70 && next.held == ["/v/1.mp4", "/v/clip.mp4"])
        var after = UploadQueue.replay(lines + records)
        #expect(after.entries == next.entries && after.resumeInterrupted { _ in 1 }.isEmpty)
        #expect(after.add(path: "/v/2.mp4", destination: "b:c", bytes: 1)?.id == 5)
    }

    /// A crash can cut the file anywhere: at every byte, the queue read back is the one of the
    /// whole lines before the cut, and the torn rest is ignored.
    @Test func aJournalCutAtAnyByteReadsAsTheLinesBeforeTheCut() {
        var q = UploadQueue()
        var records: [UploadJournal.Record] = []
        records.append(q.add(path: "/v/é 1.mp4", destination: ":sftp,host=h:d", bytes: 1)!)
        records.append(q.add(path: "/v/2\n.mp4", destination: "b:c", bytes: 2)!)
        records.append(q.copied(1, at: Date()))
        records.append(q.add(path: "/v/3.mp4", destination: "b:c", bytes: 3)!)
        let bytes = records.flatMap(UploadJournal.line)
        var lineEnds: [Int] = []
        var total = 0
        for r in records {
            total += UploadJournal.line(r).count
            lineEnds.append(total)
        }
        for cut in 0...bytes.count {
            let contents = UploadJournal.parse(Array(bytes[..<cut]))
            let whole = lineEnds.filter { $0 <= cut }.count
            #expect(contents.records == Array(records.prefix(whole)), "cut at \(cut)")
            #expect(contents.validLength == (lineEnds.last { $0 <= cut } ?? 0))
            #expect(contents.unreadable == 0)
        }
    }

    @Test func aGarbledWholeLineIsSkippedAndCounted() {
        let good = UploadJournal.line(.done(4))
        let contents = UploadJournal.parse(Array("{not json}\n".utf8) + good)
        #expect(contents.records == [.done(4)])
        #expect(contents.unreadable == 1)
    }

    @Test func compactionKeepsOnlyWhatWaits() {
        var q = UploadQueue()
        for i in 0..<300 {
            let r = q.add(path: "/v/\(i).mp4", destination: "b:c", bytes: 1)!
            if i < 298 { _ = q.copied(r.id, at: Date()) }
        }
        #expect(q.needsCompaction(lines: 598))
        #expect(!q.needsCompaction(lines: 100))
        let compacted = q.compacted
        #expect(compacted.count == 2)
        #expect(UploadQueue.replay(compacted).entries == q.entries)
        #expect(UploadQueue.replay(compacted).nextID == 301)
        // All copied: the last id is kept all the same.
        _ = q.copied(299, at: Date())
        _ = q.copied(300, at: Date())
        #expect(q.compacted.count == 1)
        #expect(UploadQueue.replay(q.compacted).entries.isEmpty && UploadQueue.replay(q.compacted).nextID == 301)
    }

    // MARK: Retention holds files not yet copied

    static let start = Date(timeIntervalSince1970: 1_796_133_785)

    /// Four finished one-hour segments of 100 MiB and the one being written.
    func list(keep: Double? = nil, maxBytes: Int64? = nil) -> SegmentList {
        var list = SegmentList(settings: SegmentSettings(length: Timestamp(seconds: 3600), keep: keep.map { Timestamp(seconds: $0) },
                                                         maxBytes: maxBytes))
        for i in 0..<5 {
            list.begin(path: "/v/\(i).mp4", start: Timestamp(seconds: Double(i) * 3600),
                       date: Self.start.addingTimeInterval(Double(i) * 3600))
        }
        for i in 0..<4 { list.finished(path: "/v/\(i).mp4", bytes: 100 << 20) }
        list.updateCurrent(bytes: 10 << 20)
        return list
    }

    @Test func keepDoesNotDeleteWhatIsNotCopied() {
        let l = list(keep: 3600)
        let now = Self.start.addingTimeInterval(5 * 3600)
        #expect(l.retention(now: now).delete == ["/v/0.mp4", "/v/1.mp4", "/v/2.mp4"])
        let held = l.retention(now: now, held: ["/v/0.mp4", "/v/2.mp4"], freeBytes: 10 << 30)
        #expect(held.delete == ["/v/1.mp4"])
        #expect(held.kept == ["/v/0.mp4", "/v/2.mp4"])
        #expect(held.forced.isEmpty)
    }

    @Test func maxDiskDeletesCopiedFilesInsteadAndNeverTheNewest() {
        let l = list(maxBytes: 250 << 20)
        // 410 MiB in all: without holds the two oldest go.
        #expect(l.retention(now: Self.start).delete == ["/v/0.mp4", "/v/1.mp4"])
        // 0 and 1 are not copied: they stay, and the copied 2 and 3 go to get under the cap as
        // far as copied files allow.
        let r = l.retention(now: Self.start, held: ["/v/0.mp4", "/v/1.mp4"], freeBytes: 10 << 30)
        #expect(r.delete == ["/v/2.mp4", "/v/3.mp4"])
        #expect(r.kept == ["/v/0.mp4", "/v/1.mp4"])
        // Everything held: nothing is deleted while the disk has room.
        let all = l.retention(now: Self.start, held: Set((0..<5).map { "/v/\($0).mp4" }), freeBytes: 10 << 30)
        #expect(all.delete.isEmpty && all.forced.isEmpty)
    }

    @Test func aFillingDiskDeletesHeldFilesOldestFirstAndSaysSo() {
        let l = list(keep: 60)
        let now = Self.start.addingTimeInterval(5 * 3600)
        let held: Set<String> = ["/v/0.mp4", "/v/1.mp4", "/v/2.mp4"]
        #expect(l.reserve == 256 << 20)
        // 100 MiB free, 256 MiB needed: deleting the copied 3 frees 100, then the oldest held one.
        let r = l.retention(now: now, held: held, freeBytes: 100 << 20)
        #expect(r.forced == ["/v/0.mp4"])
        #expect(r.delete == ["/v/0.mp4", "/v/3.mp4"])
        #expect(r.kept == ["/v/1.mp4", "/v/2.mp4"])
        // Without --keep or --max-disk nothing is ever deleted, full disk or not.
        let none = list()
        #expect(none.retention(now: now, held: held, freeBytes: 0).delete.isEmpty)
    }
}
