import CFFmpeg
import RecCore

/// A failure returned by an FFmpeg function: the code, the operation that returned it and
/// `av_strerror`'s text. Converted to a `RecError` (with advice) where the user would see it.
package struct FFmpegError: Error, Sendable, CustomStringConvertible, Equatable {
    package var code: Int32
    package var operation: String
    /// FFmpeg's own last error line on this thread, which usually says why ("moov atom not found").
    package var reason: String?

    package init(code: Int32, operation: String) {
        self.code = code
        self.operation = operation
        self.reason = FFmpegLog.takeLastError()
    }

    /// `av_strerror`'s text for the code.
    package var text: String {
        var buffer = [CChar](repeating: 0, count: 256)
        cffmpeg_strerror(code, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    package var description: String { "\(operation): \(text)" + (reason.map { " (FFmpeg says: \($0))" } ?? "") }

    package static let eof = CFFMPEG_AVERROR_EOF
    package static let again = CFFMPEG_EAGAIN
    /// `AVERROR_EXIT`: an interrupt callback ended a blocking call (FFERRTAG('E','X','I','T')).
    package static let exit: Int32 = -(0x45 | 0x58 << 8 | 0x49 << 16 | 0x54 << 24)
    /// `AVERROR_INVALIDDATA`: damaged input a decoder or demuxer could not read (FFERRTAG('I','N','D','A')).
    package static let invalidData: Int32 = -(0x49 | 0x4E << 8 | 0x44 << 16 | 0x41 << 24)

    /// A runtime `RecError` that keeps this error as its cause.
    package func recError(_ message: String, location: String? = nil) -> RecError {
        var error = RecError.runtime(message, cause: description, location: location)
        error.reason = kind
        return error
    }

    /// What kind of failure the code is, for `RecError.reason`: a system call's `errno`
    /// (`AVERROR(ENOSPC)` is a full disk), or a codec, format or protocol FFmpeg does not have.
    package var kind: RecError.Reason? {
        if code < 0, code > -4096 { return RecError.Reason(errno: -code) }
        return Self.missing.contains(code) ? .unsupported : nil
    }

    /// `AVERROR_{DECODER,DEMUXER,ENCODER,MUXER,PROTOCOL,BSF,FILTER}_NOT_FOUND` and
    /// `AVERROR_PATCHWELCOME`: FFmpeg cannot do what was asked.
    private static let missing: Set<Int32> = [
        tag(0xF8, "DEC"), tag(0xF8, "DEM"), tag(0xF8, "ENC"), tag(0xF8, "MUX"), tag(0xF8, "PRO"),
        tag(0xF8, "BSF"), tag(0xF8, "FIL"), -(0x50 | 0x41 << 8 | 0x57 << 16 | 0x45 << 24),
    ]

    /// `FFERRTAG(first, a, b, c)`.
    private static func tag(_ first: Int32, _ rest: String) -> Int32 {
        let b = Array(rest.utf8).map(Int32.init)
        return -(first | b[0] << 8 | b[1] << 16 | b[2] << 24)
    }
}

/// Throws when an FFmpeg call returned a negative code; returns the value otherwise.
@discardableResult
@inline(__always)
package func check(_ result: Int32, _ operation: @autoclosure () -> String) throws(FFmpegError) -> Int32 {
    if result < 0 { throw FFmpegError(code: result, operation: operation()) }
    return result
}

/// Throws `ENOMEM` for a NULL from an FFmpeg allocator.
@inline(__always)
package func allocated<T>(_ pointer: T?, _ operation: @autoclosure () -> String) throws(FFmpegError) -> T {
    guard let pointer else { throw FFmpegError(code: cffmpeg_averror(ENOMEM), operation: operation()) }
    return pointer
}

extension Rational {
    package init(_ r: AVRational) { self.init(r.num, r.den) }
    package var av: AVRational { AVRational(num: num, den: den) }
}
