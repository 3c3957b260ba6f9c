import Foundation
import Media
import RecCore
import Testing
import TestPool

/// What keeps a save from competing with the live recording: its own thread at a lower priority,
/// and the session's own encoder settings for the frames it re-encodes.
@Suite(.blocking) struct SaveIsolationTests {
    @Test func backgroundWorkRunsAtNicePlusTenAndLeavesTheCallerAlone() throws {
        let before = try #require(BackgroundWork.currentNiceness)
        let inside = try BackgroundWork.run { () throws(RecError) in BackgroundWork.currentNiceness }
        #expect(inside == min(19, before + 10), "the save thread runs at nice \(String(describing: inside))")
        #expect(BackgroundWork.currentNiceness == before, "the caller's priority changed")
    }

    @Test func backgroundWorkHandsBackErrors() {
        #expect(throws: RecError.self) {
            try BackgroundWork.run { () throws(RecError) -> Int in throw .runtime("no") }
        }
    }

    /// Frames re-encoded from a session's ring use the session's encoder, speed and quality, and
    /// still match the source stream (SPS id 1, profile, level).
    /// The parameters of a short H.264 stream rec encoded.
    static func h264() throws -> CodecParameters {
        let path = Fixtures.temporary("mkv")
        defer { unlink(path) }
        try Fixtures.encode(times: Fixtures.cfr(5), to: path)
        return try Demuxer(path: path).streams[0].parameters
    }

    @Test func spliceUsesTheSessionsEncoderSettings() throws {
        let source = try Self.h264()
        var session = EncoderSettings(encoder: "libx264", width: 320, height: 240, pixelFormat: .yuv420p,
                                      keyframeInterval: 30, rateControl: .crf(30))
        session.speed = "ultrafast"
        session.tune = "zerolatency"
        let settings = try ReencodeSettings.splice(source: source, like: session)
        #expect(settings.encoder == "libx264")
        #expect(settings.speed == "ultrafast")
        #expect(settings.tune == "zerolatency")
        #expect(settings.rateControl == .crf(30))
        #expect(settings.options["x264-params"] == "sps-id=1")
        #expect(settings.bFrames == 0)
        let generic = try ReencodeSettings.splice(source: source)
        #expect(generic.speed == "veryfast" && generic.rateControl == .crf(16))
    }
}

extension SaveIsolationTests {
    /// A session encoding H.264 with another encoder (hardware, say) keeps rec's own splice
    /// encoder, whose parameter set ids rec controls.
    @Test func anotherEncoderOfTheSameCodecKeepsTheSpliceEncoder() throws {
        let source = try Self.h264()
        let session = EncoderSettings(encoder: "h264_nvenc", width: 320, height: 240, pixelFormat: .yuv420p,
                                      keyframeInterval: 30, rateControl: .crf(30))
        let settings = try ReencodeSettings.splice(source: source, like: session)
        #expect(settings.encoder == "libx264" && settings.rateControl == .crf(16))
    }
}
