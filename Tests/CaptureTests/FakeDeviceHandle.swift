import CV4L2
import Glibc
@testable import Capture
import RecCore
import VideoDevices

/// One open descriptor on the fake driver: the format, the buffer queue and the ioctls.
final class FakeHandle {
    struct Buffer {
        var memory: UnsafeMutableRawPointer
        var length: Int
        var bytesused = 0
        var flags: UInt32 = 0
        var sequence: UInt32 = 0
        var timestamp: Int64 = 0
    }

    let camera: FakeCamera?
    let caps: UInt32
    unowned let system: FakeV4L2System
    var fourcc: FourCC
    var size: FrameSize
    var bytesPerLine = 0
    var sizeImage = 0
    var interval = Rational(1, 30)
    var buffers: [Buffer] = []
    var queued: [Int] = []
    var done: [Int] = []
    var streaming = false
    var sequence: UInt32 = 0
    var nextFrameTime: Int64 = 0

    init(camera: FakeCamera?, caps: UInt32?, system: FakeV4L2System) {
        self.camera = camera
        self.caps = caps ?? (CV4L2_CAP_VIDEO_CAPTURE | CV4L2_CAP_STREAMING)
        self.system = system
        let first = camera?.profile.formats.first
        fourcc = first?.fourcc ?? .yuyv
        size = first.flatMap { ModeNegotiator.candidateSizes($0, near: nil).first } ?? FrameSize(width: 640, height: 480)
        setLayout()
    }

    var intervalMicroseconds: Int64 { Int64(interval.num) * 1_000_000 / Int64(interval.den) }
    private var format: CameraFormat? { camera?.profile.formats.first { $0.fourcc == fourcc } }

    func freeBuffers() {
        for buffer in buffers where system.mappings[buffer.memory] == nil { buffer.memory.deallocate() }
        buffers = []
        queued = []
        done = []
    }

    func ioctl(_ fd: Int32, _ request: UInt, _ argument: UnsafeMutableRawPointer) -> Result<Void, DeviceErrno> {
        if let camera, !camera.present { return .failure(.noDevice) }
        switch request {
        case CV4L2_VIDIOC_QUERYCAP: return querycap(argument.assumingMemoryBound(to: v4l2_capability.self))
        case CV4L2_VIDIOC_ENUM_FMT: return enumFormat(argument.assumingMemoryBound(to: v4l2_fmtdesc.self))
        case CV4L2_VIDIOC_ENUM_FRAMESIZES: return enumSizes(argument.assumingMemoryBound(to: v4l2_frmsizeenum.self))
        case CV4L2_VIDIOC_ENUM_FRAMEINTERVALS: return enumIntervals(argument.assumingMemoryBound(to: v4l2_frmivalenum.self))
        case CV4L2_VIDIOC_G_FMT: return getFormat(argument.assumingMemoryBound(to: v4l2_format.self))
        case CV4L2_VIDIOC_S_FMT: return setFormat(fd, argument.assumingMemoryBound(to: v4l2_format.self))
        case CV4L2_VIDIOC_G_PARM, CV4L2_VIDIOC_S_PARM:
            return parm(request == CV4L2_VIDIOC_S_PARM, argument.assumingMemoryBound(to: v4l2_streamparm.self))
        case CV4L2_VIDIOC_REQBUFS: return requestBuffers(argument.assumingMemoryBound(to: v4l2_requestbuffers.self))
        case CV4L2_VIDIOC_QUERYBUF: return queryBuffer(argument.assumingMemoryBound(to: v4l2_buffer.self))
        case CV4L2_VIDIOC_QBUF: return queue(argument.assumingMemoryBound(to: v4l2_buffer.self))
        case CV4L2_VIDIOC_DQBUF: return dequeue(argument.assumingMemoryBound(to: v4l2_buffer.self))
        case CV4L2_VIDIOC_STREAMON: return streamOn(fd)
        case CV4L2_VIDIOC_STREAMOFF: return streamOff(fd)
        default: return controlIoctl(request, argument)
        }
    }

