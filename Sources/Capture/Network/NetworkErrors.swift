import CFFmpeg
import Foundation
import Media
import RecCore

/// What a network camera's failures mean to the user, with what to try next. Messages name the
/// URL without its credentials, and FFmpeg's own text is cleaned of them too.
enum NetworkErrors {
    /// Resolves the host first, so a name that does not resolve is said as such (libavformat
    /// reports it as a bare I/O error).
    static func checkHostResolves(_ url: NetworkURL) throws(RecError) {
        let host = url.host
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var result: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, nil, &hints, &result)
        if let result { freeaddrinfo(result) }
        guard status == 0 else {
            let why = String(cString: gai_strerror(status))
            throw RecError.runtime("cannot find the camera's host '\(host)' (\(why)); check the name in the URL, or use its IP address",
                                   location: url.redacted).because(.unreachable)
        }
    }

    /// An open that failed: refused, unauthorised, not found, timed out.
    static func explain(_ error: FFmpegError, url: NetworkURL, interrupt: InterruptFlag, connectSeconds: Double) -> RecError {
        let cause = url.scrubbed(error.description)
        let name = url.redacted
        if interrupt.isSet {
            return .runtime("stopped while connecting to \(name); nothing was recorded", cause: cause, location: name)
        }
        return opening(error, url: url, interrupt: interrupt, connectSeconds: connectSeconds, cause: cause)
            .because(reason(of: error, interrupt: interrupt))
    }

    /// What kind of failure an open that failed was.
    private static func reason(of error: FFmpegError, interrupt: InterruptFlag) -> RecError.Reason {
        switch error.code {
        case httpUnauthorized, httpForbidden, cffmpeg_averror(EACCES): .unauthorized
        case httpNotFound: .notFound
        case FFmpegError.exit where interrupt.hasExpired: .timedOut
        default: error.kind ?? .unreachable
        }
    }

    private static func opening(_ error: FFmpegError, url: NetworkURL, interrupt: InterruptFlag, connectSeconds: Double,
                                cause: String) -> RecError {
        let name = url.redacted
        switch error.code {
        case httpUnauthorized, cffmpeg_averror(EACCES):
            let what = url.hasCredentials ? "refused the user name and password in the URL" : "needs a user name and password"
            return .usage("\(name) \(what) (401 Unauthorized); put them in the URL as \(url.scheme.rawValue)://USER:PASSWORD@\(url.authority)/…",
                          cause: cause, location: name)
        case httpForbidden:
            return .usage("\(name) refused access (403 Forbidden); check the user's rights on the camera", cause: cause, location: name)
        case httpNotFound:
            return .usage("\(name) has no such stream (404 Not Found); check the path in the URL (the camera's manual or web page names its streams)",
                          cause: cause, location: name)
        case cffmpeg_averror(ECONNREFUSED):
            return .runtime("\(url.authority) refused the connection; check the port, and that the camera or server is running",
                            cause: cause, location: name, fault: .connectionLost)
        case FFmpegError.exit where interrupt.hasExpired, cffmpeg_averror(ETIMEDOUT):
            return .runtime("no answer from \(url.authority) within \(Int(connectSeconds)) s; check the address and that the camera is on the network",
                            cause: cause, location: name, fault: .connectionLost)
        default:
            return .runtime("cannot read \(name) (\(error.text)); check the URL with `rec probe \(name)`",
                            cause: cause, location: name, fault: .connectionLost)
        }
    }

    /// A read that failed after the stream ran.
    static func lost(_ error: FFmpegError, url: NetworkURL, stalled: Bool, stallSeconds: Double) -> RecError {
        let what = stalled ? "sent nothing for \(Int(stallSeconds)) s" : "dropped the connection (\(error.text))"
        return .runtime("\(url.redacted) \(what)", cause: url.scrubbed(error.description), location: url.redacted,
                        fault: .connectionLost)
    }

    /// The server ended the stream.
    static func ended(url: NetworkURL) -> RecError {
        .runtime("\(url.redacted) ended the stream", location: url.redacted, fault: .connectionLost)
    }

    /// FFmpeg's `FFERRTAG(0xF8, '4', '0', '1')` and friends (`AVERROR_HTTP_*`), which RTSP's
    /// status codes map to as well.
    private static func httpError(_ code: String) -> Int32 {
        let b = Array(code.utf8).map(Int32.init)
        return -(0xF8 | b[0] << 8 | b[1] << 16 | b[2] << 24)
    }
    static let httpUnauthorized = httpError("401")
    static let httpForbidden = httpError("403")
    static let httpNotFound = httpError("404")
}
