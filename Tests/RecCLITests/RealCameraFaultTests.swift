import Foundation
import Glibc
import Testing
import TestFileWatch
import TestPool

/// Unplugs, stalls and queue errors, through the real `rec` and libv4l2 over the fake driver.
@Suite("camera faults through real libv4l2", .blocking)
struct RealCameraFaultTests {
    typealias Machine = FakeKernel.Machine

    func record(_ machine: Machine, _ extra: [String]) throws -> (RecBinary.Result, [String: Any]) {
        let result = try machine.rec(["record", "--source", "v4l2:" + machine.node("video0"), "--preset", "lossless",
                                      "-o", "out.mkv", "--json"] + extra)
        return (result, (try? RealCameraTests.summary(result)) ?? [:])
    }

    @Test func anUnplugAndASlowFlakyReplugResumeAndTheGapIsReported() throws {
        // After the replug the camera is busy, then fails S_FMT with EIO, then STREAMON with ETIMEDOUT.
        let machine = try Machine([("video0", "yuyv")], faults: ["FAKEV4L2_UNPLUG_AFTER": "10", "FAKEV4L2_REPLUG_MS": "600",
                                                                 "FAKEV4L2_FLAKY": "3"])
        let (result, summary) = try record(machine, ["--frames", "25", "--on-unplug", "wait"])
        #expect(result.status == 0, "\(result.error)")
        #expect(summary["gaps"] as? Int == 1, "\(result.output)")
        #expect(summary["last_gap"] as? String == "was unplugged", "\(result.output)")
        #expect(summary["error"] == nil, "\(result.output)")
        #expect(try FakeKernel.frameNumbers(machine.folder + "/out.mkv") == Array(0..<10) + Array(0..<15))
        #expect(machine.driverLog.filter { $0.hasPrefix("streamon") }.allSatisfy { $0.hasSuffix("50fps") })
    }

    @Test func aStalledCameraIsRestartedWithOnUnplugWait() throws {
        let machine = try Machine([("video0", "yuyv")], faults: ["FAKEV4L2_STALL_AFTER": "8"])
        let (result, summary) = try record(machine, ["--frames", "12", "--on-unplug", "wait"])
        #expect(result.status == 0, "\(result.error)")
        #expect(summary["gaps"] as? Int == 1, "\(result.output)")
        // A stall is told as one, not as an unplug.
        #expect(summary["last_gap"] as? String == "stopped delivering frames (a stall)", "\(result.output)")
        #expect(try FakeKernel.frameNumbers(machine.folder + "/out.mkv") == Array(0..<8) + Array(0..<4))
    }

    @Test func aStopWhileWaitingForTheCameraEndsAtOnceAndCleanly() throws {
        let machine = try Machine([("video0", "yuyv")], faults: ["FAKEV4L2_UNPLUG_AFTER": "5"])
        let process = Process()
        process.executableURL = RecBinary.url
        process.arguments = ["record", "--source", "v4l2:" + machine.node("video0"), "--preset", "lossless", "-o", "out.mkv",
                             "--on-unplug", "wait", "--json"]
        process.currentDirectoryURL = URL(fileURLWithPath: machine.folder)
        process.environment = machine.environment
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        let log = FileWatch([machine.folder])
        try process.run()
        #expect(log.wait { machine.driverLog.contains { $0.hasPrefix("unplug") } }, "the camera was never unplugged")
        // Into the wait: rec looks for the camera's node again (it lists the device folder).
        let looking = FileWatch([machine.folder + "/dev"], mask: UInt32(IN_ACCESS))
        #expect(looking.wait { looking.events > 0 }, "rec never looked for the camera again")
        kill(process.processIdentifier, SIGINT)
        let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(output)")
        #expect(try FakeKernel.frameNumbers(machine.folder + "/out.mkv") == Array(0..<5))
    }

    @Test func aFailedRequeueIsReportedAtOnceNotAsAStall() throws {
        let machine = try Machine([("video0", "yuyv")], faults: ["FAKEV4L2_QBUF_FAIL": "3"])
        let (result, _) = try record(machine, ["--frames", "40"])
        #expect(result.status == 1)
        #expect(result.error.contains("VIDIOC_QBUF"), "\(result.error)")
        #expect(!result.error.contains("cable"), "\(result.error)")
    }

    @Test func buffersDequeuedWithEIOGoBackToTheDriver() throws {
        let machine = try Machine([("video0", "yuyv")], faults: ["FAKEV4L2_DQBUF_EIO": "2,4,6,8,10"])
        let (result, summary) = try record(machine, ["--frames", "20"])
        #expect(result.status == 0, "\(result.error)")
        #expect(summary["frames"] as? Int == 20)
        #expect(summary["dropped_by_source"] as? Int == 5)
    }

    @Test func aQueueErrorIsNotCalledAnUnplugAndRecoversWithWait() throws {
        let stop = try Machine([("video0", "yuyv")], faults: ["FAKEV4L2_POLLERR_AFTER": "6"])
        let (failed, _) = try record(stop, ["--frames", "20"])
        #expect(failed.status == 1)
        #expect(!failed.error.contains("unplugged"), "\(failed.error)")
        #expect(failed.error.contains("error on its queue"), "\(failed.error)")

        let wait = try Machine([("video0", "yuyv")], faults: ["FAKEV4L2_POLLERR_AFTER": "6"])
        let (result, summary) = try record(wait, ["--frames", "10", "--on-unplug", "wait"])
        #expect(result.status == 0, "\(result.error)")
        #expect(summary["gaps"] as? Int == 1)
        #expect(try FakeKernel.frameNumbers(wait.folder + "/out.mkv") == Array(0..<6) + Array(0..<4))
    }
}