    private func querycap(_ cap: UnsafeMutablePointer<v4l2_capability>) -> Result<Void, DeviceErrno> {
        cap.pointee = v4l2_capability()
        setCString(&cap.pointee.driver, camera?.profile.driver ?? "uvcvideo")
        setCString(&cap.pointee.card, camera?.profile.card ?? "Metadata")
        setCString(&cap.pointee.bus_info, camera?.profile.busInfo ?? "usb-0000:00:14.0-1")
        cap.pointee.capabilities = CV4L2_CAP_VIDEO_CAPTURE | CV4L2_CAP_META_CAPTURE | CV4L2_CAP_STREAMING | CV4L2_CAP_DEVICE_CAPS
        cap.pointee.device_caps = caps
        return .success(())
    }

    private func enumFormat(_ desc: UnsafeMutablePointer<v4l2_fmtdesc>) -> Result<Void, DeviceErrno> {
        let native = camera?.profile.formats ?? []
        let formats = native + (camera?.profile.emulated ?? [])
        guard desc.pointee.type == CV4L2_BUF_TYPE_VIDEO_CAPTURE, Int(desc.pointee.index) < formats.count else { return .failure(.invalid) }
        let format = formats[Int(desc.pointee.index)]
        desc.pointee.pixelformat = format.fourcc.rawValue
        desc.pointee.flags = (format.isCompressed ? CV4L2_FMT_FLAG_COMPRESSED : 0)
            | (Int(desc.pointee.index) >= native.count ? CV4L2_FMT_FLAG_EMULATED : 0)
        setCString(&desc.pointee.description, format.name)
        return .success(())
    }

    private func enumSizes(_ e: UnsafeMutablePointer<v4l2_frmsizeenum>) -> Result<Void, DeviceErrno> {
        guard let format = camera?.profile.formats.first(where: { $0.fourcc.rawValue == e.pointee.pixel_format }) else { return .failure(.invalid) }
        let index = Int(e.pointee.index)
        switch format.sizes {
        case .discrete(let modes):
            guard index < modes.count else { return .failure(.invalid) }
            e.pointee.type = CV4L2_FRMSIZE_TYPE_DISCRETE
            e.pointee.discrete = v4l2_frmsize_discrete(width: UInt32(modes[index].size.width), height: UInt32(modes[index].size.height))
        case .stepwise(let min, let max, let step, _):
            guard index == 0 else { return .failure(.invalid) }
            e.pointee.type = step == FrameSize(width: 1, height: 1) ? CV4L2_FRMSIZE_TYPE_CONTINUOUS : CV4L2_FRMSIZE_TYPE_STEPWISE
            e.pointee.stepwise = v4l2_frmsize_stepwise(
                min_width: UInt32(min.width), max_width: UInt32(max.width), step_width: UInt32(step.width),
                min_height: UInt32(min.height), max_height: UInt32(max.height), step_height: UInt32(step.height))
        }
        return .success(())
    }

    private func enumIntervals(_ e: UnsafeMutablePointer<v4l2_frmivalenum>) -> Result<Void, DeviceErrno> {
        guard let format = camera?.profile.formats.first(where: { $0.fourcc.rawValue == e.pointee.pixel_format }),
              let intervals = ModeNegotiator.intervals(of: format, at: FrameSize(width: Int(e.pointee.width), height: Int(e.pointee.height)))
        else { return .failure(.invalid) }
        let index = Int(e.pointee.index)
        switch intervals {
        case .discrete(let list):
            guard index < list.count else { return .failure(.invalid) }
            e.pointee.type = CV4L2_FRMIVAL_TYPE_DISCRETE
            e.pointee.discrete = fract(list[index])
        case .stepwise(let min, let max, let step):
            guard index == 0 else { return .failure(.invalid) }
            e.pointee.type = step == nil ? CV4L2_FRMIVAL_TYPE_CONTINUOUS : CV4L2_FRMIVAL_TYPE_STEPWISE
            e.pointee.stepwise = v4l2_frmival_stepwise(min: fract(min), max: fract(max), step: fract(step ?? Rational(1, 1_000_000)))
        }
        return .success(())
    }

