import CV4L2
import Glibc
import RecCore
import VideoDevices

/// The control ioctls on one open node, as v4l2-ctl and OBS's linux-v4l2 use them:
/// `VIDIOC_QUERY_EXT_CTRL` walked with `V4L2_CTRL_FLAG_NEXT_CTRL`, `VIDIOC_QUERYMENU` for each menu
/// index, `VIDIOC_G_CTRL` / `VIDIOC_S_CTRL` for values.
struct V4L2Controls {
    let system: any VideoDeviceSystem
    let fd: Int32

    /// Every control the driver enumerates with its current value, in the driver's order;
    /// class headings and disabled controls are left out. Empty when the driver has none.
    func list() -> [CameraControl] {
        var result: [CameraControl] = []
        var id = CV4L2_CTRL_FLAG_NEXT_CTRL
        for _ in 0..<1024 {
            var q = v4l2_query_ext_ctrl()
            q.id = id
            guard case .success = system.control(fd, CV4L2_VIDIOC_QUERY_EXT_CTRL, &q) else { break }
            id = q.id | CV4L2_CTRL_FLAG_NEXT_CTRL
            if q.type == CV4L2_CTRL_TYPE_CTRL_CLASS || q.flags & CV4L2_CTRL_FLAG_DISABLED != 0 { continue }
            result.append(describe(q))
        }
        return result
    }

    /// One control described afresh (its flags change when an auto control is switched).
    func query(_ id: UInt32) -> Result<CameraControl, DeviceErrno> {
        var q = v4l2_query_ext_ctrl()
        q.id = id
        return system.control(fd, CV4L2_VIDIOC_QUERY_EXT_CTRL, &q).map { describe(q) }
    }

    /// `VIDIOC_G_CTRL`.
    func value(_ id: UInt32) -> Result<Int64, DeviceErrno> {
        var c = v4l2_control(id: id, value: 0)
        return system.control(fd, CV4L2_VIDIOC_G_CTRL, &c).map { Int64(c.value) }
    }

    /// `VIDIOC_S_CTRL`; returns what the driver kept (it may round to its step).
    func set(_ id: UInt32, _ value: Int64) -> Result<Int64, DeviceErrno> {
        var c = v4l2_control(id: id, value: Int32(clamping: value))
        return system.control(fd, CV4L2_VIDIOC_S_CTRL, &c).map { Int64(c.value) }
    }

    private func describe(_ q: v4l2_query_ext_ctrl) -> CameraControl {
        let kind: CameraControl.Kind = switch q.type {
        case CV4L2_CTRL_TYPE_INTEGER: .integer
        case CV4L2_CTRL_TYPE_BOOLEAN: .boolean
        case CV4L2_CTRL_TYPE_MENU: .menu
        case CV4L2_CTRL_TYPE_INTEGER_MENU: .integerMenu
        case CV4L2_CTRL_TYPE_BUTTON: .button
        case CV4L2_CTRL_TYPE_INTEGER64: .integer64
        case CV4L2_CTRL_TYPE_STRING: .string
        case CV4L2_CTRL_TYPE_BITMASK: .bitmask
        default: .other
        }
        var flags: CameraControl.Flags = []
        if q.flags & CV4L2_CTRL_FLAG_READ_ONLY != 0 { flags.insert(.readOnly) }
        if q.flags & CV4L2_CTRL_FLAG_INACTIVE != 0 { flags.insert(.inactive) }
        if q.flags & CV4L2_CTRL_FLAG_GRABBED != 0 { flags.insert(.grabbed) }
        if q.flags & CV4L2_CTRL_FLAG_WRITE_ONLY != 0 { flags.insert(.writeOnly) }
        if q.flags & CV4L2_CTRL_FLAG_VOLATILE != 0 { flags.insert(.volatile) }
        var control = CameraControl(id: q.id, label: cString(q.name), kind: kind, minimum: q.minimum, maximum: q.maximum,
                                    step: Int64(clamping: q.step), defaultValue: q.default_value, flags: flags)
        if kind == .menu || kind == .integerMenu { control.menu = menu(q, integers: kind == .integerMenu) }
        if kind.isSettable, !flags.contains(.writeOnly), case .success(let v) = value(q.id) { control.value = v }
        return control
    }

    /// `VIDIOC_QUERYMENU` for each index from minimum to maximum; indices the driver skips
    /// (EINVAL) are gaps, as on UVC's exposure menu.
    private func menu(_ q: v4l2_query_ext_ctrl, integers: Bool) -> [CameraControl.MenuItem] {
        guard q.minimum >= 0, q.maximum >= q.minimum, q.maximum - q.minimum < 256 else { return [] }
        var items: [CameraControl.MenuItem] = []
        for index in q.minimum...q.maximum {
            var m = v4l2_querymenu()
            m.id = q.id
            m.index = UInt32(index)
            guard case .success = system.control(fd, CV4L2_VIDIOC_QUERYMENU, &m) else { continue }
            let name = integers ? "\(cv4l2_querymenu_value(&m))" : String(cString: cv4l2_querymenu_name(&m))
            items.append(CameraControl.MenuItem(index: index, name: name))
        }
        return items
    }
}
