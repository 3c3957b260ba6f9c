import RecCore

/// Everything a background session runs with, decided by `rec start`.
public struct SessionConfiguration: Sendable {
    public var name: String
    public var recorder: RecorderConfiguration
    public var ring: RingLimits
    /// A shell command run after each save with the clip's path as `$1` (and `REC_CLIP`).
    public var onSave: String?
    /// What SIGUSR1 saves: the last this much (`--usr1-last`).
    public var signalSpan = "30s"
    /// The absolute file name pattern (time fields such as `%Y`) SIGUSR1 clips are named from.
    public var signalClipPattern = "rec-%Y-%m-%d_%H-%M-%S.mp4"
    /// Send a desktop notification with the clip's path after each SIGUSR1 save.
    public var notifiesDesktop = false
    /// `--http`: serve the live page and its API there (docs/LIVE.md).
    public var live: LiveEndpoint?
    /// `--publish`: servers to send the encoded packets to, as they are made.
    public var publish: [PublishTarget] = []
    /// `--upload`: where finished files and saved clips are copied; `SessionProcess` opens the
    /// queue (`uploader`) once the session has its log. Without it, the first `rec save
    /// --upload` opens one.
    public var upload: UploadDestination?
    public var uploader: Uploader?
    /// Where the queue keeps its journal (`Uploader.journalPath`), and `--upload-limit`.
    public var uploadJournal: String?
    public var uploadLimit: String?

    public init(name: String, recorder: RecorderConfiguration, ring: RingLimits = .replay, onSave: String? = nil) {
        self.name = name
        self.recorder = recorder
        self.ring = ring
        self.onSave = onSave
    }
}
