import Capture
import Encoding
import Media
import RecCore
import Session
import Testing
import TestPool

/// A recording that cannot start says whose fault it is by where the pipeline failed (its filter
/// graph or its encoder, `EncodingPipeline.SetupError`), not by the name of the FFmpeg call.
@Suite(.blocking) struct RecorderSetupErrorTests {
    static func start(encoder: String, filter: String?) -> RecError? {
        FFmpegLog.quiet()
        let settings = EncoderSettings(encoder: encoder, width: 0, height: 0, pixelFormat: .yuv420p)
        let config = RecorderConfiguration(encoder: settings, filter: filter, output: nil, pace: .off, frameLimit: 5)
        let recorder = Recorder(source: TestPatternSource(width: 320, height: 240, fps: 30), configuration: config)
        defer { recorder.waitUntilFinished() }
        do throws(RecError) {
            try recorder.waitUntilStarted()
            return nil
        } catch {
            return error
        }
    }

    @Test func aBadFilterIsTheUsersToFix() throws {
        let error = try #require(Self.start(encoder: "ffv1", filter: "nosuchfilter=1"))
        #expect(error.code == .usage)
        #expect(error.message.hasPrefix("the filter 'nosuchfilter=1' is not valid: "), "\(error)")
    }

    @Test func anEncoderThatWillNotOpenBehindAGoodFilterIsARuntimeFailure() throws {
        let error = try #require(Self.start(encoder: "rec-no-such-encoder", filter: "hflip"))
        #expect(error.code == .runtime)
        #expect(error.message.hasPrefix("cannot open the rec-no-such-encoder encoder"), "\(error)")
    }

    @Test func thePipelineNamesTheStageThatFailed() throws {
        let input = VideoFormat(width: 320, height: 240, pixelFormat: .yuv420p)
        let settings = EncoderSettings(encoder: "ffv1", width: 0, height: 0, pixelFormat: .yuv420p)
        do {
            _ = try EncodingPipeline(settings: settings, input: input, filter: "scale=w=")
            Issue.record("a broken filter opened")
        } catch {
            guard case .filter = error else { Issue.record("\(error)"); return }
        }
        var bad = settings
        bad.encoder = "rec-no-such-encoder"
        do {
            _ = try EncodingPipeline(settings: bad, input: input, filter: "hflip")
            Issue.record("an unknown encoder opened")
        } catch {
            guard case .encoder = error else { Issue.record("\(error)"); return }
        }
    }
}
