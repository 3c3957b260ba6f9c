import Foundation
import Media
import RecCore

extension Recorder {
    /// The file ended early (see `AssetWriter`): say so and, in a session, go on in the ring.
    func fileFailed(_ file: SegmentedWriter, _ error: FFmpegError) {
        let code = -(file.failure ?? error).code
        var disk = statvfs()
        let folder = (file.path as NSString).deletingLastPathComponent
        let free = statvfs(folder.isEmpty ? "." : folder, &disk) == 0 ? Int(disk.f_bavail) * Int(disk.f_frsize) : nil
        let report = FileFailureReport(
            path: file.path, reason: String(cString: strerror(code)), diskFull: code == ENOSPC || code == EDQUOT,
            freeBytes: free, keptBytes: Int(file.durableBytes), keptUntil: file.completeBefore,
            ringGoesOn: configuration.keepsRingWhenFileFails)
        var failure = RecError.runtime(report.message, cause: error.description)
        failure.reason = RecError.Reason(errno: code) ?? .notWritable
        if configuration.keepsRingWhenFileFails {
            stats.withLock {
                $0.lastError = failure.description
                $0.fileError = failure.description
                $0.fileFailure = failure
            }
        } else {
            fail(failure)
        }
    }
}
