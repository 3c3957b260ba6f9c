import Capture
import Foundation
import Media
import RecCore
import Session
import Testing
import TestPool

/// The reply a real session sends for a save, as a client reads it: each field with its JSON type.
@Suite(.blocking, .serialized) struct SaveReplyJSONTests {
    @Test(arguments: [false, true])
    func aRealSaveReplyHasTypedFields(keyframe: Bool) throws {
        FFmpegLog.quiet()
        let host = SessionHost(configuration: SessionHostTests.configuration(bFrames: 2),
                               source: TestPatternSource(width: 320, height: 240, fps: 30))
        try host.recorder.waitUntilStarted()
        defer { _ = host.stop() }
        let path = SessionHostTests.temp("mkv")
        defer { try? FileManager.default.removeItem(atPath: path) }
        // From mid-GOP (1 s keyframes), so an exact cut re-encodes its first frames; the save waits
        // for the end it names.
        let report = try host.save(SaveRequest(from: .seconds(0.2), to: .text("+1.5s"), output: path, keyframe: keyframe))
        let line = ControlCodec.encode(ControlResponse(id: .number(3), reply: .ok(.save(report))))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
        let save = try #require(object["save"] as? [String: Any])
        #expect(save["path"] as? String == path)
        for key in ["frames", "dropped_in_range", "bytes", "preroll_frames", "reencoded", "trailing_hidden"] {
            // An integer: a JSON number with no fraction, not a string.
            let number = try #require(save[key] as? NSNumber, "\(key): \(save[key] ?? "missing")")
            #expect(number.doubleValue == number.doubleValue.rounded(), "\(key)")
        }
        #expect(save["keyframe"] is NSNumber)
        for span in ["requested", "saved"] {
            let range = try #require(save[span] as? [String: Any], "\(span)")
            #expect(range["from"] is NSNumber && range["to"] is NSNumber, "\(span)")
        }
        #expect(save["source"] as? String == "ring")
        #expect(save["mode"] as? String == (keyframe ? "keyframe" : "exact"))
        #expect(save["extra"] == nil)
        let reencoded = try #require(save["reencoded"] as? Int)
        #expect(keyframe ? reencoded == 0 : reencoded > 0, "\(save)")
    }
}
