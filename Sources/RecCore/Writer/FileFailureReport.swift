/// What the user is told when writing a recording's file fails mid-way (a full or failing disk):
/// which disk, how much of the recording was kept, and what to do next.
package struct FileFailureReport: Sendable, Equatable {
    package var path: String
    /// The operating system's text for the error, e.g. "No space left on device".
    package var reason: String
    package var diskFull: Bool
    /// Free bytes on the file's disk now, if they could be read.
    package var freeBytes: Int?
    /// Bytes of the file kept: it ends at its last complete fragment.
    package var keptBytes: Int
    /// Presentation time up to which the file holds every frame, if any fragment was complete.
    package var keptUntil: Timestamp?
    /// Whether the recording goes on in the ring (a session) or ends (`rec record`).
    package var ringGoesOn: Bool

    package init(path: String, reason: String, diskFull: Bool, freeBytes: Int?, keptBytes: Int,
                keptUntil: Timestamp?, ringGoesOn: Bool) {
        self.path = path
        self.reason = reason
        self.diskFull = diskFull
        self.freeBytes = freeBytes
        self.keptBytes = keptBytes
        self.keptUntil = keptUntil
        self.ringGoesOn = ringGoesOn
    }

    package var message: String {
        let folder = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let disk = diskFull
            ? "the disk holding \(folder.isEmpty ? "/" : folder) is full"
                + (freeBytes.map { " (\(ByteSize.text($0)) free)" } ?? "")
            : "writing \(path) failed: \(reason)"
        let kept = keptUntil.map { "\(path) was ended cleanly at \($0.clockText) (\(ByteSize.text(keptBytes)) kept) and plays as it is" }
            ?? "\(path) holds no complete frame"
        let next = ringGoesOn
            ? "the session goes on in its ring: save clips to another disk with rec save -o /other/disk/clip.mp4"
            : "free some space or record to another disk with -o"
        return "\(disk); \(kept); \(next)"
    }
}
