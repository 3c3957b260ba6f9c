import Encoding
import Media
import RecCore
import Testing
import TestPool

/// The pipeline gives each packet its frame's duration (the gap to the next frame) through
/// `DurationFiller`, handing it on as soon as that is known.
@Suite(.blocking) struct EncodingPipelineDurationTests {
    static func pipeline(_ encoder: String, bFrames: Int? = nil) throws -> (EncodingPipeline, TestPattern) {
        FFmpegLog.quiet()
        let pattern = TestPattern(width: 160, height: 120)
        var settings = EncoderSettings(encoder: encoder, width: 160, height: 120,
                                       pixelFormat: encoder == "mjpeg" ? .yuvj420p : .yuv420p,
                                       rateControl: encoder == "mjpeg" ? .qscale(3) : .encoderDefault, bFrames: bFrames)
        if encoder == "libx264" { settings.speed = "veryfast" }
        return (try EncodingPipeline(settings: settings, input: pattern.format, filter: nil), pattern)
    }

    /// Variable frame rate without reordering: every packet lasts until the next frame, the last as
    /// long as the one before it; packets leave in order, and none waits for the end but what the
    /// encoder itself held back (its frame threads).
    @Test func eachPacketLastsUntilTheNextFrame() throws {
        let (pipeline, pattern) = try Self.pipeline("mjpeg")
        let times = Fixtures.vfr(12)
        let ticks = times.map { Timestamp.microseconds($0).rescaled(to: pipeline.encoder.timeBase).value }
        var beforeFinish: [EncodedPacket] = []
        for (i, t) in times.enumerated() {
            let frame = try VideoFrame(format: pattern.format, captureTime: .microseconds(t))
            pattern.draw(i, into: frame)
            try pipeline.encode(frame) { p throws(FFmpegError) in beforeFinish.append(p) }
        }
        var atFinish: [EncodedPacket] = []
        try pipeline.finish { p throws(FFmpegError) in atFinish.append(p) }
        let all = beforeFinish + atFinish
        #expect(all.map(\.pts) == ticks)
        #expect(!beforeFinish.isEmpty, "packets go on before the end")
        let gaps = zip(ticks.dropFirst(), ticks).map { $0 - $1 }
        #expect(all.map(\.duration) == gaps + [gaps.last ?? 0])
    }

    /// B-frames: packets leave in decode order, each lasting until the next frame in presentation order.
    @Test func reorderedPacketsTakeTheirFramesGaps() throws {
        let (pipeline, pattern) = try Self.pipeline("libx264", bFrames: 3)
        let times = Fixtures.vfr(40)
        var all: [EncodedPacket] = []
        for (i, t) in times.enumerated() {
            let frame = try VideoFrame(format: pattern.format, captureTime: .microseconds(t))
            pattern.draw(i, into: frame)
            try pipeline.encode(frame) { p throws(FFmpegError) in all.append(p) }
        }
        try pipeline.finish { p throws(FFmpegError) in all.append(p) }
        #expect(all.count == times.count)
        #expect(all.map(\.dts) == all.map(\.dts).sorted())
        #expect(all.map(\.pts) != all.map(\.pts).sorted(), "the encoder reordered")
        let ends = Dictionary(uniqueKeysWithValues: all.map { ($0.pts, $0.pts + $0.duration) })
        let sortedPTS = all.map(\.pts).sorted()
        for (pts, next) in zip(sortedPTS, sortedPTS.dropFirst()) { #expect(ends[pts] == next, "frame at \(pts)") }
    }

    /// A single frame lasts one nominal frame.
    @Test func aLoneFrameLastsOneFrame() throws {
        let (pipeline, pattern) = try Self.pipeline("mjpeg")
        let frame = try VideoFrame(format: pattern.format, captureTime: .microseconds(0))
        pattern.draw(0, into: frame)
        var all: [EncodedPacket] = []
        try pipeline.encode(frame) { p throws(FFmpegError) in all.append(p) }
        try pipeline.finish { p throws(FFmpegError) in all.append(p) }
        let oneFrame = Timestamp.rescale(1, from: pipeline.encoder.settings.frameRate.inverted, to: pipeline.encoder.timeBase)
        #expect(all.map(\.duration) == [oneFrame])
    }
}
