/// The code mappings a recorder may unmap once it runs: the read-only executable (`r-xp`) mappings
/// of its own program and of the Swift runtime's libraries (those in the directory that holds
/// `libswiftCore.so`), read from `/proc/self/maps`. These are files no other kind of program on
/// the box maps, loaded with the program and never unloaded; a writable mapping, or another
/// library's (FFmpeg's, shared with the ffmpeg CLI and other processes), is never chosen.
///
/// Why: the kernel maps a library's pages 64 kB at a time around each first touch (fault-around),
/// so start-up (the runtime's conformance scans, option parsing, opening the camera) leaves most
/// of Foundation and the runtime mapped for good: 15 MB of a camera session's 48 MB PSS, measured
/// in bench/README.md, of which recording touches under 3 MB. Unmapped, the pages stay in the
/// page cache (reclaimable), and the ones still used are mapped back by the next touch.
package struct CodeMappings: Equatable, Sendable {
    /// Address ranges, page-aligned as the kernel lists them.
    package var ranges: [Range<UInt>]

    package init(ranges: [Range<UInt>]) { self.ranges = ranges }

    /// The ranges in `maps` (the text of `/proc/self/maps`) of `executable` (the program's path
    /// as the kernel resolved it) and of the Swift runtime's libraries; none when the runtime's
    /// directory cannot be told (a statically linked runtime): then only the program's own.
    package init(maps: String, executable: String) {
        let lines = maps.split(separator: "\n").compactMap(Line.init)
        let core = lines.first { $0.path.hasSuffix("/libswiftCore.so") }?.path
        let runtime = core.flatMap { path in path.lastIndex(of: "/").map { String(path[...$0]) } }
        ranges = lines.filter { line in
            guard line.permissions == "r-xp" else { return false }
            if line.path == executable { return true }
            guard let runtime, line.path.hasPrefix(runtime) else { return false }
            return !line.path.dropFirst(runtime.count).contains("/")
        }.map(\.range)
    }

    /// The bytes the ranges span.
    package var bytes: UInt { ranges.reduce(0) { $0 + UInt($1.count) } }

    /// One line of `/proc/PID/maps`: "start-end perms offset dev inode path".
    private struct Line {
        var range: Range<UInt>
        var permissions: Substring
        var path: String

        init?(_ text: Substring) {
            let fields = text.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
            guard fields.count == 6 else { return nil }
            let bounds = fields[0].split(separator: "-")
            guard bounds.count == 2, let start = UInt(bounds[0], radix: 16), let end = UInt(bounds[1], radix: 16),
                  start < end else { return nil }
            range = start..<end
            permissions = fields[1]
            path = String(fields[5].drop { $0 == " " })
        }
    }
}
