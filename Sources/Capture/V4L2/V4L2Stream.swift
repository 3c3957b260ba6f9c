import CV4L2
import Glibc
import RecCore
import VideoDevices

/// One open camera node and its mmap'd buffer queue: the single owner of the descriptor and the
/// mappings. `close()` undoes everything in reverse order (STREAMOFF, munmap each buffer, free
/// the queue, close the descriptor) and runs from `deinit` too, so every exit path, a failed
/// setup included, releases the device. Teardown errors are ignored: nothing can be done about
/// them, and an unplugged camera fails every one.
final class V4L2Stream {
    let system: any VideoDeviceSystem
    let fd: Int32
    let path: String
    private(set) var buffers: [UnsafeMutableRawBufferPointer] = []
    private var requested = false
    private var streaming = false
    private var closed = false

    init(system: any VideoDeviceSystem, fd: Int32, path: String) {
        self.system = system
        self.fd = fd
        self.path = path
    }

    deinit { close() }

    /// VIDIOC_REQBUFS for `count` mmap buffers (the driver may give more or fewer), then
    /// VIDIOC_QUERYBUF and mmap for each, then VIDIOC_QBUF each so the driver can fill them.
    func mapBuffers(count: Int) -> Result<Void, V4L2StreamError> {
        var request = v4l2_requestbuffers()
        request.count = UInt32(count)
        request.type = CV4L2_BUF_TYPE_VIDEO_CAPTURE
        request.memory = CV4L2_MEMORY_MMAP
        if case .failure(let e) = system.control(fd, CV4L2_VIDIOC_REQBUFS, &request) { return .failure(.init(.requestBuffers, e)) }
        requested = true
        guard request.count >= 2 else { return .failure(.init(.requestBuffers, .init(ENOMEM))) }
        for index in 0..<request.count {
            var buffer = emptyBuffer()
            buffer.index = index
            if case .failure(let e) = system.control(fd, CV4L2_VIDIOC_QUERYBUF, &buffer) { return .failure(.init(.queryBuffer, e)) }
            let length = Int(buffer.length)
            switch system.mmap(fd, length: length, offset: Int64(buffer.m.offset)) {
            case .success(let address): buffers.append(UnsafeMutableRawBufferPointer(start: address, count: length))
            case .failure(let e): return .failure(.init(.map, e))
            }
        }
        for index in buffers.indices {
            if case .failure(let e) = queue(index) { return .failure(.init(.queueBuffer, e)) }
        }
        return .success(())
    }

    /// VIDIOC_STREAMON.
    func streamOn() -> Result<Void, V4L2StreamError> {
        var type = Int32(CV4L2_BUF_TYPE_VIDEO_CAPTURE)
        if case .failure(let e) = system.control(fd, CV4L2_VIDIOC_STREAMON, &type) { return .failure(.init(.streamOn, e)) }
        streaming = true
        return .success(())
    }

    /// VIDIOC_DQBUF: a filled buffer, or EAGAIN when none is ready (the node is non-blocking).
    func dequeue() -> Result<v4l2_buffer, DeviceErrno> {
        var buffer = emptyBuffer()
        return system.control(fd, CV4L2_VIDIOC_DQBUF, &buffer).map { buffer }
    }

    /// VIDIOC_QBUF: hands buffer `index` back to the driver.
    @discardableResult
    func queue(_ index: Int) -> Result<Void, DeviceErrno> {
        var buffer = emptyBuffer()
        buffer.index = UInt32(index)
        return system.control(fd, CV4L2_VIDIOC_QBUF, &buffer)
    }

    /// VIDIOC_QUERYBUF's flags for buffer `index` (QUEUED, DONE, …).
    func flags(of index: Int) -> Result<UInt32, DeviceErrno> {
        var buffer = emptyBuffer()
        buffer.index = UInt32(index)
        return system.control(fd, CV4L2_VIDIOC_QUERYBUF, &buffer).map { buffer.flags }
    }

    /// Whether the device went away: VIDIOC_QUERYCAP fails with ENODEV (any ioctl does after an unplug).
    func isGone() -> Bool {
        if case .failure(.noDevice) = system.capability(fd) { return true }
        return false
    }

    func close() {
        guard !closed else { return }
        closed = true
        if streaming {
            var type = Int32(CV4L2_BUF_TYPE_VIDEO_CAPTURE)
            _ = system.control(fd, CV4L2_VIDIOC_STREAMOFF, &type)
        }
        for buffer in buffers.reversed() {
            if let address = buffer.baseAddress { system.munmap(address, length: buffer.count) }
        }
        buffers = []
        if requested {
            var request = v4l2_requestbuffers()
            request.type = CV4L2_BUF_TYPE_VIDEO_CAPTURE
            request.memory = CV4L2_MEMORY_MMAP
            _ = system.control(fd, CV4L2_VIDIOC_REQBUFS, &request)
        }
        system.close(fd)
    }

    private func emptyBuffer() -> v4l2_buffer {
        var buffer = v4l2_buffer()
        buffer.type = CV4L2_BUF_TYPE_VIDEO_CAPTURE
        buffer.memory = CV4L2_MEMORY_MMAP
        return buffer
    }
}

/// A failed setup step: which request and the errno.
struct V4L2StreamError: Error {
    /// A setup request that can fail; its raw value is the ioctl's name, for messages.
    enum Request: String {
        case setFormat = "VIDIOC_S_FMT", getFormat = "VIDIOC_G_FMT", setParameters = "VIDIOC_S_PARM"
        case requestBuffers = "VIDIOC_REQBUFS", queryBuffer = "VIDIOC_QUERYBUF", queueBuffer = "VIDIOC_QBUF"
        case map = "mmap", streamOn = "VIDIOC_STREAMON"
    }

    var request: Request
    var errno: DeviceErrno

    init(_ request: Request, _ errno: DeviceErrno) {
        self.request = request
        self.errno = errno
    }
}
