import Foundation

/// The upload queue on disk: one JSON object a line, appended as things happen and never edited
/// in place, so a `kill -9` or a power cut at any moment leaves every line before the one being
/// written whole. A last line without its newline is a write that was cut short: it is ignored,
/// and cut off before the next line is appended. Replaying the lines gives the queue back
/// (`UploadQueue.replay`); once most lines are history the file is rewritten with only the files
/// still waiting (`UploadQueue.compacted`), into a new file renamed over the old one.
///
///     {"op":"open","id":7,"path":"/v/cam-2026-12-03_14-00-00.mp4","dest":"backup:cams"}
///     {"op":"add","id":7,"path":"/v/cam-2026-12-03_14-00-00.mp4","dest":"backup:cams","bytes":7340032}
///     {"op":"done","id":7}
///     {"op":"drop","id":8,"why":"deleted before it was copied: the disk was full"}
package enum UploadJournal {
    /// One line.
    package struct Record: Sendable, Equatable, Codable {
        package enum Op: String, Sendable, Codable {
            /// A recording file is begun: it joins the queue when it is finished (`add`, same id),
            /// or, when the journal ends first (the session died), as it was left.
            case open
            /// A file joins the queue.
            case add
            /// Its copy arrived whole under its final name.
            case done
            /// It left the queue without a copy (deleted locally, or gone).
            case drop
        }

        package var op: Op
        package var id: Int
        package var path: String?
        package var dest: String?
        package var bytes: Int64?
        package var why: String?

        package static func add(_ entry: UploadEntry) -> Record {
            Record(op: .add, id: entry.id, path: entry.path, dest: entry.destination, bytes: entry.bytes)
        }
        package static func open(_ entry: UploadEntry) -> Record {
            Record(op: .open, id: entry.id, path: entry.path, dest: entry.destination)
        }
        package static func done(_ id: Int) -> Record { Record(op: .done, id: id) }
        package static func drop(_ id: Int, why: String) -> Record { Record(op: .drop, id: id, why: why) }
    }

    /// What a journal file held.
    package struct Contents: Sendable, Equatable {
        package var records: [Record]
        /// Bytes up to the end of the last whole line: where the next line goes.
        package var validLength: Int
        /// Whole lines that could not be read (a disk error, a hand edit); skipped.
        package var unreadable: Int
    }

    /// The text of one record, its newline included.
    package static func line(_ record: Record) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding these plain fields cannot fail.
        let data = (try? encoder.encode(record)) ?? Data("{}".utf8)
        return Array(data) + [UInt8(ascii: "\n")]
    }

    /// The records of a journal's bytes, up to its last newline.
    package static func parse(_ bytes: [UInt8]) -> Contents {
        var records: [Record] = []
        var unreadable = 0
        var start = 0
        var valid = 0
        let decoder = JSONDecoder()
        for (i, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
            let text = bytes[start..<i]
            start = i + 1
            valid = start
            if text.allSatisfy({ $0 == UInt8(ascii: " ") }) { continue }
            if let record = try? decoder.decode(Record.self, from: Data(text)) {
                records.append(record)
            } else {
                unreadable += 1
            }
        }
        return Contents(records: records, validLength: valid, unreadable: unreadable)
    }
}
