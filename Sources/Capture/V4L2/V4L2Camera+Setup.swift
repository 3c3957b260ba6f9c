import CV4L2
import Glibc
import Media
import RecCore
import VideoDevices

extension V4L2Camera {
    /// Opens `target`, negotiates and sets the mode, maps the buffers and starts streaming.
    /// On any failure the half-built stream is released by its owner.
    func open(_ target: String) throws(RecError) {
        let fd: Int32
        switch system.openDevice(target, flags: O_RDWR | O_NONBLOCK) {
        case .success(let opened): fd = opened
        case .failure(let e): throw openFailure(target, e)
        }
        let stream = V4L2Stream(system: system, fd: fd, path: target)
        let queries = V4L2Queries(system: system, fd: fd)
        guard case .success(let cap) = queries.capability(), cap.caps & CV4L2_CAP_VIDEO_CAPTURE != 0 else {
            throw CameraFault.notCapture(target)
        }
        guard cap.caps & CV4L2_CAP_STREAMING != 0 else {
            throw RecError.runtime("\(target) cannot stream (no V4L2_CAP_STREAMING); rec needs a streaming camera", location: target)
        }
        let formats = queries.formats()
        let stable = system.stableLinks().first { $0.target == resolved(target) || $0.link == target }?.link
        info = CameraInfo(path: target, stablePath: stable ?? info?.stablePath, card: cap.card, driver: cap.driver,
                          busInfo: cap.busInfo, capabilities: cap.caps, formats: formats)
        isMediaController = cap.caps & CV4L2_CAP_IO_MC != 0
        if let lockedMode {
            // A reopen: the file already holds this mode, so the camera must deliver it again.
            let set = try apply(lockedMode, stream)
            guard set.fourcc == lockedMode.fourcc, set.size == lockedMode.size else {
                throw RecError.runtime("\(target) came back as \(set), not \(lockedMode) as before; "
                                       + "the recording cannot change mode mid-file — start a new one", location: target)
            }
            mode = set
        } else {
            let negotiated = try ModeNegotiator.choose(request, from: formats)
            notes = negotiated.notes
            mode = try apply(negotiated.mode, stream)
        }
        try check(stream.mapBuffers(count: options.bufferCount), target)
        try check(stream.streamOn(), target)
        self.stream = stream
        lockedMode = lockedMode ?? mode
        try applyControlSettings(fd: fd, target: target)
        try prepareConversion()
    }

    /// VIDIOC_S_FMT then VIDIOC_G_FMT, VIDIOC_S_PARM then VIDIOC_G_PARM: sets the mode and returns
    /// what the driver really chose, noting every difference.
    private func apply(_ wanted: CameraMode, _ stream: V4L2Stream) throws(RecError) -> CameraMode {
        var format = v4l2_format()
        format.type = CV4L2_BUF_TYPE_VIDEO_CAPTURE
        format.fmt.pix.width = UInt32(wanted.size.width)
        format.fmt.pix.height = UInt32(wanted.size.height)
        format.fmt.pix.pixelformat = wanted.fourcc.rawValue
        format.fmt.pix.field = CV4L2_FIELD_ANY
        try check(system.control(stream.fd, CV4L2_VIDIOC_S_FMT, &format).mapError { V4L2StreamError(.setFormat, $0) }, stream.path)
        try check(system.control(stream.fd, CV4L2_VIDIOC_G_FMT, &format).mapError { V4L2StreamError(.getFormat, $0) }, stream.path)
        let pix = format.fmt.pix
        var actual = CameraMode(fourcc: FourCC(rawValue: pix.pixelformat),
                                size: FrameSize(width: Int(pix.width), height: Int(pix.height)), interval: wanted.interval)
        guard actual.fourcc.isSupported else {
            throw RecError.runtime("\(stream.path) switched to \(actual.fourcc), which rec cannot read; try --pixel-format YUYV",
                                   location: stream.path)
        }
        if actual.fourcc != wanted.fourcc { notes.append("asked for \(wanted.fourcc), the driver chose \(actual.fourcc)") }
        if actual.size != wanted.size { notes.append("asked for \(wanted.size), the driver chose \(actual.size)") }
        signal = try CameraSignal(pix, fourcc: actual.fourcc, path: stream.path)
        let minimumLine = actual.size.width * (actual.fourcc == .yuyv ? 2 : 1)
        let bytesPerLine = max(Int(pix.bytesperline), minimumLine)
        let rows = actual.fourcc == .nv12 ? actual.size.height * 3 / 2 : actual.size.height
        layout = RawLayout(bytesPerLine: bytesPerLine,
                           minimumBytes: actual.fourcc.isRaw ? bytesPerLine * (rows - 1) + minimumLine : 1)

        var parm = v4l2_streamparm()
        parm.type = CV4L2_BUF_TYPE_VIDEO_CAPTURE
        guard case .success = system.control(stream.fd, CV4L2_VIDIOC_G_PARM, &parm) else {
            notes.append("\(stream.path) does not let rec set its frame rate; it runs at its own rate")
            return actual
        }
        guard parm.parm.capture.capability & CV4L2_CAP_TIMEPERFRAME != 0 else {
            // A fixed-rate camera: its own interval, when it reports one, is the real rate.
            if let own = rational(parm.parm.capture.timeperframe) { actual.interval = own }
            notes.append("\(stream.path) does not let rec set its frame rate; it runs at its own rate"
                         + (rational(parm.parm.capture.timeperframe) == nil ? "" : " (\(formatRate(actual.frameRate.doubleValue)) fps)"))
            return actual
        }
        parm.parm.capture.timeperframe = v4l2_fract(numerator: UInt32(wanted.interval.num), denominator: UInt32(wanted.interval.den))
        switch system.control(stream.fd, CV4L2_VIDIOC_S_PARM, &parm) {
        case .success: break
        case .failure(let e) where e == .busy || e == .noDevice:
            try check(.failure(V4L2StreamError(.setParameters, e)), stream.path)
        case .failure(let e):
            // Some drivers claim TIMEPERFRAME and still refuse it; the camera keeps its own rate.
            notes.append("\(stream.path) refused the frame rate (\(e)); it runs at its own rate")
        }
        _ = system.control(stream.fd, CV4L2_VIDIOC_G_PARM, &parm)
        if let set = rational(parm.parm.capture.timeperframe) {
            actual.interval = set
            if abs(set.doubleValue - wanted.interval.doubleValue) > wanted.interval.doubleValue * 0.005 {
                notes.append("asked for \(formatRate(wanted.frameRate.doubleValue)) fps, the driver set \(formatRate(set.inverted.doubleValue)) fps")
            }
        }
        return actual
    }

