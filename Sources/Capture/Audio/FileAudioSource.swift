import CFFmpeg
import Foundation
import Media
import RecCore

/// The sound of a `file:` source (`--audio file`): one of the file's audio streams, decoded, on
/// the same timeline as `FileSource`'s pictures. It reads the file with its own `Demuxer`; a file
/// with several sound tracks is read by one of these for each (`AudioSourceFactory.makeAll`).
///
/// Times: `FileSource` puts a picture at pts − the first picture's pts (the first decoded frame
/// with a timestamp, edit lists applied by libavcodec). This source finds that same first
/// picture — it decodes the video stream up to it, once, at `start` — and puts each chunk at
/// its audio pts − that pts, the difference taken exactly and rounded once to microseconds,
/// as `FileSource` rounds its own. Sound that starts before the first picture has negative
/// times, for the clock model to place. `epoch` plays no part: a file's timeline is its own,
/// and the audio thread paces it (`isLive` false).
package final class FileAudioSource: AudioSource {
    package let path: String
    /// Which of the file's audio streams, counted in file order; nil for the one marked default.
    package let track: Int?
    private var demuxer: Demuxer?
    private var decoder: AudioDecoder?
    private var audioIndex = 0
    /// The first picture's pts, in its stream's time base.
    private var pictureStart = Timestamp.zero
    /// Audio packets read while looking for the first picture, to decode before reading on.
    private var held: [EncodedPacket] = []
    private var draining = false
    private var lastEnd: Timestamp?
    private var openedFormat = AudioFormat.floatPlanar(rate: 48000, channels: 2)

    package init(path: String, track: Int? = nil) {
        self.path = path
        self.track = track
    }

    /// How many audio streams the file at `path` has; nil if it cannot be read.
    package static func soundTracks(in path: String) -> Int? {
        (try? Demuxer(path: path)).map { $0.streams.count { $0.parameters.streamKind == .sound } }
    }

    package var description: String { "sound\(track.map { " track \($0 + 1)" } ?? "") of \(path) (\(openedFormat.sampleRate) Hz, \(openedFormat.channels) ch)" }
    package var format: AudioFormat { openedFormat }
    package var isLive: Bool { false }
    /// Timed by its own samples from the first.
    package var settling: ClosedRange<Double> { 0...0 }
    /// A file loses nothing.
    package var overruns: Int { 0 }

    package func start(epoch: UInt64) throws(RecError) {
        stop()
        guard FileManager.default.fileExists(atPath: path) else {
            throw RecError.usage("no such file: \(path); check the path given to --source file:").because(.notFound)
        }
        do {
            let demuxer = try Demuxer(path: path)
            guard let video = demuxer.bestVideoStream else {
                throw RecError.usage("\(path) has no video stream; give a video file to --source file:")
            }
            let chosen = track.map { n in demuxer.streams.filter { $0.parameters.streamKind == .sound }.dropFirst(n).first?.index }
                ?? Self.bestAudioStream(in: demuxer)
            guard let audio = chosen else {
                throw RecError.usage("\(path) has no sound; record without --audio, or give --source a file:PATH with an audio track")
            }
            let decoder = try AudioDecoder(parameters: demuxer.streams[audio].parameters)
            self.demuxer = demuxer
            self.decoder = decoder
            self.audioIndex = audio
            pictureStart = try firstPicture(in: demuxer, stream: video)
            openedFormat = decoder.format
        } catch let error as RecError {
            throw error
        } catch let error as FFmpegError {
            throw .usage("cannot read the sound of \(path); is it a media file FFmpeg supports?", cause: error.description)
        } catch {
            throw .runtime("cannot open \(path)", cause: "\(error)")
        }
    }

    package func nextChunk() throws(RecError) -> AudioFrame? {
        guard let demuxer, let decoder else { return nil }
        do {
            while true {
                switch try decoder.receive() {
                case .output(let frame):
                    frame.time = sessionTime(of: frame, timeBase: decoder.timeBase)
                    lastEnd = Timestamp.microseconds(frame.time.value + frame.duration.rescaled(to: .microseconds).value)
                    return frame
                case .endOfStream:
                    return nil
                case .needsInput:
                    if draining { return nil }
                    if let packet = try nextAudioPacket(demuxer) {
                        try decoder.send(packet)
                    } else {
                        draining = true
                        try decoder.send(nil)
                    }
                }
            }
        } catch {
            throw error.recError("reading the sound of \(path) failed")
        }
    }

    package func stop() {
        decoder = nil
        demuxer = nil
        held = []
        draining = false
        lastEnd = nil
    }

    /// The audio stream `av_find_best_stream` would favour: the one marked default, else the first.
    static func bestAudioStream(in demuxer: Demuxer) -> Int? {
        let audio = demuxer.streams.filter { $0.parameters.isAudio }
        return (audio.first { $0.disposition & AV_DISPOSITION_DEFAULT != 0 } ?? audio.first)?.index
    }

    private func nextAudioPacket(_ demuxer: Demuxer) throws(FFmpegError) -> EncodedPacket? {
        if !held.isEmpty { return held.removeFirst() }
        while let packet = try demuxer.read() {
            if packet.streamIndex == audioIndex { return packet }
        }
        return nil
    }

    /// Decodes the video stream, as `FileSource` does, up to its first frame with a timestamp,
    /// keeping the audio packets read on the way. A video stream that gives no such frame falls
    /// back to the stream's start time (FileSource would then fail or start at 0 itself).
    private func firstPicture(in demuxer: Demuxer, stream index: Int) throws(FFmpegError) -> Timestamp {
        let stream = demuxer.streams[index]
        let fallback = Timestamp(value: stream.startTime ?? 0, timeBase: stream.timeBase)
        guard let video = try? VideoDecoder(parameters: stream.parameters, threads: 1) else { return fallback }
        var ended = false
        while true {
            switch (try? video.receive()) ?? .endOfStream {
            case .output(let frame):
                let pts = frame.pointer.pointee.pts
                if pts != Int64.min { return Timestamp(value: pts, timeBase: video.timeBase) }
            case .endOfStream:
                return fallback
            case .needsInput:
                if ended { return fallback }
                if let packet = try demuxer.read() {
                    if packet.streamIndex == index {
                        if (try? video.send(packet)) == nil { return fallback }
                    } else if packet.streamIndex == audioIndex {
                        held.append(packet)
                    }
                } else {
                    ended = true
                    _ = try? video.send(nil)
                }
            }
        }
    }

    /// Audio pts − the first picture's pts, exact, then rounded once to microseconds; a frame
    /// without a timestamp follows the one before it.
    private func sessionTime(of frame: AudioFrame, timeBase: Rational) -> Timestamp {
        let pts = frame.pointer.pointee.pts
        guard pts != Int64.min else { return lastEnd ?? .zero }
        return Self.difference(Timestamp(value: pts, timeBase: timeBase), minus: pictureStart)
    }

    /// `a − b` in microseconds with one rounding: both in the time base 1/lcm of theirs when
    /// that is exact and fits, else each rounded to microseconds first (off by 1 µs at most).
    static func difference(_ a: Timestamp, minus b: Timestamp) -> Timestamp {
        func gcd(_ x: Int64, _ y: Int64) -> Int64 { y == 0 ? x : gcd(y, x % y) }
        let (ad, bd) = (Int64(a.timeBase.den), Int64(b.timeBase.den))
        let lcm = ad / gcd(ad, bd) * bd
        if a.timeBase.num == 1, b.timeBase.num == 1, ad > 0, bd > 0, lcm <= Int64(Int32.max) {
            let (x, o1) = a.value.multipliedReportingOverflow(by: lcm / ad)
            let (y, o2) = b.value.multipliedReportingOverflow(by: lcm / bd)
            let (d, o3) = x.subtractingReportingOverflow(y)
            if !o1 && !o2 && !o3 {
                return .microseconds(Timestamp.rescale(d, from: Rational(1, Int32(lcm)), to: .microseconds))
            }
        }
        return .microseconds(a.rescaled(to: .microseconds).value - b.rescaled(to: .microseconds).value)
    }
}
