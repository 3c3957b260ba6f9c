import Foundation
import Testing
import TestServers
import TestPool

/// A camera's G.711 sound (A-law, µ-law) is recorded as it came into Matroska; FFmpeg 5.1's MP4
/// muxer has no tag for it, so an `.mp4` clip re-encodes it to AAC, whatever the clip is cut from.
/// Ring saves did (the corpus's `/pcma`, `/pcmu` rows); a save served from segment files and
/// `rec trim` of the recording wrote pictures only. Each clip here is checked for AAC sound as
/// long as its pictures, every click on its flash.
@Suite(.blocking) struct NetworkG711ClipTests {
    typealias Sandbox = BackgroundSessionTests.Sandbox
    static let mounts: [RTSPTestServer.Mount] = [.pcma, .pcmu]

    /// The sound of `clip`: AAC, lasting as long as the pictures within an AAC frame, each click
    /// on its flash within a frame (at least `clicks` of them measured).
    static func expectSoundInSync(_ clip: String, clicks: Int, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let audio = try NetworkClip.stream("audio", in: clip)
        #expect(audio?["codec_name"] as? String == "aac", "sound \(String(describing: audio?["codec_name"]))",
                sourceLocation: sourceLocation)
        guard audio != nil else { return }
        let (sound, pictures) = (try SoundProbe.audioDuration(in: clip), try SoundProbe.videoDuration(in: clip))
        #expect(abs(sound - pictures) < 1024.0 / 48_000, "\(sound) s of sound, \(pictures) s of pictures",
                sourceLocation: sourceLocation)
        let errors = try NetworkClip.syncErrors(clip)
        print("\(clip): \(sound) s of sound, \(pictures) s of pictures; click − flash \(errors)")
        #expect(errors.count >= clicks && errors.allSatisfy { abs($0) < NetworkClip.frame }, "click − flash: \(errors)",
                sourceLocation: sourceLocation)
    }

    /// Where a save is served from: the ring of a session with no file (as the corpus's rows
    /// save), or, older than a 1 s ring, the segment files (`.mkv`, G.711 as it came), across the
    /// segment boundary at 2 s.
    enum Origin: String, Sendable, CaseIterable {
        case ring, file
        var options: [String] { self == .ring ? ["--no-file"] : ["--buffer", "1s", "--segment", "2s", "--output", "seg.mkv"] }
        var frames: Int { self == .ring ? 120 : 150 }
        /// Mid-frame ends (the camera's frame times sit off the 1/30 s grid): frames 31–90, 16–105.
        var range: [String] { self == .ring ? ["--from", "1.0167s", "--to", "3.0167s"] : ["--from", "0.5167s", "--to", "3.5167s"] }
        var counters: [Int] { self == .ring ? Array(31..<91) : Array(16..<106) }
    }

    @Test(arguments: mounts, Origin.allCases)
    func aSaveIntoMP4KeepsTheSound(_ mount: RTSPTestServer.Mount, _ origin: Origin) throws {
        let server = try RTSPTestServer()
        let box = try Sandbox()
        let start = try box.rec(["start", "--source", server.url(mount)] + origin.options)
        try #require(start.status == 0, "rec start: \(start.error)")
        try box.waitForFrames(origin.frames)
        let save = try box.rec(["save"] + origin.range + ["-o", "clip.mp4", "--json"])
        try #require(save.status == 0, "rec save: \(save.error)")
        let report = NetworkClip.object(save.output)
        #expect(report["source"] as? String == origin.rawValue, "\(report)")
        #expect(NetworkSaveTests.expectedCounters(report) == origin.counters, "\(report)")
        #expect(try NetworkClip.counters(box.path("clip.mp4")) == origin.counters)
        try NetworkClip.expectDecodes(box.path("clip.mp4"))
        try Self.expectSoundInSync(box.path("clip.mp4"), clicks: 2)
        #expect(try box.rec(["stop"]).status == 0)
    }

    /// `rec trim` of the camera's `.mkv` recording into `.mp4`: frames 31–120.
    @Test(arguments: mounts) func trimOfTheRecordingIntoMP4KeepsTheSound(_ mount: RTSPTestServer.Mount) throws {
        let server = try RTSPTestServer()
        let folder = try RecBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let recording = folder + "/camera.mkv", clip = folder + "/cut.mp4"
        let record = try RecBinary.run(["record", "--source", server.url(mount), "--frames", "150", "-o", recording])
        try #require(record.status == 0, "rec record: \(record.error)")
        let trim = try RecBinary.run(["trim", recording, "--from", "1.0167", "--to", "4.0167", "-o", clip])
        try #require(trim.status == 0, "rec trim: \(trim.error)")
        #expect(try NetworkClip.counters(clip) == Array(31..<121))
        try NetworkClip.expectDecodes(clip)
        try Self.expectSoundInSync(clip, clicks: 3)
    }
}
