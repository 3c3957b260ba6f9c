import Foundation
import Media
import RecCore
import Session
import Synchronization
import Testing
import TestPool

/// A stop ends a B-frame camera's recording on a whole run of pictures. A network camera's
/// pictures leave its reorder gate as runs (a picture and the B-frames presented before it), and
/// the recorder took them one by one, checking for a stop between two: a stop that came after a
/// run's first picture left its B-frames out, and the recording ended 218, 222 (the corpus's
/// /h264-high row, in whole-suite runs under load, where the capture thread is slow between two).
@Suite(.blocking) struct StopWholeRunTests {
    /// An H.264 file's pictures handed out as a network camera's gate lets them out: in decode
    /// order, by runs; `onRun(n)` is told when the n-th run's first picture is handed out.
    final class RunsOfPictures: FrameSource, CompressedFrames, @unchecked Sendable {
        let demuxer: Demuxer
        let stream: Demuxer.Stream
        var ready: [EncodedPacket] = []
        var pending: EncodedPacket?
        var runs = 0
        /// Moves the file's times so that decode times start at 0, as a camera's run does.
        var shift: Int64?
        let onRun: @Sendable (Int) -> Void
        var format: VideoFormat { VideoFormat(width: stream.parameters.width, height: stream.parameters.height, pixelFormat: .none) }
        var nominalFrameRate: Rational? { stream.frameRate }
        var description: String { "runs of \(demuxer.path)" }
        var droppedFrames: Int { 0 }
        var capabilities: SourceCapabilities { SourceCapabilities(isLive: true, compressed: self) }
        var compressedParameters: CodecParameters? { stream.parameters }
        var holdsReleasedPackets: Bool { !ready.isEmpty }

        init(path: String, onRun: @escaping @Sendable (Int) -> Void) throws {
            demuxer = try Demuxer(path: path)
            stream = try #require(demuxer.streams.first { $0.id.isVideo })
            self.onRun = onRun
        }

        func start() {}
        func nextFrame() -> VideoFrame? { nil }
        func stop() {}

        /// A run: a picture and the ones after it in decode order presented before it.
        func nextPacket() throws(RecError) -> EncodedPacket? {
            if ready.isEmpty {
                guard var first = try take() else { return nil }
                first.captureTime = first.decodeTime.rescaled(to: .microseconds)
                ready = [first]
                while let next = try take() {
                    guard next.pts < first.pts else {
                        pending = next
                        break
                    }
                    var p = next
                    p.captureTime = p.decodeTime.rescaled(to: .microseconds)
                    ready.append(p)
                }
                runs += 1
                onRun(runs)
            }
            return ready.removeFirst()
        }

        private func take() throws(RecError) -> EncodedPacket? {
            if let p = pending.take() { return p }
            do {
                while var p = try demuxer.read() {
                    guard p.stream == stream.id else { continue }
                    let by = shift ?? -p.dts
                    shift = by
                    (p.pts, p.dts) = (p.pts + by, p.dts + by)
                    return p
                }
                return nil
            } catch {
                throw error.recError("reading \(demuxer.path)")
            }
        }
    }

    @Test func aStopAfterARunsFirstPictureKeepsTheRun() throws {
        FFmpegLog.quiet()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rec-runs-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // x264's B-pyramid: I0 P4 B2 b1 b3 …, runs of four pictures.
        let source = folder + "/bframes.mp4", path = folder + "/stopped.mkv"
        let make = Process()
        make.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        make.arguments = ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30:duration=4",
                          "-c:v", "libx264", "-bf", "3", "-b_strategy", "0", "-g", "60", source]
        try make.run()
        make.waitUntilExit()
        try #require(make.terminationStatus == 0)
        let recorder = Mutex<Recorder?>(nil)
        let runs = try RunsOfPictures(path: source) { run in
            // The stop comes as the 20th run's first picture is taken, before its B-frames.
            if run == 20 { recorder.withLock { $0?.requestStop() } }
        }
        let copy = EncoderSettings(encoder: "copy", width: 0, height: 0, pixelFormat: .none)
        let configuration = RecorderConfiguration(encoder: copy, output: .init(path: path, container: .mkv), pace: .off)
        recorder.withLock { $0 = Recorder(source: runs, configuration: configuration) }
        let started = try #require(recorder.withLock { $0 })
        #expect(started.waitUntilFinished(seconds: 60))
        #expect(started.currentStats.state == .finished, "\(started.currentStats.lastError ?? "")")
        let times = try FrameReader.read(path: path).frames.map(\.time.seconds).sorted()
        let steps = zip(times, times.dropFirst()).map { (($1 - $0) * 30).rounded() }
        #expect(times.count > 40 && steps.allSatisfy { $0 == 1 },
                "\(times.count) pictures, breaks: \(steps.enumerated().filter { $1 != 1 }.map { (times[$0.offset] * 30).rounded() })")
    }
}
