import Foundation
import Testing
import TestServers
import TestPool

/// Issue 21: clips saved from a network camera's ring are exact, as today's are: the frames the
/// camera sent in the range, no more, no fewer, in ffmpeg and mpv, with the camera's sound.
@Suite(.blocking) struct NetworkSaveTests {
    typealias Sandbox = BackgroundSessionTests.Sandbox

    /// The camera's frames a save covers: session time 0 is the first keyframe, the camera's
    /// frame 0 for a client that just connected, so the frame at session time t is 30 t.
    static func expectedCounters(_ report: [String: Any]) -> [Int] {
        guard let saved = report["saved"] as? [String: Any], let from = saved["from"] as? Double, let to = saved["to"] as? Double else {
            return []
        }
        return Array(Int((from * 30).rounded())..<Int((to * 30).rounded()))
    }

    /// A range inside the ring (frames 31–90) and the last two seconds, from H.264 with and without
    /// B-frames; the session keeps no file (NetworkRecordTests checks a camera's files).
    @Test(arguments: [RTSPTestServer.Mount.h264, .h264BFrames]) func savesAreExact(_ mount: RTSPTestServer.Mount) throws {
        let server = try RTSPTestServer()
        let box = try Sandbox()
        let start = try box.rec(["start", "--source", server.url(mount), "--no-file"])
        try #require(start.status == 0, "rec start: \(start.error)")
        try box.waitForFrames(120)
        // Mid-frame ends: the camera's frame times are off the 1/30 s grid by up to a millisecond
        // (90 kHz ticks, the timeline's slew), so frame 90 fell inside 1 s – 3 s in one run in three.
        let saves = [("range.mp4", ["--from", "1.0167s", "--to", "3.0167s"]), ("last.mp4", ["--last", "2s"])]
        for (name, range) in saves {
            let save = try box.rec(["save"] + range + ["-o", name, "--json"])
            try #require(save.status == 0, "rec save \(range): \(save.error)")
            let report = NetworkClip.object(save.output)
            let expected = Self.expectedCounters(report)
            if name == "range.mp4" { #expect(expected == Array(31..<91)) }
            #expect(report["frames"] as? Int == 60 && expected.count == 60, "\(name): \(report)")
            let path = box.path(name)
            #expect(try NetworkClip.counters(path) == expected, "\(name) in ffmpeg")
            #expect(try NetworkClip.mpvCounters(path) == expected, "\(name) in mpv")
            try NetworkClip.expectDecodes(path)
            let seconds = try SoundProbe.audioDuration(in: path)
            #expect(abs(seconds - 2) < 0.05, "\(name): \(seconds) s of sound")
            let errors = try NetworkClip.syncErrors(path)
            #expect(!errors.isEmpty && errors.allSatisfy { abs($0) < NetworkClip.frame }, "\(name) click − flash: \(errors)")
        }
        #expect(try box.rec(["stop"]).status == 0)
    }

    /// Issue 39: a camera whose keyframe libavformat hands out as two packets of one time (two
    /// slices, parameter sets before each) is one picture a keyframe: counted once, and the ring
    /// keeps the whole buffer. Before, the second half of each keyframe looked like a keyframe not
    /// later than the one before, the ring took it for a restart and emptied itself (it held one
    /// GOP), and every keyframe counted twice.
    @Test func aKeyframeInTwoPacketsIsOnePictureAndTheRingKeepsItsBuffer() throws {
        let server = try RTSPTestServer()
        let box = try Sandbox()
        let start = try box.rec(["start", "--source", server.url(.h264Sliced), "--buffer", "60s", "--no-file"])
        try #require(start.status == 0, "rec start: \(start.error)")
        try box.waitForFrames(150)
        let status = try box.status()
        let frames = try #require(status["frames"] as? Int)
        let span = try #require(status["ring_span"] as? Double)
        // Nothing was evicted from a 60 s ring: it spans every frame counted, from frame 0.
        #expect(abs(span - Double(frames) / 30) < 0.1, "the ring spans \(span) s after \(frames) frames")
        let save = try box.rec(["save", "--last", "4s", "-o", "last.mp4", "--json"])
        try #require(save.status == 0, "rec save: \(save.error)")
        let report = NetworkClip.object(save.output)
        let expected = Self.expectedCounters(report)
        #expect(report["frames"] as? Int == 120 && expected.count == 120, "\(report)")
        #expect(try NetworkClip.counters(box.path("last.mp4")) == expected)
        try NetworkClip.expectDecodes(box.path("last.mp4"))
        #expect(try box.rec(["stop"]).status == 0)
    }
}
