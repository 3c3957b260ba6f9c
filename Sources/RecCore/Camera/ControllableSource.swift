/// A source with camera controls (a V4L2 camera). Like the rest of a source it is driven by the
/// capture thread alone: a running session reaches it through the recorder's `ControlMailbox`.
package protocol ControllableSource: AnyObject {
    /// Every control with its current value.
    func cameraControls() throws(RecError) -> [CameraControl]
    /// Checks `settings` against the controls, applies them auto controls first, and returns the
    /// controls it set as they now are. `hint` prefixes the advice in messages ("--control ").
    func applyControls(_ settings: [ControlSetting], hint: String) throws(RecError) -> [CameraControl]
}
