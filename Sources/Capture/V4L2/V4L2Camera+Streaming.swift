import CV4L2
import Glibc
import Media
import RecCore
import VideoDevices

/// A filled driver buffer, borrowed for the length of a `withNextBuffer` closure: `bytes` points
/// into the mmap'd queue and must not escape it.
struct BorrowedBuffer {
    var bytes: UnsafeRawBufferPointer
    var captureTime: Timestamp
    var sequence: Int64
    /// V4L2_FIELD_TOP or _BOTTOM for alternating fields; the format's field otherwise.
    var field: UInt32 = 0
}

extension V4L2Camera {
    /// Blocks until the next frame: YUYV and NV12 copied once into a new frame (row by row,
    /// honouring the driver's bytes per line), MJPEG decoded.
    package func nextFrame() throws(RecError) -> VideoFrame? {
        if let first = pending {
            pending = nil
            return first.frame
        }
        guard let mode else { throw RecError.runtime("\(path) is not started; call start() first") }
        if mode.fourcc.isJPEG { return try nextDecodedFrame(keepingJPEG: false)?.frame }
        let target = format
        let pool = framePool.flatMap { $0.format == target ? $0 : nil } ?? FramePool(format: target)
        framePool = pool
        if signal.alternateFields { return try nextWovenFrame(pool) }
        return try withNextBuffer { buffer throws(RecError) in
            do throws(FFmpegError) {
                let frame = try pool.next()
                frame.captureTime = buffer.captureTime
                frame.sequence = buffer.sequence
                copyRows(buffer.bytes, into: frame)
                signal.tag(frame)
                return frame
            } catch {
                throw error.recError("cannot allocate a \(target) frame")
            }
        }
    }

    /// The next frame exactly as the camera compressed it (MJPEG: one JPEG image), for `copy`
    /// presets that store it without re-encoding. Use instead of `nextFrame()`, not with it.
    package func nextCompressedFrame() throws(RecError) -> CompressedFrame? {
        if let first = pending {
            pending = nil
            return first.jpeg
        }
        guard let mode, mode.fourcc.isJPEG else {
            throw RecError.usage("\(path) delivers raw \(mode?.fourcc.description ?? "") frames, not JPEG; "
                                 + "a copy preset needs --pixel-format MJPG")
        }
        return try withNextBuffer { CompressedFrame(data: Array($0.bytes), captureTime: $0.captureTime, sequence: $0.sequence) }
    }

    /// The next JPEG decoded, and its bytes when `keepingJPEG` (else empty); a JPEG that fails
    /// to decode is counted and skipped.
    func nextDecodedFrame(keepingJPEG: Bool) throws(RecError) -> (frame: VideoFrame, jpeg: CompressedFrame)? {
        guard let decoder else { return nil }
        let started = system.monotonicMicroseconds()
        while true {
            let decoded = try withNextBuffer { buffer -> (frame: VideoFrame, jpeg: CompressedFrame)? in
                guard let frame = try? decoder.decode(buffer.bytes, captureTime: buffer.captureTime, sequence: buffer.sequence)
                else { return nil }
                return (frame, CompressedFrame(data: keepingJPEG ? Array(buffer.bytes) : [],
                                               captureTime: buffer.captureTime, sequence: buffer.sequence))
            }
            if let decoded { return decoded }
            errorFrames += 1
            if Double(system.monotonicMicroseconds() - started) / 1_000_000 >= options.watchdogSeconds {
                throw CameraFault.undecodable(path, seconds: options.watchdogSeconds)
            }
        }
    }