    private func getFormat(_ f: UnsafeMutablePointer<v4l2_format>) -> Result<Void, DeviceErrno> {
        guard f.pointee.type == CV4L2_BUF_TYPE_VIDEO_CAPTURE else { return .failure(.invalid) }
        f.pointee.fmt.pix.width = UInt32(size.width)
        f.pointee.fmt.pix.height = UInt32(size.height)
        f.pointee.fmt.pix.pixelformat = fourcc.rawValue
        f.pointee.fmt.pix.field = CV4L2_FIELD_NONE
        f.pointee.fmt.pix.bytesperline = UInt32(bytesPerLine)
        f.pointee.fmt.pix.sizeimage = UInt32(sizeImage)
        return .success(())
    }

    /// Like a driver: an unknown format becomes the first one, a size becomes the nearest offered.
    private func setFormat(_ fd: Int32, _ f: UnsafeMutablePointer<v4l2_format>) -> Result<Void, DeviceErrno> {
        system.calls.append("S_FMT")
        if let owner = camera?.streamingHandle, owner != fd { return .failure(.busy) }
        guard !streaming, buffers.isEmpty else { return .failure(.busy) }
        let formats = camera?.profile.formats ?? []
        let chosen = formats.first { $0.fourcc.rawValue == f.pointee.fmt.pix.pixelformat } ?? formats[0]
        let wanted = FrameSize(width: Int(f.pointee.fmt.pix.width), height: Int(f.pointee.fmt.pix.height))
        fourcc = chosen.fourcc
        size = ModeNegotiator.candidateSizes(chosen, near: wanted).min {
            abs($0.width - wanted.width) + abs($0.height - wanted.height) < abs($1.width - wanted.width) + abs($1.height - wanted.height)
        }!
        size = system.faults.forcedSize ?? size
        setLayout()
        return getFormat(f)
    }

    private func setLayout() {
        let padding = camera?.profile.linePadding ?? 0
        switch fourcc {
        case .yuyv: bytesPerLine = size.width * 2 + padding; sizeImage = bytesPerLine * size.height
        case .nv12: bytesPerLine = size.width + padding; sizeImage = bytesPerLine * size.height * 3 / 2
        default: bytesPerLine = 0; sizeImage = size.width * size.height * 2
        }
    }

    private func parm(_ set: Bool, _ p: UnsafeMutablePointer<v4l2_streamparm>) -> Result<Void, DeviceErrno> {
        guard p.pointee.type == CV4L2_BUF_TYPE_VIDEO_CAPTURE else { return .failure(.invalid) }
        if set, let error = system.faults.setParmError { return .failure(error) }
        if set, let format, let offered = ModeNegotiator.intervals(of: format, at: size),
           let wanted = rational(p.pointee.parm.capture.timeperframe) {
            switch offered {
            case .discrete(let list):
                interval = list.min { abs($0.doubleValue - wanted.doubleValue) < abs($1.doubleValue - wanted.doubleValue) } ?? interval
            case .stepwise(let min, let max, _):
                interval = wanted.doubleValue < min.doubleValue ? min : wanted.doubleValue > max.doubleValue ? max : wanted
            }
        }
        if set, let forced = system.faults.forcedInterval { interval = forced }
        p.pointee.parm.capture.capability = system.faults.noFrameRateControl ? 0 : CV4L2_CAP_TIMEPERFRAME
        p.pointee.parm.capture.timeperframe = fract(interval)
        return .success(())
    }

    private func requestBuffers(_ r: UnsafeMutablePointer<v4l2_requestbuffers>) -> Result<Void, DeviceErrno> {
        guard r.pointee.memory == CV4L2_MEMORY_MMAP else { return .failure(.invalid) }
        guard !streaming else { return .failure(.busy) }
        guard system.mappings.keys.allSatisfy({ key in !buffers.contains { $0.memory == key } }) else { return .failure(.busy) }
        freeBuffers()
        let count = r.pointee.count == 0 ? 0 : min(max(Int(r.pointee.count), 2), 8)
        buffers = (0..<count).map { _ in
            Buffer(memory: UnsafeMutableRawPointer.allocate(byteCount: sizeImage, alignment: 4096), length: sizeImage)
        }
        r.pointee.count = UInt32(count)
        return .success(())
    }

    private func queryBuffer(_ b: UnsafeMutablePointer<v4l2_buffer>) -> Result<Void, DeviceErrno> {
        let index = Int(b.pointee.index)
        guard buffers.indices.contains(index) else { return .failure(.invalid) }
        b.pointee.length = UInt32(buffers[index].length)
        b.pointee.m.offset = UInt32(index * 4096)
        return .success(())
    }

