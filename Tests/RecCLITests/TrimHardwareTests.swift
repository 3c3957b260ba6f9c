import Foundation
import Testing
import TestPool

/// `rec trim --reencode` with a preset for a V4L2 memory-to-memory encoder (`pi`: h264_v4l2m2m)
/// checks the machine as `rec record` does, by asking each video node what it is: `rec-trim` links
/// no libv4l2 and asks the kernel directly, as FFmpeg's encoder will. Run through the fake kernel
/// driver beneath the real binary.
@Suite(.blocking) struct TrimHardwareTests {
    /// A two-second test recording in the machine's folder.
    static func input(_ machine: FakeKernel.Machine) throws {
        let made = try machine.rec(["record", "--source", "test:160x120@30", "--frames", "60", "--pace", "off", "-o", "in.mp4"])
        try #require(made.status == 0, "\(made.error.suffix(2000))")
    }

    static let cut = ["trim", "in.mp4", "--from", "0.5s", "--to", "1s", "--reencode", "--preset", "pi", "-o", "out.mp4"]

    /// A webcam is no encoder: the cut stops before decoding anything, saying what is missing.
    @Test func aCameraIsNoEncoder() throws {
        let machine = try FakeKernel.Machine([("video0", "yuyv")])
        try Self.input(machine)
        let result = try machine.rec(Self.cut)
        #expect(result.status == 1)
        #expect(result.error.contains("h264_v4l2m2m needs a V4L2 memory-to-memory H264 encoder"), "\(result.error)")
        #expect(result.error.contains("none found"), "\(result.error)")
        #expect(!FileManager.default.fileExists(atPath: machine.folder + "/out.mp4"))
        // The probe asked the camera what it was.
        #expect(machine.driverLog.contains { $0.hasPrefix("open") && $0.contains("video0") }, "\(machine.driverLog)")
    }

    /// An M2M node whose encoded side offers H.264 passes the check; the encoder itself then opens
    /// FFmpeg's own way, scanning the real /dev, where this machine has none: it fails there, with
    /// FFmpeg's reason, and leaves no clip.
    @Test func anEncoderNodeIsFound() throws {
        let machine = try FakeKernel.Machine([("video0", "yuyv"), ("video11", "encoder")])
        try Self.input(machine)
        let result = try machine.rec(Self.cut)
        #expect(!result.error.contains("none found"), "\(result.error)")
        #expect(result.status == 1)
        #expect(result.error.contains("avcodec_open2(h264_v4l2m2m)"), "\(result.error)")
        #expect(!FileManager.default.fileExists(atPath: machine.folder + "/out.mp4"))
        #expect(machine.driverLog.contains { $0.hasPrefix("open") && $0.contains("video11") }, "\(machine.driverLog)")
    }
}
