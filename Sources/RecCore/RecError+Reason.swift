import Foundation

extension RecError {
    /// What kind of failure an error is, as a value a program switches on (the library's
    /// `RecError.Kind`). nil: nothing more precise than `code` is known.
    package enum Reason: Sendable, Equatable {
        /// The output file exists and overwriting was not asked for.
        case alreadyExists
        /// A file, device, stream or path that is not there.
        case notFound
        /// A host that cannot be found or reached.
        case unreachable
        /// A host that refused the connection (nothing listens on the port).
        case refused
        /// A server that wants credentials, or refused the ones given.
        case unauthorized
        /// The system refused access (a device's or file's permissions).
        case notPermitted
        /// No answer in the time allowed.
        case timedOut
        /// A codec, container, pixel format or mode that cannot be used here.
        case unsupported
        /// A device another program holds, or a bus without room for another stream.
        case deviceBusy
        /// A device that went away (unplugged, or stopped answering).
        case deviceGone
        /// A network camera's connection that broke after it ran.
        case connectionLost
        /// No room left to write (ENOSPC, a quota, a file size limit).
        case diskFull
        /// A folder or file that cannot be written.
        case notWritable
        /// A range the ring or file no longer (or does not yet) hold; `held` says what it does.
        case rangeNotHeld
        /// The session has ended: nothing more can be asked of it.
        case sessionEnded

        /// The kind of a failed system call's `errno`; nil for one that says nothing more.
        package init?(errno code: Int32) {
            switch code {
            case ENOSPC, EDQUOT, EFBIG: self = .diskFull
            case EROFS: self = .notWritable
            case EACCES, EPERM: self = .notPermitted
            case EBUSY: self = .deviceBusy
            case ENODEV, ENXIO: self = .deviceGone
            case ENOENT: self = .notFound
            case ECONNREFUSED: self = .refused
            case ETIMEDOUT: self = .timedOut
            case EHOSTUNREACH, ENETUNREACH, EHOSTDOWN, ENETDOWN: self = .unreachable
            case ECONNRESET, EPIPE, ECONNABORTED: self = .connectionLost
            case EEXIST: self = .alreadyExists
            default: return nil
            }
        }
    }

    /// `reason` when set, else what `fault` says: an unplugged camera is gone, a lost
    /// connection is lost, a failed system call is its `errno`'s kind.
    package var kind: Reason? {
        if let reason { return reason }
        switch fault {
        case .cameraUnplugged: return .deviceGone
        case .connectionLost: return .connectionLost
        case .system(let code): return Reason(errno: code)
        case .cameraStopped, nil: return nil
        }
    }

    /// This error with `reason` set.
    package func because(_ reason: Reason) -> RecError {
        var error = self
        error.reason = reason
        return error
    }
}