    /// Waits for a filled buffer, lends it to `body`, and queues it back to the driver when
    /// `body` returns or throws. Polls before each DQBUF (a DQBUF on an empty queue only says
    /// EAGAIN). Error-flagged, empty, short and (MJPEG) unterminated buffers are counted and
    /// skipped; sequence gaps are counted. Throws the watchdog error after
    /// `Options.watchdogSeconds` without a frame, the unplugged error (`isCameraUnplugged`) on
    /// ENODEV, and the queue error on a POLLERR from a camera that is still there.
    func withNextBuffer<R>(_ body: (BorrowedBuffer) throws(RecError) -> R) throws(RecError) -> R {
        guard let stream else { throw RecError.runtime("\(path) is not started; call start() first") }
        let started = system.monotonicMicroseconds()
        while true {
            try waitForBuffer(stream, since: started)
            let buffer: v4l2_buffer
            switch stream.dequeue() {
            case .success(let b): buffer = b
            case .failure(.again): continue
            case .failure(.noDevice): throw unplugged()
            case .failure(.io):
                // EIO: the driver lost a frame (its sequence gap counts it) and may have dequeued
                // the buffer anyway; hand back every buffer it no longer holds.
                try requeueLost(stream)
                continue
            case .failure(let e): throw CameraFault.device(stream.path, "VIDIOC_DQBUF", e)
            }
            let index = Int(buffer.index)
            guard stream.buffers.indices.contains(index) else {
                throw CameraFault.device(stream.path, "VIDIOC_DQBUF (buffer index \(index) out of range)", .invalid)
            }
            let numbered = clock.sequence(buffer.sequence)
            sequenceGaps += numbered.skipped
            let bytes = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(stream.buffers[index])
                .prefix(Int(min(buffer.bytesused, UInt32(stream.buffers[index].count)))))
            if buffer.flags & CV4L2_BUF_FLAG_ERROR != 0 || bytes.count < layout.minimumBytes
                || (mode?.fourcc.isJPEG == true && !JPEGCheck.isComplete(bytes)) {
                errorFrames += 1
                try requeue(stream, index)
                // Only broken buffers for the watchdog's time is as bad as none.
                if Double(system.monotonicMicroseconds() - started) / 1_000_000 >= options.watchdogSeconds {
                    throw mode?.fourcc.isJPEG == true ? CameraFault.undecodable(path, seconds: options.watchdogSeconds)
                                                      : CameraFault.watchdog(stream.path, seconds: options.watchdogSeconds)
                }
                continue
            }
            let time = captureMicroseconds(buffer)
            let result: Result<R, RecError>
            do throws(RecError) {
                result = .success(try body(BorrowedBuffer(bytes: bytes, captureTime: clock.captureTime(time), sequence: numbered.sequence,
                                                          field: buffer.field)))
            } catch {
                result = .failure(error)
            }
            try requeue(stream, index)
            return try result.get()
        }
    }

    /// The driver's CLOCK_MONOTONIC timestamp, or ours now when it has none or it is not within
    /// [now − 10 s, now + 1 s] (a driver stamping CLOCK_REALTIME, or garbage), as FFmpeg checks.
    private func captureMicroseconds(_ buffer: v4l2_buffer) -> Int64 {
        let now = system.monotonicMicroseconds()
        guard buffer.flags & CV4L2_BUF_FLAG_TIMESTAMP_MASK == CV4L2_BUF_FLAG_TIMESTAMP_MONOTONIC else { return now }
        let stamp = Int64(buffer.timestamp.tv_sec) * 1_000_000 + Int64(buffer.timestamp.tv_usec)
        return stamp >= now - 10_000_000 && stamp <= now + 1_000_000 ? stamp : now
    }

    /// VIDIOC_QBUF, or the error that says so: a buffer the driver refuses back is lost for good.
    private func requeue(_ stream: V4L2Stream, _ index: Int) throws(RecError) {
        switch stream.queue(index) {
        case .success: return
        case .failure(.noDevice): throw unplugged()
        case .failure(let e): throw CameraFault.requeue(stream.path, e)
        }
    }

    /// After a DQBUF that failed with EIO: VIDIOC_QUERYBUF each buffer and queue the ones the
    /// driver holds neither queued nor done.
    private func requeueLost(_ stream: V4L2Stream) throws(RecError) {
        for index in stream.buffers.indices {
            guard case .success(let flags) = stream.flags(of: index) else { continue }
            if flags & (CV4L2_BUF_FLAG_QUEUED | CV4L2_BUF_FLAG_DONE) == 0 { try requeue(stream, index) }
        }
    }

    /// poll(2) until the node is readable; the watchdog, unplug and queue-error checks live here.
    private func waitForBuffer(_ stream: V4L2Stream, since started: Int64) throws(RecError) {
        while true {
            switch system.waitReadable(stream.fd, timeoutMilliseconds: options.pollMilliseconds) {
            case .success(let revents):
                if revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 {
                    // vb2 raises POLLERR after a queue error too; only a gone device is an unplug.
                    if stream.isGone() { throw unplugged() }
                    let path = stream.path
                    stop()
                    throw CameraFault.queueError(path)
                }
                if revents & Int16(POLLIN) != 0 { return }
            case .failure(.noDevice): throw unplugged()
            case .failure(let e): throw CameraFault.device(stream.path, "poll", e)
            }
            let waited = Double(system.monotonicMicroseconds() - started) / 1_000_000
            if waited >= options.watchdogSeconds { throw CameraFault.watchdog(stream.path, seconds: options.watchdogSeconds) }
        }
    }

    /// Releases the dead device and returns the error the recorder recognises.
    private func unplugged() -> RecError {
        let target = stream?.path ?? path
        stop()
        return CameraFault.unplugged(target)
    }

    /// One copy from the driver's rows into the frame's planes (YUYV: one plane; NV12: Y then UV).
    private func copyRows(_ source: UnsafeRawBufferPointer, into frame: VideoFrame) {
        let width = format.width, height = format.height
        let planes = format.pixelFormat == .nv12 ? [(rows: height, bytes: width), (rows: height / 2, bytes: width)]
                                                 : [(rows: height, bytes: width * 2)]
        guard let start = source.baseAddress else { return }
        var offset = 0
        for (index, plane) in planes.enumerated() {
            guard let destination = frame.plane(index) else { continue }
            for row in 0..<plane.rows {
                (destination.base + row * destination.bytesPerRow)
                    .update(from: (start + offset + row * layout.bytesPerLine).assumingMemoryBound(to: UInt8.self),
                            count: plane.bytes)
            }
            offset += plane.rows * layout.bytesPerLine
        }
    }
}

