import CFFmpeg

/// What raw sound looks like: FFmpeg's sample format, the rate and the channel count.
package struct AudioFormat: Sendable, Equatable, CustomStringConvertible {
    /// An `AVSampleFormat` value (`AV_SAMPLE_FMT_S16`, `AV_SAMPLE_FMT_FLTP`, …).
    package var sampleFormat: Int32
    package var sampleRate: Int
    package var channels: Int

    package init(sampleFormat: Int32, sampleRate: Int, channels: Int) {
        self.sampleFormat = sampleFormat
        self.sampleRate = sampleRate
        self.channels = channels
    }

    package static func s16(rate: Int, channels: Int) -> AudioFormat {
        AudioFormat(sampleFormat: AV_SAMPLE_FMT_S16.rawValue, sampleRate: rate, channels: channels)
    }

    package static func floatPlanar(rate: Int, channels: Int) -> AudioFormat {
        AudioFormat(sampleFormat: AV_SAMPLE_FMT_FLTP.rawValue, sampleRate: rate, channels: channels)
    }

    /// FFmpeg's name for the sample format ("s16", "fltp").
    package var sampleFormatName: String {
        av_get_sample_fmt_name(AVSampleFormat(rawValue: sampleFormat)).map { String(cString: $0) } ?? "none"
    }

    package var description: String { "\(sampleRate) Hz, \(channels) ch, \(sampleFormatName)" }
}
