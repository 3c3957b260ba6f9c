import Foundation
import Testing
import TestPool

/// Cuts of a B-frame source played in VLC 3.0, the desktop player most people open a clip in
/// (issue 39). Its MP4 demuxer drops the frames a clip presents before the edit list's media
/// time when that time is past 0: a clip whose decode times lagged two frames from its start
/// (`ctts` 1024, an edit list starting at 1024) lost its second and third frames in VLC (38,
/// 41–72 of 38–72), though ffmpeg, mpv, GStreamer and Chromium showed them all.
@Suite(.blocking, .serialized) struct VLCCutTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var output: String
        var from: Double, to: Double
        var extra: [String] = []
        var testDescription: String { "\(from)–\(to) s → .\(output) \(extra.joined(separator: " "))" }
    }

    /// 25 fps x264 with up to 3 B-frames and a keyframe every 2 s: the issue's cuts of such a
    /// file, and one inside a GOP (every frame re-encoded).
    static let cases: [Case] = [
        Case(output: "mp4", from: 1.5, to: 2.9), Case(output: "mp4", from: 2.5, to: 8.0), Case(output: "mov", from: 5.0, to: 7.0),
        Case(output: "mp4", from: 2.5, to: 3.5), Case(output: "mp4", from: 1.5, to: 2.9, extra: ["--keyframe"]),
    ]

    @Test(arguments: cases)
    func everyFrameInVLC(c: Case) throws {
        let s = PlayerEdgeTests.bframes
        let clip = try RealMediaCutTests.cut(s, ext: c.output, from: c.from, to: c.to, extra: c.extra)
        let source = try s.signatures()
        let ffmpeg = Signature.match(try Players.ffmpeg(clip, width: s.width, height: s.height), in: source)
        let end = s.frames(from: c.from, to: c.to).upperBound
        try #require(!ffmpeg.isEmpty)
        // Exact cuts start at `from`; a --keyframe cut at the keyframe before it.
        #expect(ffmpeg == Array((c.extra.isEmpty ? s.frames(from: c.from, to: c.to).lowerBound : ffmpeg[0])..<end), "ffmpeg: \(ffmpeg)")
        let vlc = Signature.match(try Players.vlc(clip, width: s.width, height: s.height), in: source)
        #expect(vlc == ffmpeg, "VLC shows \(vlc.count) frames: \(vlc)")
    }
}
