import CFFmpeg
import Glibc

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

    /// Returns the free pages of every arena to the kernel. A network camera's session needs it
    /// now and then (every `Recorder.trimSeconds`): what is read when it connects is allocated on
    /// one thread and freed on another, and the file's fragments grow and free buffers between
    /// live packets. The ring's bytes are not in the heap (`SlabWriter`). Measured beside
    /// the ffmpeg CLI on bench/cameras.sh's camera with a 60 s ring (1 MiB slabs, 40 s windows):
    /// 2.3 MB less private memory with the trims, for 27 minor faults a second (6 in all without).
    package static func trim() { cffmpeg_malloc_trim() }
}
