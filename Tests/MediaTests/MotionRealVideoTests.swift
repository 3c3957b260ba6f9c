import Foundation
import Media
import RecCore
import Testing
import TestPool

/// Issue 40's motion detector judged on real video nobody here made: OpenCV's sample clips, as
/// Debian's `opencv-doc` package (4.6.0+dfsg-12) ships them in
/// /usr/share/doc/opencv-doc/examples/data/, fetched into .build/sample-media by
/// scripts/fetch-sample-media.sh (scripts/test.sh runs it before the tests). Each is decoded by
/// rec's own Demuxer and VideoDecoder and run as a session runs the detector: pictures chosen by
/// `MotionCadence` on their presentation times, judged by `MotionDetector` on the luma plane,
/// turned into events by `MotionTracker`. The expected times were marked by a person looking at
/// the pictures (ffmpeg's PNGs of each frame), before the detector was run on them.
@Suite(.blocking) struct MotionRealVideoTests {
    /// An event a person marks: when the motion starts and ends (seconds from the first picture),
    /// and the part of the picture the event's box must cover (where the moving things went).
    struct Marked: Sendable {
        var start: Double
        var end: Double
        var covers: MotionRect
    }

    /// One sample: the file, what it shows, the pictures judged (up to `until` seconds) and the
    /// events a person marks in them; no other event may be found.
    struct Sample: Sendable, CustomStringConvertible {
        var file: String
        var shows: String
        var until = Double.infinity
        var marked: [Marked]
        var description: String { "\(file) (\(shows))" }
    }

    /// How far a found event's start and end may be from the marked times. The detector sees 5
    /// pictures a second (0.2 s apart) and an event starts at the first analysed picture with
    /// motion; a person's mark and the first picture in which the mover is big enough to count
    /// can be a source frame apart (tree.avi's frames are 0.33 to 0.67 s apart: the fingertips
    /// show at 23.13 s, the hand at 23.53 s). Half a second holds both and is still well short of
    /// the 2 s of quiet that ends an event.
    static let tolerance = 0.5

    static let samples: [Sample] = [
        // vtest.avi: 768x576 MS-MPEG4v3 at 10 pictures a second, 79.5 s, a fixed camera looking down
        // on a campus path: pedestrians walk across it, on the road by the building at the top and
        // over the grass at the bottom, in every second of the clip. A person marks one event from
        // the first picture to the last (the detector's first picture only becomes its background,
        // so 0.2 s is its earliest start), covering the picture's whole width and the path from
        // the road (a quarter of the way down) to the grass near the bottom.
        Sample(file: "vtest.avi", shows: "pedestrians walking throughout",
               marked: [Marked(start: 0, end: 79.4, covers: MotionRect(x: 0.1, y: 0.25, width: 0.8, height: 0.6))]),
        // tree.avi: 320x240 Cinepak, 68 pictures over 29.5 s (a webcam dropping frames: 0.33 to
        // 0.73 s apart), looking out of a window at a tree. Nothing but the leaves' slight stir and
        // the webcam's noise until a hand's fingertips show at the top right at 23.13 s; the hand
        // comes down from the top right at 23.53 s and stays, moving, to the last picture (29.53 s),
        // reaching to a third of the way in from the left.
        Sample(file: "tree.avi", shows: "a still tree, then a hand from the top right",
               marked: [Marked(start: 23.13, end: 29.53, covers: MotionRect(x: 0.5, y: 0.1, width: 0.45, height: 0.5))]),
        // The same clip's first 23 s alone: the still scene. No event.
        Sample(file: "tree.avi", shows: "the still tree, first 23 s", until: 23.0, marked: []),
    ]

    /// What the detector made of a sample: every event (the one under way at the end included)
    /// and each analysed picture's time and sample.
    struct Watched {
        var events: [MotionEvent] = []
        var analysed: [(time: Double, sample: MotionSample)] = []
        var lastPicture = 0.0
    }

    /// Pixel formats whose plane 0 is 8-bit luma, judged as decoded; anything else (tree.avi's
    /// Cinepak decodes to rgb24) goes through libswscale to gray first.
    static let lumaFirst: Set<PixelFormat> = Set(["yuv420p", "yuvj420p", "yuv422p", "yuvj422p", "yuv444p", "nv12", "gray"]
        .compactMap { PixelFormat(name: $0) })

