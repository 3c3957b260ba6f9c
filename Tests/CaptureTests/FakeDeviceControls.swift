import CV4L2
import Glibc
@testable import Capture
import RecCore
import VideoDevices

/// One control in the fake driver's table, with a UVC driver's rules: a manual control is
/// V4L2_CTRL_FLAG_INACTIVE while its auto control is on, and setting it then fails with EACCES;
/// a read-only control refuses every set; values outside the range fail with ERANGE.
struct FakeControl {
    var id: UInt32
    var label: String
    var type: UInt32
    var minimum: Int64 = 0
    var maximum: Int64 = 1
    var step: UInt64 = 1
    var defaultValue: Int64 = 0
    var value: Int64 = 0
    var readOnly = false
    /// Menu entries by index (gaps allowed, as UVC's exposure menu has).
    var menu: [Int64: String] = [:]
    /// Active only while the control with this id has this value.
    var activeWhen: (id: UInt32, value: Int64)?

    static func integer(_ id: UInt32, _ label: String, _ range: ClosedRange<Int64>, step: UInt64 = 1, default d: Int64,
                        activeWhen: (UInt32, Int64)? = nil) -> FakeControl {
        FakeControl(id: id, label: label, type: CV4L2_CTRL_TYPE_INTEGER, minimum: range.lowerBound, maximum: range.upperBound,
                    step: step, defaultValue: d, value: d, activeWhen: activeWhen.map { (id: $0.0, value: $0.1) })
    }

    static func boolean(_ id: UInt32, _ label: String, default d: Bool, readOnly: Bool = false) -> FakeControl {
        FakeControl(id: id, label: label, type: CV4L2_CTRL_TYPE_BOOLEAN, defaultValue: d ? 1 : 0, value: d ? 1 : 0, readOnly: readOnly)
    }

    static func menu(_ id: UInt32, _ label: String, _ entries: [Int64: String], default d: Int64) -> FakeControl {
        FakeControl(id: id, label: label, type: CV4L2_CTRL_TYPE_MENU, minimum: entries.keys.min()!, maximum: entries.keys.max()!,
                    defaultValue: d, value: d, menu: entries)
    }
}

extension FakeControl {
    // Ids as in videodev2.h (V4L2_CID_*), so the table looks like a real UVC camera's.
    static let autoExposure: UInt32 = 0x009a_0901, exposureAbsolute: UInt32 = 0x009a_0902
    static let focusAbsolute: UInt32 = 0x009a_090a, focusAuto: UInt32 = 0x009a_090c
    static let autoWhiteBalance: UInt32 = 0x0098_090c, whiteBalanceTemperature: UInt32 = 0x0098_091a

    /// A C920-like control table: integers, booleans, menus (one with gaps), two auto/manual
    /// pairs, a read-only control and a class heading, in id order.
    static let webcamTable: [FakeControl] = [
        .integer(0x0098_0900, "Brightness", 0...255, default: 128),
        .integer(0x0098_0901, "Contrast", 0...255, default: 128),
        .boolean(autoWhiteBalance, "White Balance, Automatic", default: true),
        .menu(0x0098_0918, "Power Line Frequency", [0: "Disabled", 1: "50 Hz", 2: "60 Hz"], default: 2),
        .integer(whiteBalanceTemperature, "White Balance Temperature", 2000...6500, step: 10, default: 4000,
                 activeWhen: (autoWhiteBalance, 0)),
        FakeControl(id: 0x009a_0001, label: "Camera Controls", type: CV4L2_CTRL_TYPE_CTRL_CLASS),
        .menu(autoExposure, "Auto Exposure", [1: "Manual Mode", 3: "Aperture Priority Mode"], default: 3),
        .integer(exposureAbsolute, "Exposure Time, Absolute", 3...2047, default: 250, activeWhen: (autoExposure, 1)),
        .integer(focusAbsolute, "Focus, Absolute", 0...250, step: 5, default: 0, activeWhen: (focusAuto, 0)),
        .boolean(focusAuto, "Focus, Automatic Continuous", default: true),
        .boolean(0x009a_0910, "Privacy", default: false, readOnly: true),
    ]
}

