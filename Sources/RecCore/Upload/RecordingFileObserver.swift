/// Who hears of a recording's files as they are finished, and has a say in which old segments
/// retention may delete: the `--upload` queue. Called on the thread that finishes files.
package protocol RecordingFileObserver: Sendable {
    /// A recording file begins at `path`: it is copied once finished, or, should the session die
    /// first (`kill -9`, a power cut), as it was left, by the next session with the same queue.
    func fileStarted(_ path: String)
    /// A recording file (a segment, or the whole recording) is finished at `path`, `bytes` long.
    func fileFinished(_ path: String, bytes: Int64)
    /// Files `--keep` and `--max-disk` must keep for now (not yet copied).
    var heldFiles: Set<String> { get }
    /// Retention deleted `paths` although they were held, because the disk would otherwise fill
    /// (`freeBytes` left).
    func heldFilesDeleted(_ paths: [String], freeBytes: Int64)
}
