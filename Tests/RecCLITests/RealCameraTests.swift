import Foundation
import Testing
import TestPool

/// The real `rec` through the real libv4l2 against the fake kernel driver: what real webcams,
/// capture cards and small boards do (issue 12).
@Suite("real libv4l2 over a fake kernel driver", .blocking)
struct RealCameraTests {
    typealias Machine = FakeKernel.Machine

    static func summary(_ result: RecBinary.Result) throws -> [String: Any] {
        let start = try #require(result.output.firstIndex(of: "{"))
        return try #require(try JSONSerialization.jsonObject(with: Data(result.output[start...].utf8)) as? [String: Any])
    }

    @Test func yuyvRecordsEveryFrameInOrderAndLibv4l2StaysQuiet() throws {
        let machine = try Machine([("video0", "yuyv")])
        let result = try machine.rec(["record", "--source", "v4l2:" + machine.node("video0"), "--frames", "20",
                                      "--preset", "lossless", "-o", "out.mkv", "--json"])
        #expect(result.status == 0, "\(result.error)")
        #expect(!result.error.contains("libv4l2"), "\(result.error)")
        #expect(try FakeKernel.frameNumbers(machine.folder + "/out.mkv") == Array(0..<20))
    }

    @Test func aCameraLibv4lcontrolWouldFlipListsItsOwnFormats() throws {
        // The sensor reports V4L2_IN_ST_HFLIP|VFLIP, as libv4lcontrol's quirk table would decide.
        for faults in [["FAKEV4L2_FLIP": "1"], ["LIBV4LCONTROL_FLAGS": "3"]] {
            let machine = try Machine([("video0", "yuyv")], faults: faults)
            let devices = try machine.rec(["devices"])
            #expect(devices.output.contains("YUYV  YUYV 4:2:2"), "\(faults): \(devices.output)")
            let result = try machine.rec(["record", "--source", "v4l2:" + machine.node("video0"), "--frames", "5",
                                          "--preset", "lossless", "-o", "out.mkv"])
            #expect(result.status == 0, "\(faults): \(result.error)")
            #expect(try FakeKernel.frameNumbers(machine.folder + "/out.mkv") == Array(0..<5))
        }
    }

    @Test func halfReceivedJPEGsAndEmptyBuffersAreDroppedAndCounted() throws {
        let machine = try Machine([("video0", "mjpeg")], faults: ["FAKEV4L2_PARTIAL": "3,7", "FAKEV4L2_ZERO": "10-12"])
        let copy = try machine.rec(["record", "--source", "v4l2:" + machine.node("video0"), "--frames", "15",
                                    "--preset", "camera-copy", "-o", "copy.mkv", "--json"])
        #expect(copy.status == 0, "\(copy.error)")
        #expect(try FakeKernel.jpegNumbers(machine.folder + "/copy.mkv") == [0, 1, 2, 4, 5, 6, 8, 9, 13, 14, 15, 16, 17, 18, 19])
        #expect(try Self.summary(copy)["dropped_by_source"] as? Int == 5)

        let decoded = try machine.rec(["record", "--source", "v4l2:" + machine.node("video0"), "--frames", "15",
                                       "-o", "decoded.mkv", "--json"])
        #expect(decoded.status == 0, "\(decoded.error)")
        #expect(try Self.summary(decoded)["dropped_by_source"] as? Int == 5)
        #expect(!decoded.error.contains("EOI"), "\(decoded.error)")
    }

    @Test func multiPlanarDevicesListAndRecordWithACleanStdout() throws {
        let machine = try Machine([("video0", "mplane")])
        let devices = try machine.rec(["devices", "--json"])
        #expect(devices.status == 0)
        let list = (try JSONSerialization.jsonObject(with: Data(devices.output.utf8)) as? [String: Any])?["cameras"] as? [[String: Any]]
        let formats = (list?.first?["formats"] as? [[String: Any]])?.compactMap { $0["fourcc"] as? String }
        #expect(formats?.contains("NV12") == true, "\(devices.output)")
        let result = try machine.rec(["record", "--source", "v4l2:" + machine.node("video0"), "--frames", "10",
                                      "--preset", "lossless", "-o", "out.mkv", "--json"])
        #expect(result.status == 0, "\(result.error)")
        #expect(!result.output.contains("mplane"), "\(result.output)")
        #expect(try FakeKernel.frameNumbers(machine.folder + "/out.mkv") == Array(0..<10))
    }

