import Foundation
import Media
import Testing
import TestFileWatch
import TestPool

/// A recording killed with SIGKILL mid-way still opens and decodes, every frame in order.
@Suite(.blocking) struct CrashSafetyTests {
    @Test(arguments: ["mp4", "mkv"])
    func killedRecordingStillDecodes(ext: String) throws {
        let folder = try RecBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/killed." + ext
        let writes = FileWatch([folder])
        let process = try RecBinary.launch(["record", "--source", "test:320x240@30", "-o", path])
        // Wait until a few keyframe intervals are on disk (woken by its writes), then kill without warning.
        var size = 0
        _ = writes.wait {
            size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            return size >= 60_000
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(size >= 60_000, "the recording never grew; is rec recording?")
        let report = try FrameReader.read(path: path)
        #expect(report.frames.count >= 30)
        // Frames present are exactly 0, 1, 2, … with none missing or repeated.
        #expect(report.frames.map(\.stamp) == (0..<report.frames.count).map { Optional($0) })
        #expect(!FileManager.default.fileExists(atPath: path + ".finishing"))
    }

    @Test func normalStopLeavesStandardFastStartMP4() throws {
        let folder = try RecBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/clean.mp4"
        let result = try RecBinary.run(["record", "--source", "test:320x240@30", "--frames", "60", "--pace", "off", "-o", path])
        #expect(result.status == 0, "\(result.error)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        // Fast start: the moov box comes before mdat; not fragmented: no moof.
        let moov = bytes.range(of: Data("moov".utf8))!.lowerBound
        let mdat = bytes.range(of: Data("mdat".utf8))!.lowerBound
        #expect(moov < mdat)
        #expect(bytes.range(of: Data("moof".utf8)) == nil)
        let report = try FrameReader.read(path: path)
        #expect(report.frames.count == 60)
        #expect(abs(try #require(report.duration).seconds - 2.0) < 0.001)
    }
}