    private func queue(_ b: UnsafeMutablePointer<v4l2_buffer>) -> Result<Void, DeviceErrno> {
        let index = Int(b.pointee.index)
        guard buffers.indices.contains(index), !queued.contains(index), !done.contains(index) else { return .failure(.invalid) }
        queued.append(index)
        return .success(())
    }

    private func dequeue(_ b: UnsafeMutablePointer<v4l2_buffer>) -> Result<Void, DeviceErrno> {
        if system.faults.interruptions > 0 {
            system.faults.interruptions -= 1
            return .failure(.interrupted)
        }
        guard streaming else { return .failure(.invalid) }
        guard !done.isEmpty else { return .failure(.again) }
        let index = done.removeFirst()
        let buffer = buffers[index]
        b.pointee.index = UInt32(index)
        b.pointee.bytesused = UInt32(buffer.bytesused)
        b.pointee.flags = buffer.flags
        b.pointee.sequence = buffer.sequence
        b.pointee.field = CV4L2_FIELD_NONE
        b.pointee.timestamp = timeval(tv_sec: Int(buffer.timestamp / 1_000_000), tv_usec: Int(buffer.timestamp % 1_000_000))
        b.pointee.length = UInt32(buffer.length)
        return .success(())
    }

    private func streamOn(_ fd: Int32) -> Result<Void, DeviceErrno> {
        guard !buffers.isEmpty else { return .failure(.invalid) }
        if let owner = camera?.streamingHandle, owner != fd { return .failure(.busy) }
        camera?.streamingHandle = fd
        system.calls.append("STREAMON")
        streaming = true
        sequence = 0
        nextFrameTime = system.clock + intervalMicroseconds
        return .success(())
    }

    private func streamOff(_ fd: Int32) -> Result<Void, DeviceErrno> {
        system.calls.append("STREAMOFF")
        streaming = false
        queued = []
        done = []
        if camera?.streamingHandle == fd { camera?.streamingHandle = nil }
        return .success(())
    }

    /// Fills the oldest queued buffer with frame `number` and marks it done.
    func produce(number: Int) {
        let index = queued.removeFirst()
        var buffer = buffers[index]
        buffer.sequence = sequence
        sequence &+= 1 + (system.faults.sequenceSkips[number] ?? 0)
        buffer.timestamp = system.faults.unknownTimestamps ? 0 : system.clock
        buffer.flags = (system.faults.unknownTimestamps ? 0 : CV4L2_BUF_FLAG_TIMESTAMP_MONOTONIC)
            | (system.faults.errorFrames.contains(number) ? CV4L2_BUF_FLAG_ERROR : 0) | CV4L2_BUF_FLAG_DONE
        if fourcc.isJPEG {
            let jpeg = TestJPEG.numbered(system.jpeg(for: size), number)
            buffer.bytesused = min(system.faults.truncatedJPEGs.contains(number) ? 64 : jpeg.count, buffer.length)
            jpeg.withUnsafeBytes { buffer.memory.copyMemory(from: $0.baseAddress!, byteCount: buffer.bytesused) }
        } else {
            buffer.bytesused = sizeImage
            let bytes = buffer.memory.assumingMemoryBound(to: UInt8.self)
            bytes.initialize(repeating: 0xEE, count: sizeImage)
            let rows = sizeImage / bytesPerLine
            let rowBytes = fourcc == .yuyv ? size.width * 2 : size.width
            for row in 0..<rows { (bytes + row * bytesPerLine).initialize(repeating: UInt8(row % 251), count: rowBytes) }
            withUnsafeBytes(of: UInt64(number).littleEndian) { buffer.memory.copyMemory(from: $0.baseAddress!, byteCount: 8) }
        }
        buffers[index] = buffer
        done.append(index)
    }
}

func fract(_ r: Rational) -> v4l2_fract { v4l2_fract(numerator: UInt32(r.num), denominator: UInt32(r.den)) }

func setCString<T>(_ field: inout T, _ text: String) {
    withUnsafeMutableBytes(of: &field) { raw in
        raw.initializeMemory(as: UInt8.self, repeating: 0)
        for (i, byte) in text.utf8.prefix(raw.count - 1).enumerated() { raw[i] = byte }
    }
}