    @Test func noUSBBandwidthSaysSoAndWhatToTry() throws {
        let machine = try Machine([("video0", "yuyv")], faults: ["FAKEV4L2_ENOSPC": "1"])
        let result = try machine.rec(["record", "--source", "v4l2:" + machine.node("video0"), "--frames", "5", "-o", "out.mkv"])
        #expect(result.status == 1)
        #expect(result.error.contains("USB bandwidth"), "\(result.error)")
        #expect(result.error.contains("--pixel-format MJPG"), "\(result.error)")
        #expect(!result.error.contains("replug"), "\(result.error)")
    }

    @Test func driverTimestampsFarFromNowAreReplacedByTheMonotonicClock() throws {
        let machine = try Machine([("video0", "mjpeg")], faults: ["FAKEV4L2_REALTIME_TS": "5-6"])
        let result = try machine.rec(["record", "--source", "v4l2:" + machine.node("video0"), "--frames", "15",
                                      "--preset", "camera-copy", "-o", "out.mkv", "--json"])
        #expect(result.status == 0, "\(result.error)")
        let duration = try #require(try Self.summary(result)["duration"] as? Double)
        #expect(duration < 5, "a realtime stamp made the file \(duration) s long")
        #expect(try FakeKernel.jpegNumbers(machine.folder + "/out.mkv") == Array(0..<15))
    }

    @Test func alternateFieldsAreWovenAndInterlacedIsReported() throws {
        // Each buffer one 320x120 field, top and bottom in turn, each drawn with its own number.
        let alternate = try Machine([("video0", "yuyv")], faults: ["FAKEV4L2_FIELD": "alternate"])
        let woven = try alternate.rec(["record", "--source", "v4l2:" + alternate.node("video0"), "--frames", "5",
                                       "--preset", "lossless", "-o", "out.mkv", "--json"])
        #expect(woven.status == 0, "\(woven.error)")
        let summary = try Self.summary(woven)
        #expect((summary["source"] as? String)?.contains("woven from alternating fields") == true, "\(summary)")
        let file = alternate.folder + "/out.mkv"
        let size = try ToolOutput.run("ffprobe", ["-v", "error", "-show_entries", "stream=width,height,field_order", "-of", "csv=p=0", file])
        #expect(String(decoding: size, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == "320,240,tt")
        // The top field of each frame is the even buffer, the bottom the odd one after it.
        #expect(try FakeKernel.frameNumbers(file, filter: "field=top,scale=320:240:flags=neighbor") == [0, 2, 4, 6, 8])
        #expect(try FakeKernel.frameNumbers(file, filter: "field=bottom,scale=320:240:flags=neighbor") == [1, 3, 5, 7, 9])

        let interlaced = try Machine([("video0", "yuyv")], faults: ["FAKEV4L2_FIELD": "interlaced", "FAKEV4L2_COLOR": "709"])
        let result = try interlaced.rec(["record", "--source", "v4l2:" + interlaced.node("video0"), "--frames", "5",
                                         "-o", "out.mkv", "--json"])
        #expect(result.status == 0, "\(result.error)")
        let source = try #require(try Self.summary(result)["source"] as? String)
        #expect(source.contains("interlaced (top field first)"), "\(source)")
        #expect(source.contains("BT.709 limited"), "\(source)")
    }

    @Test func aFixedRateCameraRecordsAtTheRateItReallyRuns() throws {
        let machine = try Machine([("video0", "yuyv")], faults: ["FAKEV4L2_NO_TIMEPERFRAME": "1"])
        let result = try machine.rec(["record", "--source", "v4l2:" + machine.node("video0"), "--fps", "50", "--frames", "5",
                                      "-o", "out.mkv", "--json"])
        #expect(result.status == 0, "\(result.error)")
        let mode = try #require(try Self.summary(result)["mode"] as? String)
        #expect(mode.contains("@ 25 fps"), "\(mode)")
    }

    @Test func theDefaultCameraIsTheFirstOneRecCanRead() throws {
        let machine = try Machine([("video0", "grey"), ("video1", "empty"), ("video2", "yuyv")])
        let result = try machine.rec(["record", "--frames", "5", "--preset", "lossless", "-o", "out.mkv", "--json"])
        #expect(result.status == 0, "\(result.error)")
        #expect((try Self.summary(result)["source"] as? String)?.contains("video2") == true)
        let empty = try machine.rec(["record", "--source", "v4l2:" + machine.node("video1"), "--frames", "5", "-o", "e.mkv"])
        #expect(empty.status == 1)
        #expect(empty.error.contains("offers no video formats"), "\(empty.error)")
    }

    @Test func aRaspberryPiCameraOnTheLibcameraStackGetsLibcameraAdvice() throws {
        let machine = try Machine([("video0", "unicam")])
        let result = try machine.rec(["record", "--source", "v4l2:" + machine.node("video0"), "--frames", "5", "-o", "out.mkv"])
        #expect(result.status == 1)
        #expect(result.error.contains("libcamera"), "\(result.error)")
    }
}