extension FakeProfile {
    /// The USB webcam with the control table.
    static let webcamWithControls: FakeProfile = {
        var p = FakeProfile.usbWebcam
        p.controls = FakeControl.webcamTable
        return p
    }()
}

extension FakeHandle {
    /// VIDIOC_QUERY_EXT_CTRL (with V4L2_CTRL_FLAG_NEXT_CTRL), VIDIOC_QUERYMENU, VIDIOC_G_CTRL and
    /// VIDIOC_S_CTRL on the camera's table; ENOTTY for anything else.
    func controlIoctl(_ request: UInt, _ argument: UnsafeMutableRawPointer) -> Result<Void, DeviceErrno> {
        guard let camera else { return .failure(DeviceErrno(ENOTTY)) }
        switch request {
        case CV4L2_VIDIOC_QUERY_EXT_CTRL:
            let q = argument.assumingMemoryBound(to: v4l2_query_ext_ctrl.self)
            let wanted = q.pointee.id
            let next = wanted & CV4L2_CTRL_FLAG_NEXT_CTRL != 0
            let base = wanted & ~CV4L2_CTRL_FLAG_NEXT_CTRL
            guard let c = camera.controls.filter({ next ? $0.id > base : $0.id == base }).min(by: { $0.id < $1.id }) else {
                return .failure(.invalid)
            }
            q.pointee = v4l2_query_ext_ctrl()
            q.pointee.id = c.id
            q.pointee.type = c.type
            setCString(&q.pointee.name, c.label)
            (q.pointee.minimum, q.pointee.maximum, q.pointee.step, q.pointee.default_value) = (c.minimum, c.maximum, c.step, c.defaultValue)
            q.pointee.flags = (c.readOnly ? CV4L2_CTRL_FLAG_READ_ONLY : 0) | (isActive(c, camera) ? 0 : CV4L2_CTRL_FLAG_INACTIVE)
            return .success(())
        case CV4L2_VIDIOC_QUERYMENU:
            let m = argument.assumingMemoryBound(to: v4l2_querymenu.self)
            guard let c = camera.controls.first(where: { $0.id == m.pointee.id }), let name = c.menu[Int64(m.pointee.index)] else {
                return .failure(.invalid)
            }
            let buffer = cv4l2_querymenu_name_buffer(m)!
            for (i, byte) in name.utf8.prefix(31).enumerated() { buffer[i] = CChar(bitPattern: byte) }
            buffer[min(name.utf8.count, 31)] = 0
            return .success(())
        case CV4L2_VIDIOC_G_CTRL, CV4L2_VIDIOC_S_CTRL:
            let v = argument.assumingMemoryBound(to: v4l2_control.self)
            guard let i = camera.controls.firstIndex(where: { $0.id == v.pointee.id && $0.type != CV4L2_CTRL_TYPE_CTRL_CLASS }) else {
                return .failure(.invalid)
            }
            let c = camera.controls[i]
            guard request == CV4L2_VIDIOC_S_CTRL else {
                v.pointee.value = Int32(c.value)
                return .success(())
            }
            let value = Int64(v.pointee.value)
            system.calls.append("S_CTRL \(CameraControl.variableName(c.label))=\(value)")
            if c.readOnly || !isActive(c, camera) { return .failure(.accessDenied) }
            guard value >= c.minimum, value <= c.maximum, c.type != CV4L2_CTRL_TYPE_MENU || c.menu[value] != nil else {
                return .failure(DeviceErrno(ERANGE))
            }
            camera.controls[i].value = value
            return .success(())
        default:
            return .failure(DeviceErrno(ENOTTY))
        }
    }

    private func isActive(_ c: FakeControl, _ camera: FakeCamera) -> Bool {
        guard let rule = c.activeWhen else { return true }
        return camera.controls.first { $0.id == rule.id }?.value == rule.value
    }
}
