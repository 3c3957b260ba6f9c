import Media
import RecCore

/// Who the capture thread tells of the pictures motion is judged on (`RecorderConfiguration.motion`):
/// asked first whether it wants a picture, so that a session pays for the pictures it judges
/// (5 a second) and nothing for the rest.
package protocol MotionFeed: Sendable {
    /// Whether the raw picture captured at `time` is wanted. Every packet of a copied camera is
    /// (the decoder needs them all).
    func wants(_ time: Timestamp) -> Bool
    /// A wanted picture, or a copied camera's packet, on the capture thread: returns at once.
    func take(_ frame: CapturedFrame)
    /// The source went away (an outage): the motion under way ends at its last picture.
    func sourceAway()
}
