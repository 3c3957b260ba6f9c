import CFFmpeg
import Glibc

/// glibc malloc settings for a long-running recorder. Measured on a 1080p30 session
/// (bench/session-memory.sh): frame-sized blocks freed on another thread stayed in per-thread
/// arenas under glibc's defaults, which grow the mmap threshold after every large free. Two arenas
/// and a fixed 1 MiB mmap threshold (big blocks go back to the kernel when freed) cut the
/// session's resident memory by about 175 MB with no measurable cost.
public enum MemoryPolicy {
    /// Applies the settings unless the user set `MALLOC_ARENA_MAX` / `MALLOC_MMAP_THRESHOLD_`.
    public static func apply() {
        if getenv("MALLOC_ARENA_MAX") == nil { cffmpeg_malloc_arena_max(2) }
        if getenv("MALLOC_MMAP_THRESHOLD_") == nil { cffmpeg_malloc_mmap_threshold(1 << 20) }
    }
}
