import Foundation
import Media
import Testing
import TestFileWatch
import TestPool

/// SIGKILL at seeded random moments, to `rec record` and to a session, in MP4 and Matroska: every
/// file decodes, its frames are 0, 1, 2, … with none missing, and it lost at most 0.5 s of what was
/// captured. SIGTERM and SIGINT finish the file as a standard one.
///
/// What was captured is measured from outside: the stand-in camera delivers frame n at n/30 s
/// after its capture thread starts, and the kernel says when that thread started
/// (/proc/PID/task/TID/stat, in clock ticks since boot, the clock CLOCK_BOOTTIME reads). That
/// counts a little more as captured than really was (the thread starts just before the camera's
/// clock), so the loss measured is an upper bound.
@Suite(.blocking, .serialized) struct KillTests {
    static let fps = 30.0
    static let promise = 0.5
    static let killsPerCase = 10

    @Test(arguments: ["mp4", "mkv"])
    func killedRecordLosesAtMostHalfASecond(ext: String) throws {
        var random = SplitMix(seed: ext == "mp4" ? 11 : 12)
        let folder = try RecBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var worst = 0.0
        for kill in 0..<Self.killsPerCase {
            let path = "\(folder)/killed-\(kill).\(ext)"
            let created = FileWatch([folder])
            let process = try RecBinary.launch(["record", "--source", "test:320x240@30", "-o", path])
            let started = try #require(Self.captureThreadStart(pid: process.processIdentifier, file: path, watch: created),
                                       "no capture thread")
            let loss = try Self.killAndMeasure(pid: process.processIdentifier, path: path, captureStart: started,
                                               after: random.seconds(in: 0.3...2.5)) { process.waitUntilExit() }
            worst = max(worst, loss)
            #expect(loss <= Self.promise, "kill \(kill) of rec record (.\(ext)) lost \(loss) s")
        }
        print("rec record .\(ext): worst loss over \(Self.killsPerCase) kills \(String(format: "%.3f", worst)) s")
    }

    @Test(arguments: ["mp4", "mkv"])
    func killedSessionLosesAtMostHalfASecond(ext: String) throws {
        var random = SplitMix(seed: ext == "mp4" ? 21 : 22)
        let box = try BackgroundSessionTests.Sandbox()
        var worst = 0.0
        for kill in 0..<Self.killsPerCase {
            let name = "kill\(ext)\(kill)"
            let path = box.path("session-\(kill).\(ext)")
            let start = try box.rec(["start", "--session", name, "--source", "test:320x240@30", "-o", path])
            try #require(start.status == 0, "\(start.error)")
            let pidText = try String(contentsOfFile: "\(box.folder)/run/rec/\(name)/pid", encoding: .utf8)
            let pid = try #require(Int32(pidText.trimmingCharacters(in: .whitespacesAndNewlines)))
            // `rec start` returns once the first frame is in: the capture thread runs and the file exists.
            let started = try #require(Self.captureThreadStart(pid: pid, file: path, watch: FileWatch([box.folder])),
                                       "no capture thread")
            // Not our child: its pidfd, opened before the kill, says when it has gone.
            let exit = try #require(Observe.exit(of: pid))
            let loss = try Self.killAndMeasure(pid: pid, path: path, captureStart: started,
                                               after: random.seconds(in: 0.3...2.5)) { _ = exit.wait(timeout: .seconds(10)) }
            worst = max(worst, loss)
            #expect(loss <= Self.promise, "kill \(kill) of a session (.\(ext)) lost \(loss) s")
        }
        print("rec start .\(ext): worst loss over \(Self.killsPerCase) kills \(String(format: "%.3f", worst)) s")
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func terminateAndInterruptFinishTheFile(signal: Int32) throws {
        let folder = try RecBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/ended.mp4"
        let writes = FileWatch([folder])
        let process = try RecBinary.launch(["record", "--source", "test:320x240@30", "-o", path])
        // Record until 20 frames are on disk (read again each time the file is written).
        #expect(writes.wait { ((try? FrameReader.read(path: path))?.frames.count ?? 0) >= 20 }, "20 frames never reached the file")
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(bytes.range(of: Data("moof".utf8)) == nil, "still fragmented: not finished")
        let frames = try FrameReader.read(path: path).frames.map(\.stamp)
        #expect(frames.count >= 20)
        #expect(frames == (0..<frames.count).map { Optional($0) })
    }

    // MARK: - Measuring

    /// Kills `pid` after `delay` seconds of capture, then checks the file and returns the seconds lost.
    static func killAndMeasure(pid: Int32, path: String, captureStart: Double, after delay: Double,
                               reap: () -> Void) throws -> Double {
        // The kill's moment is the test's subject, not an event to wait for: sleep until it.
        let due = captureStart + delay
        var at = timespec(tv_sec: Int(due), tv_nsec: Int((due - due.rounded(.down)) * 1e9))
        while clock_nanosleep(CLOCK_BOOTTIME, TIMER_ABSTIME, &at, nil) == EINTR {}
        let killedAt = bootTime()
        kill(pid, SIGKILL)
        reap()
        let frames = try FrameReader.read(path: path).frames.map(\.stamp)
        #expect(frames == (0..<frames.count).map { Optional($0) }, "frames missing or out of order in \(path)")
        #expect(!FileManager.default.fileExists(atPath: path + ".finishing"))
        let captured = killedAt - captureStart
        return max(0, captured - Double(frames.count) / fps)
    }

    /// When the process's "rec.capture" thread started, in seconds of CLOCK_BOOTTIME. rec opens
    /// `file` on its encode thread for the first frame the capture thread took, so once `watch`
    /// (on the file's folder, made before rec started) sees it, the thread is there to read.
    static func captureThreadStart(pid: Int32, file: String, watch: FileWatch) -> Double? {
        guard watch.wait(until: { FileManager.default.fileExists(atPath: file) }) else { return nil }
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        for tid in tasks {
            let comm = (try? String(contentsOfFile: "/proc/\(pid)/task/\(tid)/comm", encoding: .utf8)) ?? ""
            guard comm.hasPrefix("rec.capture"),
                  let stat = try? String(contentsOfFile: "/proc/\(pid)/task/\(tid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { continue }
            // Fields after "(comm)": state is field 3, starttime field 22.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 19, let start = Double(fields[19]) { return start / ticks }
        }
        return nil
    }

    static func bootTime() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_BOOTTIME, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}

extension SplitMix {
    /// A seeded moment in `range`: the same moments on every run.
    mutating func seconds(in range: ClosedRange<Double>) -> Double {
        range.lowerBound + Double(next() >> 11) / Double(1 << 53) * (range.upperBound - range.lowerBound)
    }
}
