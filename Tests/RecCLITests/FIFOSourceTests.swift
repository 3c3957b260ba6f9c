import Foundation
import Glibc
import Media
import SessionControl
import Testing
import TestFileWatch
import TestPool

/// A FIFO given to `--source file:` is read as a live stream, and a stop ends rec promptly whether
/// or not a writer ever came; `rec trim` refuses one, since a cut must seek. Through the real binary.
@Suite(.blocking) struct FIFOSourceTests {
    /// rec running in the background with its output kept.
    final class Running {
        let process = Process()
        private let out = Pipe(), err = Pipe()
        private var exited: ProcessExit?

        init(_ arguments: [String], in folder: RecFolder) throws {
            process.executableURL = RecBinary.url
            process.arguments = arguments
            process.currentDirectoryURL = URL(fileURLWithPath: folder.path)
            process.environment = folder.environment
            process.standardOutput = out
            process.standardError = err
            try process.run()
            exited = Observe.exit(of: process.processIdentifier)
        }

        func send(_ signal: Int32) { kill(process.processIdentifier, signal) }

        /// Waits at most `seconds` for rec to exit; a rec still running is killed and the test fails.
        func exit(within seconds: Double) throws -> RecBinary.Result {
            if exited?.wait(timeout: .seconds(seconds)) == false {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                Issue.record("rec did not exit within \(seconds) s")
            }
            process.waitUntilExit()
            return RecBinary.Result(status: process.terminationStatus,
                                    output: String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
                                    error: String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
        }
    }

    static func fifo(in folder: RecFolder) throws -> String {
        let path = folder.file("stream.fifo")
        try #require(mkfifo(path, 0o600) == 0, "mkfifo: \(String(cString: strerror(errno)))")
        return path
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func stopWithNoWriterEndsPromptly(signal: Int32) throws {
        let folder = try RecFolder()
        let fifo = try Self.fifo(in: folder)
        let opened = FileWatch([fifo], mask: UInt32(IN_OPEN))
        let rec = try Running(["record", "--source", "file:\(fifo)", "-o", "out.mkv"], in: folder)
        // rec opens its end without waiting (O_NONBLOCK), then waits for a writer on it.
        #expect(opened.wait { opened.events > 0 }, "rec never opened the FIFO")
        rec.send(signal)
        let result = try rec.exit(within: 5)
        #expect(result.status == 1, "\(result.error)")
        #expect(result.error.hasPrefix("rec: nothing arrived from the FIFO \(fifo) before rec stopped waiting"),
                "\(result.error)")
    }

    /// rec recording `out.mkv` from a FIFO, the FIFO's writing end, and an MKV of `frames` frames
    /// of the stand-in camera to send into it.
    static func recordingFromFIFO(frames: Int) throws -> (folder: RecFolder, rec: Running, bytes: Data, writer: FileHandle) {
        let folder = try RecFolder()
        try folder.record("in.mkv", frames: frames)
        let fifo = try Self.fifo(in: folder)
        let rec = try Running(["record", "--source", "file:\(fifo)", "--pace", "off", "-o", "out.mkv"], in: folder)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: folder.file("in.mkv")))
        let writer = try #require(FileHandle(forWritingAtPath: fifo))  // waits for rec to open its end
        return (folder, rec, bytes, writer)
    }

    /// Bytes written into the FIFO that its reader has not read yet.
    static func unread(_ writer: FileHandle) -> Int32 {
        var count: Int32 = 0
        return ioctl(writer.fileDescriptor, UInt(FIONREAD), &count) == 0 ? count : -1
    }

    @Test func recordsWhatAWriterSends() throws {
        let (folder, rec, bytes, writer) = try Self.recordingFromFIFO(frames: 60)
        writer.write(bytes)
        try writer.close()
        let result = try rec.exit(within: 20)
        #expect(result.status == 0, "\(result.error)")
        #expect(try folder.stamps("out.mkv") == RecFolder.stamps(0..<60))
    }

    @Test func stopWhileTheWriterIsSilentFinishesTheFile() throws {
        let (folder, rec, bytes, writer) = try Self.recordingFromFIFO(frames: 150)
        // Woken by rec's reads of the FIFO and its writes of the recording.
        let events = FileWatch([folder.path], mask: UInt32(IN_ACCESS | IN_MODIFY | IN_CREATE | IN_CLOSE_WRITE))
        writer.write(bytes.prefix(bytes.count * 3 / 4))  // and then nothing, with the FIFO still open
        // rec has read all of it, is recording it, and waits for more.
        #expect(events.wait {
            Self.unread(writer) == 0 && ((try? folder.stamps("out.mkv"))?.isEmpty == false)
        }, "rec did not record what the writer sent")
        rec.send(SIGTERM)
        let result = try rec.exit(within: 5)
        try writer.close()
        #expect(result.status == 0, "\(result.error)")
        let stamps = try folder.stamps("out.mkv")
        #expect(!stamps.isEmpty && stamps == RecFolder.stamps(0..<stamps.count), "\(stamps)")
    }

    @Test func trimRefusesAFIFO() throws {
        let folder = try RecFolder()
        let fifo = try Self.fifo(in: folder)
        let rec = try Running(["trim", fifo, "--from", "0s", "--to", "1s", "-o", "clip.mkv"], in: folder)
        let result = try rec.exit(within: 5)
        #expect(result.status == 64, "\(result.error)")
        #expect(result.error.hasPrefix("rec: \(fifo) is not a regular file, and a cut must seek in its input"), "\(result.error)")
    }
}