    /// The frame format for raw modes; for MJPEG, decodes the first frame to learn it and holds it.
    private func prepareConversion() throws(RecError) {
        guard let mode else { return }
        switch mode.fourcc {
        // Alternating fields: G_FMT's height is one field's (V4L2 spec); frames are two woven.
        case .yuyv: format = VideoFormat(width: mode.size.width, height: mode.size.height * (signal.alternateFields ? 2 : 1), pixelFormat: .yuyv422)
        case .nv12: format = VideoFormat(width: mode.size.width, height: mode.size.height * (signal.alternateFields ? 2 : 1), pixelFormat: .nv12)
        default:
            do { decoder = try MJPEGDecoder() } catch { throw error.recError("cannot decode MJPEG from \(path)") }
            if let first = try nextDecodedFrame(keepingJPEG: true) {
                pending = first
                format = first.frame.format
            }
        }
    }

    /// The user-facing error for a failed open(2).
    func openFailure(_ target: String, _ e: DeviceErrno) -> RecError {
        switch e.rawValue {
        case ENOENT, ENODEV, ENXIO: CameraFault.notFound(target, existing: V4L2Discovery.cameras(system: system))
        case EBUSY: CameraFault.busy(target, holders: system.processesHolding(resolved(target)), cause: e)
        case EACCES, EPERM: CameraFault.accessDenied(target)
        case ENOTTY: CameraFault.notCapture(target) // libv4l2's answer for a file that is no video device
        default: CameraFault.device(target, "opening it", e)
        }
    }

    /// A setup step's failure as the user's error: EBUSY names who holds the device.
    func check(_ result: Result<Void, V4L2StreamError>, _ target: String) throws(RecError) {
        guard case .failure(let failure) = result else { return }
        switch failure.errno.rawValue {
        case ENOSPC where failure.request == .streamOn: throw CameraFault.bandwidth(target)
        case _ where isMediaController && failure.request == .streamOn:
            throw CameraFault.mediaController(target, driver: info?.driver ?? "?", failure.errno)
        case EBUSY: throw CameraFault.busy(target, holders: system.processesHolding(resolved(target)), cause: failure.errno)
        case ENODEV: throw CameraFault.unplugged(target)
        default: throw CameraFault.device(target, failure.request.rawValue, failure.errno)
        }
    }

    /// The node a /dev/v4l/by-id link points to (the path itself otherwise).
    func resolved(_ target: String) -> String {
        system.stableLinks().first { $0.link == target }?.target ?? target
    }
}
