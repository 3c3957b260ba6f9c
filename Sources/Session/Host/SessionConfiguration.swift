import RecCore

/// Everything a background session runs with, decided by `rec start`.
package struct SessionConfiguration: Sendable {
    package var name: String
    package var recorder: RecorderConfiguration
    package var ring: RingLimits
    /// A shell command run after each save with the clip's path as `$1` (and `REC_CLIP`).
    package var onSave: String?
    /// What SIGUSR1 saves: the last this much (`--usr1-last`).
    package var signalSpan = "30s"
    /// The absolute file name pattern (time fields such as `%Y`) SIGUSR1 clips are named from.
    package var signalClipPattern = "rec-%Y-%m-%d_%H-%M-%S.mp4"
    /// Send a desktop notification with the clip's path after each SIGUSR1 save.
    package var notifiesDesktop = false
    /// `--http`: serve the live page and its API there (docs/LIVE.md).
    package var live: LiveEndpoint?
    /// `--publish`: servers to send the encoded packets to, as they are made.
    package var publish: [PublishTarget] = []
    /// `--upload`: where finished files and saved clips are copied; `SessionProcess` opens the
    /// queue (`uploader`) once the session has its log. Without it, the first `rec save
    /// --upload` opens one.
    package var upload: UploadDestination?
    package var uploader: Uploader?
    /// Where the queue keeps its journal (`Uploader.journalPath`), and `--upload-limit`.
    package var uploadJournal: String?
    package var uploadLimit: String?
    /// `--motion`, `--on-motion save`: the motion detector and the clips it saves (docs/EVENTS.md).
    package var motion: MotionConfiguration?
    /// `--mqtt`: the broker the session publishes motion and saves to and takes saves from.
    package var mqtt: BrokerAddress?
    /// `--motion-source`: the camera's smaller stream, read for motion instead of the recorded one.
    package var motionSource: NetworkURL?

    package init(name: String, recorder: RecorderConfiguration, ring: RingLimits = .replay, onSave: String? = nil) {
        self.name = name
        self.recorder = recorder
        self.ring = ring
        self.onSave = onSave
    }
}
