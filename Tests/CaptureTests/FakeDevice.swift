import CV4L2
import Glibc
@testable import Capture
import RecCore
import VideoDevices

/// Faults a test scripts into the fake driver.
struct FakeFaults {
    /// open(2) fails with this (EBUSY, EACCES).
    var openError: DeviceErrno?
    /// What /proc would say holds the device.
    var holders: [String] = []
    /// After producing frame n (counting from 0), the driver skips this many sequence numbers.
    var sequenceSkips: [Int: UInt32] = [:]
    /// Frames (by production count) the driver marks V4L2_BUF_FLAG_ERROR.
    var errorFrames: Set<Int> = []
    /// Frames (by production count) whose JPEG is cut short to its first 64 bytes, as when USB loses packets.
    var truncatedJPEGs: Set<Int> = []
    /// The next this-many DQBUF calls and poll calls fail with EINTR first.
    var interruptions = 0
    /// The camera is unplugged once this many frames were produced.
    var unplugAfterFrames: Int?
    /// It comes back this long after the unplug (nil: never), as this node.
    var reappearAfterMicroseconds: Int64?
    var reappearAs: String?
    /// Opens of the reappeared node that fail with EACCES first, before udev fixes its permissions.
    var deniedOpensAfterReappear = 0
    /// No frames after this many were produced (the watchdog's case).
    var stallAfterFrames: Int?
    /// S_FMT and S_PARM settle on these whatever was asked, as a stubborn driver does.
    var forcedSize: FrameSize?
    var forcedInterval: Rational?
    /// G_PARM without V4L2_CAP_TIMEPERFRAME (fixed-rate cameras), or S_PARM failing with this.
    var noFrameRateControl = false
    var setParmError: DeviceErrno?
    /// Timestamps flagged unknown (not CLOCK_MONOTONIC), as some drivers do.
    var unknownTimestamps = false
}

/// One fake camera: the hardware behind a node.
final class FakeCamera {
    let profile: FakeProfile
    var node: String
    var stableLink: String?
    var present = true
    var goneAt: Int64 = 0
    var produced = 0
    var streamingHandle: Int32?
    /// The controls' current values live with the hardware, shared by every descriptor.
    var controls: [FakeControl]

    init(_ profile: FakeProfile, node: String, stableLink: String?) {
        self.profile = profile
        self.controls = profile.controls
        self.node = node
        self.stableLink = stableLink
    }
}

/// A fake V4L2 driver behind the seam: enumerates formats, adjusts modes like drivers do, keeps a
/// buffer queue with sequence numbers and jittered monotonic timestamps, and plays scripted faults.
/// Its clock only moves when the camera waits (poll timeouts, frames, sleep), so tests never wait.
final class FakeV4L2System: VideoDeviceSystem {
    var cameras: [FakeCamera]
    /// Nodes that are not capture devices (a UVC camera's metadata node), with their capabilities.
    var otherNodes: [String: UInt32] = [:]
    var faults: FakeFaults
    /// CLOCK_MONOTONIC in microseconds.
    var clock: Int64 = 5_000_000_000
    var handles: [Int32: FakeHandle] = [:]
    var mappings: [UnsafeMutableRawPointer: Int] = [:]
    var calls: [String] = []
    /// Called in each wait for an unplugged camera, after the fake clock moved.
    var onAwaitDevices: ((Latch) -> Void)?
    var jpegs: [FrameSize: [UInt8]] = [:]
    private var nextFD: Int32 = 10
    private var jitterState: UInt32 = 12345

    init(_ cameras: [(FakeProfile, String, String?)], faults: FakeFaults = FakeFaults()) {
        self.cameras = cameras.map { FakeCamera($0.0, node: $0.1, stableLink: $0.2) }
        self.faults = faults
    }

    /// One USB webcam at /dev/video0 with a by-id link, plus its metadata node /dev/video1.
    static func webcam(_ profile: FakeProfile = .usbWebcam, faults: FakeFaults = FakeFaults()) -> FakeV4L2System {
        let system = FakeV4L2System([(profile, "/dev/video0", "/dev/v4l/by-id/usb-Fake_\(profile.card.replacingOccurrences(of: " ", with: "_"))-video-index0")],
                                    faults: faults)
        system.otherNodes["/dev/video1"] = CV4L2_CAP_META_CAPTURE | CV4L2_CAP_STREAMING
        return system
    }

    deinit {
        for handle in handles.values { handle.freeBuffers() }
    }

    var openDescriptors: Int { handles.count }