    /// The sample's path in .build/sample-media. A missing sample fails the test with a message
    /// saying so; it is never skipped quietly.
    static func path(_ name: String) throws -> String {
        let path = FileManager.default.currentDirectoryPath + "/.build/sample-media/" + name
        try #require(FileManager.default.fileExists(atPath: path),
                     "SAMPLE MISSING: \(path); run scripts/fetch-sample-media.sh (scripts/test.sh does). Not skipped: failed.")
        return path
    }

    /// Decodes `path` with rec's Demuxer and VideoDecoder and runs the detector over the pictures
    /// before `until` seconds, as a session would.
    static func watch(_ path: String, until: Double = .infinity) throws -> Watched {
        FFmpegLog.quiet()
        let demuxer = try Demuxer(path: path)
        let index = try #require(demuxer.bestVideoStream)
        let decoder = try VideoDecoder(parameters: demuxer.streams[index].parameters, threads: 1)
        var cadence = MotionCadence(), detector = MotionDetector(), tracker = MotionTracker()
        var gray: Scaler?
        var first: Double?
        var watched = Watched()
        func judge(_ frame: VideoFrame) throws {
            try #require(frame.captureTime.value != Int64.min, "a decoded picture without a time")
            let seconds = frame.captureTime.seconds
            let t = seconds - (first ?? seconds)
            first = first ?? seconds
            guard t < until else { return }
            watched.lastPicture = t
            guard cadence.takes(t) else { return }
            var picture = frame
            if !lumaFirst.contains(frame.format.pixelFormat) {
                if gray == nil {
                    let to = VideoFormat(width: frame.format.width, height: frame.format.height, pixelFormat: try #require(PixelFormat(name: "gray")))
                    gray = try Scaler(from: frame.format, to: to)
                }
                picture = try #require(gray).scale(frame)
            }
            let (base, stride) = try #require(picture.plane(0))
            let (width, height) = (picture.format.width, picture.format.height)
            let sample = detector.analyse(luma: UnsafeBufferPointer(start: base, count: (height - 1) * stride + width),
                                          width: width, height: height, stride: stride)
            watched.analysed.append((t, sample))
            for case .ended(let event) in tracker.take(sample, at: t) { watched.events.append(event) }
        }
        func drain() throws {
            while case .output(let frame) = try decoder.receive() { try judge(frame) }
        }
        while let packet = try demuxer.read() {
            guard packet.streamIndex == index else { continue }
            while !(try decoder.send(packet)) { try drain() }
            try drain()
        }
        try decoder.send(nil)
        try drain()
        if let open = tracker.current { watched.events.append(open) }
        return watched
    }

    @Test(arguments: samples)
    func eventsAreWhereAPersonMarksThem(sample: Sample) throws {
        let watched = try Self.watch(try Self.path(sample.file), until: sample.until)
        let moving = watched.analysed.filter { $0.sample.level > 0 }
        let summary = "\(watched.analysed.count) pictures analysed to \(watched.lastPicture) s, \(moving.count) with motion "
            + "(first at \(moving.first.map { "\($0.time)" } ?? "-") s); events: "
            + watched.events.map { e in "#\(e.id) \(e.start)–\(e.end) s, peak \(e.peak) at \(e.peakAt) s, box \(e.box.map { "\($0)" } ?? "-")" }
            .joined(separator: "; ")
        try #require(watched.events.count == sample.marked.count, "\(sample): \(summary)")
        for (found, marked) in zip(watched.events, sample.marked) {
            #expect(abs(found.start - marked.start) <= Self.tolerance, "start \(found.start), marked \(marked.start): \(summary)")
            #expect(abs(found.end - marked.end) <= Self.tolerance, "end \(found.end), marked \(marked.end): \(summary)")
            let box = try #require(found.box, "\(summary)")
            let c = marked.covers
            let covers = box.x <= c.x && box.y <= c.y && box.x + box.width >= c.x + c.width && box.y + box.height >= c.y + c.height
            #expect(covers, "the box \(box) does not cover \(marked.covers): \(summary)")
        }
    }
}
