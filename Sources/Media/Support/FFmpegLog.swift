import CFFmpeg
import Glibc
import Synchronization

/// FFmpeg's own console logging. rec reports problems itself, so libraries speak only of errors
/// (or nothing, under tests); `REC_FFMPEG_LOG=info` brings their chatter back for debugging.
/// Whatever is printed, the last error line FFmpeg logs on each thread is kept, and an
/// `FFmpegError` made on that thread carries it as the reason.
package enum FFmpegLog {
    package static func quiet() {
        cffmpeg_log_capture()
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

    /// The last error lines, by thread id: a failing call logs on the thread that made it.
    private static let lastErrors = Mutex<[pid_t: String]>([:])

    static func record(_ line: String) {
        var text = line.trimmingWhitespace
        // "[mov,mp4,m4a,3gp,3g2,mj2 @ 0x55…] moov atom not found": the address means nothing to a user.
        if text.hasPrefix("["), let close = text.firstIndex(of: "]"), text[..<close].contains(" @ 0x") {
            let name = text[text.index(after: text.startIndex)..<close].split(separator: " @ ").first ?? ""
            text = "\(name): " + text[text.index(after: close)...].trimmingWhitespace
        }
        guard !text.isEmpty else { return }
        let tid = cffmpeg_gettid()
        lastErrors.withLock { lines in
            if lines.count > 64 { lines.removeAll() }  // threads come and go; only the newest matter
            lines[tid] = text
        }
    }

    /// The last error line FFmpeg logged on this thread, which it then forgets.
    static func takeLastError() -> String? {
        let tid = cffmpeg_gettid()
        return lastErrors.withLock { $0.removeValue(forKey: tid) }
    }
}

/// av_log's lines, from the C trampoline in shim.h.
@_cdecl("rec_ffmpeg_log_line")
package func recFFmpegLogLine(_ level: Int32, _ line: UnsafePointer<CChar>?) {
    guard let line else { return }
    FFmpegLog.record(String(cString: line))
}

extension StringProtocol {
    fileprivate var trimmingWhitespace: String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