extension V4L2Camera {
    /// Two alternating fields woven into one frame: the first field's rows become the frame's
    /// even (top) or odd (bottom) rows, the next field's the others; the frame is timed by its
    /// first field and tagged with the order the stream runs in. A field whose partner was lost
    /// (the same parity twice) starts the frame again, so rows of different frames never mix.
    func nextWovenFrame(_ pool: FramePool) throws(RecError) -> VideoFrame {
        let frame: VideoFrame
        do { frame = try pool.next() } catch { throw error.recError("cannot allocate a \(format) frame") }
        var woven = 0
        while woven < 2 {
            try withNextBuffer { buffer throws(RecError) in
                let top = buffer.field == CV4L2_FIELD_TOP
                guard top || buffer.field == CV4L2_FIELD_BOTTOM else {
                    throw RecError.runtime("\(path) said it sends alternating fields but sent a buffer of field \(buffer.field); "
                                           + "set the card to interlaced output (v4l2-ctl -d \(path) --set-fmt-video=field=interlaced)")
                }
                let first = firstField ?? buffer.field
                firstField = first
                if buffer.field == first {
                    frame.captureTime = buffer.captureTime
                    frame.sequence = buffer.sequence / 2
                    woven = 1
                } else if woven == 0 {
                    return  // the second field of a frame whose first was lost
                } else {
                    woven = 2
                }
                copyField(buffer.bytes, into: frame, bottom: !top)
            }
        }
        signal.topFieldFirst = firstField == CV4L2_FIELD_TOP
        signal.tag(frame)
        return frame
    }

    /// One field's rows into every other row of a frame (YUYV, or NV12's two planes).
    private func copyField(_ source: UnsafeRawBufferPointer, into frame: VideoFrame, bottom: Bool) {
        let width = format.width, fieldRows = format.height / 2
        let planes = format.pixelFormat == .nv12 ? [(rows: fieldRows, bytes: width), (rows: fieldRows / 2, bytes: width)]
                                                 : [(rows: fieldRows, bytes: width * 2)]
        guard let start = source.baseAddress else { return }
        var offset = 0
        for (index, plane) in planes.enumerated() {
            guard let destination = frame.plane(index) else { continue }
            for row in 0..<plane.rows {
                (destination.base + (2 * row + (bottom ? 1 : 0)) * destination.bytesPerRow)
                    .update(from: (start + offset + row * layout.bytesPerLine).assumingMemoryBound(to: UInt8.self),
                            count: plane.bytes)
            }
            offset += plane.rows * layout.bytesPerLine
        }
    }
}
