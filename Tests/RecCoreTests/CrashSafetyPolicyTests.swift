import Testing
@testable import RecCore

/// The pure parts of the crash promise: what a file holds for certain as fragments end, how far an
/// encoder may run ahead, and what a full disk tells the user.
@Suite struct CrashSafetyPolicyTests {
    @Test func withoutReorderingAFragmentEndHoldsEverythingBeforeThePacket() {
        let stream = SyntheticStream.make(gopLengths: [30])
        var clock = FragmentClock()
        for (i, p) in stream.packets.prefix(5).enumerated() { clock.wrote(p, fragmentEnded: i == 4) }
        #expect(clock.completeBefore == stream.packets[4].presentationTime)
        clock.wrote(stream.packets[5], fragmentEnded: false)
        #expect(clock.completeBefore == stream.packets[4].presentationTime, "nothing new is out")
    }

    @Test func withBFramesOnlyAKeyframeIsASafeLine() {
        let stream = SyntheticStream.make(gopLengths: [12, 12], bFrames: 2)
        var clock = FragmentClock()
        // A fragment ends mid-GOP: frames presented before that packet may still be to come.
        for (i, p) in stream.packets.prefix(6).enumerated() { clock.wrote(p, fragmentEnded: i == 5) }
        #expect(clock.completeBefore == stream.packets[0].presentationTime)
        // At the second keyframe, the whole first GOP is out.
        for (i, p) in stream.packets.enumerated().dropFirst(6) {
            clock.wrote(p, fragmentEnded: i == 12)
        }
        #expect(stream.packets[12].isKeyframe)
        #expect(clock.completeBefore == stream.packets[12].presentationTime)
    }

    @Test func finishingHoldsEverything() {
        var clock = FragmentClock()
        clock.finished(upTo: .microseconds(2_000_000))
        #expect(clock.completeBefore == .microseconds(2_000_000))
    }

    @Test func encoderLookAheadIsCappedToTheBudget() {
        #expect(EncoderLatency.lookahead(fps: 30, bFrames: 0) == 5)
        #expect(EncoderLatency.lookahead(fps: 60, bFrames: nil) == 9)
        #expect(EncoderLatency.lookahead(fps: 30, bFrames: 8) == 8, "never fewer than the B-frames")
        #expect(EncoderLatency.lookahead(fps: 1, bFrames: 0) == 1)
        #expect(EncoderLatency.lookahead(fps: .nan, bFrames: 0) == 5)
        #expect(EncoderLatency.lookahead(fps: 1e300, bFrames: 0) == 150)
        let x264 = EncoderLatency.options(encoder: "libx264", fps: 30, bFrames: 0, setting: [:])
        #expect(x264 == ["rc-lookahead": "5", "x264-params": "sync-lookahead=0"])
        #expect(EncoderLatency.options(encoder: "libvpx-vp9", fps: 30, bFrames: nil, setting: [:]) == ["lag-in-frames": "5"])
        #expect(EncoderLatency.options(encoder: "ffv1", fps: 30, bFrames: nil, setting: [:]).isEmpty)
    }

    @Test func aLiveSessionsEncoderLooksOnePictureAheadOnSlices() {
        #expect(EncoderLatency.liveOptions(encoder: "libx264", setting: [:])
                == ["rc-lookahead": "1", "x264-params": "sync-lookahead=0:sliced-threads=1"])
        #expect(EncoderLatency.liveOptions(encoder: "libx264", setting: ["rc-lookahead": "20"]) == ["x264-params": "sync-lookahead=0:sliced-threads=1"])
        #expect(EncoderLatency.liveOptions(encoder: "libvpx-vp9", setting: [:]).isEmpty)
    }

    @Test func aPresetsOwnChoiceWins() {
        let options = EncoderLatency.options(encoder: "libx264", fps: 30, bFrames: 3,
                                             setting: ["rc-lookahead": "40", "x264-params": "stitchable=1"])
        #expect(options.isEmpty)
    }

    @Test func aFullDiskSaysWhichDiskWhatWasKeptAndWhatNext() {
        let report = FileFailureReport(path: "/media/usb/cam.mp4", reason: "No space left on device", diskFull: true,
                                       freeBytes: 0, keptBytes: 3 << 20, keptUntil: .microseconds(12_300_000),
                                       ringGoesOn: true)
        #expect(report.message.contains("the disk holding /media/usb is full"))
        #expect(report.message.contains("0:12.3"))
        #expect(report.message.contains("3.0 MiB") || report.message.contains("3 MiB"), "\(report.message)")
        #expect(report.message.contains("rec save -o"))
        var ended = report
        ended.ringGoesOn = false
        ended.diskFull = false
        ended.reason = "Input/output error"
        ended.keptUntil = nil
        #expect(ended.message.hasPrefix("writing /media/usb/cam.mp4 failed: Input/output error"))
        #expect(ended.message.contains("holds no complete frame"))
        #expect(ended.message.contains("another disk with -o"))
    }
}
