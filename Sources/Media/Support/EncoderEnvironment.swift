import Glibc

/// Environment some encoder libraries read for themselves, set once before the first one opens.
///
/// SVT-AV1 logs through its own `SVT_LOG` level (it prints its banner and configuration to
/// stderr at info level, whatever FFmpeg's log level is): rec sets `SVT_LOG=1` (errors only) unless
/// the user set it. The variable is read when SVT-AV1 creates an encoder, so it is set before
/// `avcodec_open2`; `setenv` runs once, from the first encoder opened (a Swift global is
/// initialised exactly once, thread-safely).
enum EncoderEnvironment {
    private static let svtLog: Void = { setenv("SVT_LOG", "1", 0) }()

    static func prepare(for encoder: String) {
        if encoder.hasPrefix("libsvtav1") { _ = svtLog }
    }
}