    func open(_ path: String, flags: Int32) -> Result<Int32, DeviceErrno> {
        calls.append("open \(path)")
        checkReappearance()
        if let error = faults.openError { return .failure(error) }
        let camera = cameras.first { $0.present && ($0.node == path || $0.stableLink == path) }
        if camera?.goneAt ?? 0 > 0, faults.deniedOpensAfterReappear > 0 {
            faults.deniedOpensAfterReappear -= 1
            return .failure(.accessDenied)
        }
        guard camera != nil || otherNodes[path] != nil else { return .failure(.noEntry) }
        nextFD += 1
        handles[nextFD] = FakeHandle(camera: camera, caps: otherNodes[path], system: self)
        return .success(nextFD)
    }

    func close(_ fd: Int32) {
        calls.append("close")
        guard let handle = handles.removeValue(forKey: fd) else { return calls.append("close of unknown fd \(fd)") }
        if handle.camera?.streamingHandle == fd { handle.camera?.streamingHandle = nil }
        if handle.streaming, handle.camera?.present == true { calls.append("close while streaming") }
        if handle.buffers.contains(where: { mappings[$0.memory] != nil }) { calls.append("close while mapped") }
        handle.freeBuffers()
    }

    func ioctl(_ fd: Int32, _ request: UInt, _ argument: UnsafeMutableRawPointer) -> Result<Void, DeviceErrno> {
        guard let handle = handles[fd] else { return .failure(DeviceErrno(EBADF)) }
        return handle.ioctl(fd, request, argument)
    }

    func mmap(_ fd: Int32, length: Int, offset: Int64) -> Result<UnsafeMutableRawPointer, DeviceErrno> {
        guard let handle = handles[fd], let index = Int(exactly: offset / 4096), handle.buffers.indices.contains(index),
              handle.buffers[index].length == length else { return .failure(.invalid) }
        let address = handle.buffers[index].memory
        mappings[address] = length
        return .success(address)
    }

    func munmap(_ address: UnsafeMutableRawPointer, length: Int) {
        if mappings.removeValue(forKey: address) != length { calls.append("bad munmap") }
    }

    func poll(_ fd: Int32, events: Int16, timeoutMilliseconds: Int32) -> Result<Int16, DeviceErrno> {
        if faults.interruptions > 0 {
            faults.interruptions -= 1
            return .failure(.interrupted)
        }
        guard let handle = handles[fd], let camera = handle.camera else { return .failure(DeviceErrno(EBADF)) }
        guard camera.present else { return .success(Int16(POLLERR)) }
        if !handle.done.isEmpty { return .success(Int16(POLLIN)) }
        if handle.streaming, !handle.queued.isEmpty, faults.stallAfterFrames.map({ camera.produced < $0 }) ?? true {
            if faults.unplugAfterFrames == camera.produced {
                unplug(camera)
                return .success(Int16(POLLERR))
            }
            clock = max(clock, handle.nextFrameTime)
            handle.produce(number: camera.produced)
            camera.produced += 1
            handle.nextFrameTime = clock + handle.intervalMicroseconds + jitter()
            return .success(Int16(POLLIN))
        }
        clock += Int64(timeoutMilliseconds) * 1_000
        return .success(0)
    }

    func videoDeviceNodes() -> [String] {
        checkReappearance()
        let nodes = cameras.filter(\.present).map(\.node)
        return (nodes + otherNodes.keys.filter { !nodes.contains($0) }).sorted { $0.count == $1.count ? $0 < $1 : $0.count < $1.count }
    }

    func stableLinks() -> [(link: String, target: String)] {
        checkReappearance()
        return cameras.filter(\.present).compactMap { camera in camera.stableLink.map { ($0, camera.node) } }
    }

    func processesHolding(_ path: String) -> [String] { faults.holders }
    func monotonicMicroseconds() -> Int64 { clock }
    /// Time passes on the fake clock only; `onAwaitDevices` sees the wait (a test may block in it).
    func awaitDevices(milliseconds: Int, stop: Latch) {
        clock += Int64(milliseconds) * 1_000
        onAwaitDevices?(stop)
    }

    func unplug(_ camera: FakeCamera) {
        camera.present = false
        camera.goneAt = clock
        calls.append("unplug")
    }

    private func checkReappearance() {
        for camera in cameras where !camera.present {
            guard let after = faults.reappearAfterMicroseconds, clock >= camera.goneAt + after else { continue }
            camera.present = true
            camera.produced = 0
            faults.unplugAfterFrames = nil
            if let node = faults.reappearAs { camera.node = node }
        }
    }

    /// ±0.5 ms, deterministic.
    private func jitter() -> Int64 {
        jitterState = jitterState &* 1_103_515_245 &+ 12345
        return Int64((jitterState >> 16) % 1001) - 500
    }

    /// The webcam's JPEG for a size, made once.
    func jpeg(for size: FrameSize) -> [UInt8] {
        if let cached = jpegs[size] { return cached }
        let made = TestJPEG.make(width: size.width, height: size.height, luma: 200)
        jpegs[size] = made
        return made
    }
}
