import Foundation

/// Media made by the ffmpeg command line for the sound tests: a picture with sound in each
/// container's usual codecs, and the stand-in signals (mark and click) with known sync.
extension SoundProbe {
    enum Container: String, CaseIterable, Sendable {
        case mp4, mov, mkv, webm

        /// ffmpeg's muxer name.
        var format: String {
            switch self {
            case .mp4: "mp4"
            case .mov: "mov"
            case .mkv: "matroska"
            case .webm: "webm"
            }
        }

        /// The usual codecs: H.264 and AAC, or VP9 and Opus in WebM. A keyframe a second, so a
        /// cut copies something; fast settings, for shared machines.
        var codecs: [String] {
            switch self {
            case .mp4, .mov, .mkv:
                ["-c:v", "libx264", "-preset", "veryfast", "-g", "30", "-pix_fmt", "yuv420p", "-c:a", "aac", "-b:a", "128k"]
            case .webm:
                ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-g", "30", "-b:v", "400k",
                 "-pix_fmt", "yuv420p", "-c:a", "libopus", "-b:a", "96k"]
            }
        }
    }

    static let fixtureRate = 48000

    /// `seconds` of `testsrc2` (320 × 240, 30 fps) with white noise seeded the same every time
    /// (48 kHz mono, amplitude 0.25): broadband and never repeating, so a stretch of it matches
    /// the source at one lag only.
    static func makeSoundFixture(path: String, seconds: Double, container: Container) throws {
        try encode(picture: "testsrc2=size=320x240:rate=30:duration=\(seconds)",
                   sound: "anoisesrc=color=white:seed=20240901:amplitude=0.25:sample_rate=\(fixtureRate):duration=\(seconds)",
                   soundOffset: 0, container: container, path: path)
    }

    /// Encodes two lavfi sources, the sound's timestamps moved by `soundOffset` seconds.
    ///
    /// libavformat 59 (FFmpeg 5.1) writes Opus in Matroska 6.5 ms early: it shifts every track
    /// later to make the pre-skip's negative timestamps non-negative but does not add the
    /// CodecDelay it declares, which its demuxer (and the Matroska specification) then
    /// subtracts. Fixed in 59.30 (Ladybird's LibMedia corrects such files: LadybirdBrowser/
    /// ladybird#6685). The sound is moved that much later here so the fixtures are in sync as
    /// made unless `correctingOpus` is false (`ffmpegWebMPutsSoundEarly` measures the offset).
    static func encode(picture: String, sound: String, soundOffset: Double, container: Container, path: String,
                       correctingOpus: Bool = true) throws {
        var offset = soundOffset
        if container == .webm && correctingOpus { offset += Double(opusPreSkip) / Double(fixtureRate) }
        let moved = offset == 0 ? [] : ["-itsoffset", "\(offset)"]
        try Tool.run("ffmpeg", ["-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", picture]
                     + moved + ["-f", "lavfi", "-i", sound, "-map", "0:v", "-map", "1:a", "-ac", "1"]
                     + container.codecs + ["-f", container.format, path])
    }

    /// libopus's look-ahead at 48 kHz, which it declares as pre-skip.
    static let opusPreSkip = 312

    /// How a sync fixture's sound is moved against its picture.
    enum Delay: Sendable {
        /// Silence this long before the tone: the clicks move, the timestamps do not.
        case content(Double)
        /// The sound's timestamps moved (`-itsoffset`); negative puts it early.
        case timestamps(Double)
    }

    /// The stand-in signals made by ffmpeg: `testsrc2` (320 × 240, 30 fps) with the second mark
    /// dark (luma 16) and lit (235) on frames 0, 30, 60, …, and the tone (440 Hz at 0.1) with a
    /// click at samples 0, 48000, 96000, … (+0.8 for 48 samples, then −0.8 for 48). Frame and
    /// sample numbers, not times, choose what is lit, so no rounding moves a second.
    static func makeSyncFixture(path: String, seconds: Double, container: Container, delay: Delay? = nil,
                                correctingOpus: Bool = true) throws {
        let rate = fixtureRate, ms = rate / 1000
        let mark = (width: 320 / 8, height: 240 / 8)
        let box = "x=0:y=\(240 - mark.height):w=\(mark.width):h=\(mark.height):t=fill"
        let picture = "testsrc2=size=320x240:rate=30:duration=\(seconds),drawbox=\(box):color=black,"
            + "drawbox=\(box):color=white:enable='eq(mod(n\\,30)\\,0)'"
        var tone = "aevalsrc=exprs='0.1*sin(2*PI*440*n/\(rate))+if(lt(mod(n\\,\(rate))\\,\(ms))\\,0.8\\,"
            + "if(lt(mod(n\\,\(rate))\\,\(2 * ms))\\,-0.8\\,0))':s=\(rate):d=\(seconds)"
        var offset = 0.0
        switch delay {
        case .content(let d): tone += ",adelay=delays=\(Int((d * 1000).rounded())):all=1,atrim=end=\(seconds)"
        case .timestamps(let d): offset = d
        case nil: break
        }
        try encode(picture: picture, sound: tone, soundOffset: offset, container: container, path: path,
                   correctingOpus: correctingOpus)
    }
}
