import Foundation
import Media
import Testing

/// SIGKILL at seeded random moments, to `rec record` and to a session, in MP4 and Matroska: every
/// file decodes, its frames are 0, 1, 2, … with none missing, and it lost at most 0.5 s of what was
/// captured. SIGTERM and SIGINT finish the file as a standard one.
///
/// What was captured is measured from outside: the stand-in camera delivers frame n at n/30 s
/// after its capture thread starts, and the kernel says when that thread started
/// (/proc/PID/task/TID/stat, in clock ticks since boot, the clock CLOCK_BOOTTIME reads). That
/// counts a little more as captured than really was (the thread starts just before the camera's
/// clock), so the loss measured is an upper bound.
@Suite(.serialized) struct KillTests {
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
            let process = try RecBinary.launch(["record", "--source", "test:320x240@30", "-o", path])
            let started = try #require(Self.captureThreadStart(pid: process.processIdentifier), "no capture thread")
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
            let started = try #require(Self.captureThreadStart(pid: pid), "no capture thread")
            let loss = try Self.killAndMeasure(pid: pid, path: path, captureStart: started,
                                               after: random.seconds(in: 0.3...2.5)) { Self.waitGone(pid) }
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
        let process = try RecBinary.launch(["record", "--source", "test:320x240@30", "-o", path])
        _ = Self.captureThreadStart(pid: process.processIdentifier)
        usleep(1_200_000)
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
        let due = captureStart + delay
        while bootTime() < due { usleep(2_000) }
        let killedAt = bootTime()
        kill(pid, SIGKILL)
        reap()
        let frames = try FrameReader.read(path: path).frames.map(\.stamp)
        #expect(frames == (0..<frames.count).map { Optional($0) }, "frames missing or out of order in \(path)")
        #expect(!FileManager.default.fileExists(atPath: path + ".finishing"))
        let captured = killedAt - captureStart
        return max(0, captured - Double(frames.count) / fps)
    }

    /// When the process's "rec.capture" thread started, in seconds of CLOCK_BOOTTIME (waits for it, bounded).
    static func captureThreadStart(pid: Int32) -> Double? {
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        for _ in 0..<2_000 {
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
            usleep(2_000)
        }
        return nil
    }

    static func bootTime() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_BOOTTIME, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// Waits (bounded) until a process that is not our child has gone.
    static func waitGone(_ pid: Int32) {
        for _ in 0..<500 where kill(pid, 0) == 0 {
            // A zombie whose parent is init is reaped quickly; give it a moment.
            if let s = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), s.contains(") Z ") { return }
            usleep(10_000)
        }
    }
}

extension SplitMix {
    /// A seeded moment in `range`: the same moments on every run.
    mutating func seconds(in range: ClosedRange<Double>) -> Double {
        range.lowerBound + Double(next() >> 11) / Double(1 << 53) * (range.upperBound - range.lowerBound)
    }
}
