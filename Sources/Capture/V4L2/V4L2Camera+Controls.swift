import CV4L2
import Glibc
import RecCore
import VideoDevices

/// Camera controls (brightness, exposure, focus, white balance…) on the streaming descriptor.
/// `controlSettings` are applied at every open (so they survive an unplug and replug); a running
/// session changes them through `applyControls` on the capture thread between frames.
extension V4L2Camera: ControllableSource {
    /// Every control the driver offers, with current values. The camera must be started.
    package func cameraControls() throws(RecError) -> [CameraControl] {
        guard let stream else { throw RecError.runtime("\(path) is not started; call start() first") }
        return V4L2Controls(system: system, fd: stream.fd).list()
    }

    /// Checks `settings` against this camera (`ControlPlan`), applies them auto controls first,
    /// and remembers them for the next open. Returns the controls set, read back.
    package func applyControls(_ settings: [ControlSetting], hint: String) throws(RecError) -> [CameraControl] {
        guard let stream else { throw RecError.runtime("\(path) is not started; call start() first") }
        let done = try applyControls(settings, fd: stream.fd, target: stream.path, hint: hint)
        controlSettings = ControlSetting.merged(controlSettings, settings)
        return done
    }

    /// At open: the remembered settings, with "--control" advice.
    func applyControlSettings(fd: Int32, target: String) throws(RecError) {
        guard !controlSettings.isEmpty else { return }
        _ = try applyControls(controlSettings, fd: fd, target: target, hint: "--control ")
    }

    private func applyControls(_ settings: [ControlSetting], fd: Int32, target: String,
                               hint: String) throws(RecError) -> [CameraControl] {
        let io = V4L2Controls(system: system, fd: fd)
        let plan = try ControlPlan.resolve(settings, against: io.list(), camera: target, hint: hint)
        var done: [CameraControl] = []
        for step in plan {
            // Flags change as auto controls switch, so each control is asked afresh.
            var control = (try? io.query(step.control.id).get()) ?? step.control
            control.name = step.control.name
            if control.flags.contains(.inactive) {
                throw ControlPlan.inactiveError(control, controls: io.list(), hint: hint)
            }
            switch io.set(control.id, step.value) {
            case .success: break
            case .failure(let e): throw failure(e, control, step.value, io: io, target: target, hint: hint)
            }
            let value = (try? io.value(control.id).get()) ?? step.value
            control.value = value
            if value != step.value {
                notes.append("\(control.name): asked for \(control.describe(step.value)), the driver set \(control.describe(value))")
            }
            done.append(control)
        }
        return done
    }

    /// The user's error for a refused VIDIOC_S_CTRL.
    private func failure(_ e: DeviceErrno, _ control: CameraControl, _ value: Int64, io: V4L2Controls,
                         target: String, hint: String) -> RecError {
        switch e.rawValue {
        case EACCES, EPERM:
            // UVC refuses a manual value while its auto control is on.
            return ControlPlan.inactiveError(control, controls: io.list(), hint: hint)
        case EBUSY:
            return .runtime("\(target) cannot change \(control.name) while it streams; set it with --control when the recording starts",
                            cause: "VIDIOC_S_CTRL: \(e)", location: target)
        case ERANGE, EINVAL:
            return .usage("\(target) refused \(control.name)=\(control.describe(value)); it takes \(control.rangeText)"
                          + (control.menu.isEmpty ? "" : ": " + control.menu.map { "\($0.index) (\($0.name))" }.joined(separator: ", ")),
                          cause: "VIDIOC_S_CTRL: \(e)", location: target)
        case ENODEV:
            return CameraFault.unplugged(target)
        default:
            return CameraFault.device(target, "VIDIOC_S_CTRL (\(control.name))", e)
        }
    }
}
