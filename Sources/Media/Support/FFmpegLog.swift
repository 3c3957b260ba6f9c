import CFFmpeg

/// FFmpeg's own console logging. rec reports problems itself, so libraries speak only of errors
/// (or nothing, under tests); `REC_FFMPEG_LOG=info` brings their chatter back for debugging.
public enum FFmpegLog {
    public static func quiet() {
        if let level = getenv("REC_FFMPEG_LOG").map({ String(cString: $0) }), !level.isEmpty {
            switch level {
            case "debug": av_log_set_level(AV_LOG_DEBUG)
            case "verbose": av_log_set_level(AV_LOG_VERBOSE)
            case "warning": av_log_set_level(AV_LOG_WARNING)
            default: av_log_set_level(AV_LOG_INFO)
            }
            return
        }
        cffmpeg_log_silent()
    }
}
