import CFFmpeg
import Glibc
import RecCore

/// glibc malloc settings for a long-running recorder. Measured on a 1080p30 session
/// (bench/session-memory.sh): frame-sized blocks freed on another thread stayed in per-thread
/// arenas under glibc's defaults, which grow the mmap threshold after every large free. Two arenas
/// and a fixed 1 MiB mmap threshold (big blocks go back to the kernel when freed) cut the
/// session's resident memory by about 175 MB with no measurable cost.
package enum MemoryPolicy {
    /// Applies the settings unless the user set `MALLOC_ARENA_MAX` / `MALLOC_MMAP_THRESHOLD_`.
    package static func apply() {
        if getenv("MALLOC_ARENA_MAX") == nil { cffmpeg_malloc_arena_max(2) }
        if getenv("MALLOC_MMAP_THRESHOLD_") == nil { cffmpeg_malloc_mmap_threshold(1 << 20) }
    }

    /// Returns the free pages of every arena to the kernel, and unmaps the Swift runtime's and the
    /// program's code pages (`releaseCode`). A network camera's session needs it now and then
    /// (every `Recorder.trimSeconds`): what is read when it connects is allocated on one thread
    /// and freed on another, and the file's fragments grow and free buffers between live packets.
    /// The ring's bytes are not in the heap (`SlabWriter`). Measured beside the ffmpeg CLI on
    /// bench/cameras.sh's camera with a 60 s ring (1 MiB slabs, 40 s windows): 2.3 MB less
    /// private memory with the heap trims, for 27 minor faults a second (6 in all without).
    package static func trim() {
        cffmpeg_malloc_trim()
        releaseCode()
    }

    /// The code mappings to unmap, found once: the program and the Swift runtime are loaded
    /// with the process and never unloaded, so their addresses hold for its life.
    private static let code: CodeMappings = {
        guard let maps = readProcFile("/proc/self/maps"), let exe = executablePath() else { return CodeMappings(ranges: []) }
        return CodeMappings(maps: maps, executable: exe)
    }()

    /// Unmaps the pages of `CodeMappings` (`madvise(MADV_DONTNEED)`): they stay in the page
    /// cache, and the next touch of a page still in use maps it back (a minor fault). Skipped
    /// while a debugger is attached: its breakpoints are private copies of code pages, which
    /// the advice would drop. Returns the bytes advised.
    @discardableResult
    package static func releaseCode() -> UInt {
        guard !isTraced() else { return 0 }
        for range in code.ranges {
            _ = madvise(UnsafeMutableRawPointer(bitPattern: range.lowerBound), range.count, MADV_DONTNEED)
        }
        return code.bytes
    }

    private static func isTraced() -> Bool {
        guard let status = readProcFile("/proc/self/status"),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("TracerPid:") }) else { return true }
        return line.dropFirst("TracerPid:".count).trimmingPrefix(while: { $0 == "\t" || $0 == " " }) != "0"
    }

    private static func executablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A /proc file's text (its size is not known ahead: read until the end).
    private static func readProcFile(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { return nil }
            if n == 0 { break }
            bytes.append(contentsOf: chunk[..<n])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
