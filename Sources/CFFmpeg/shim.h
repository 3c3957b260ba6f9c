// Header-only shims for the parts of FFmpeg's API that Swift cannot import: function-like macros
// (AVERROR, AVERROR_EOF, AV_NOPTS_VALUE) and a few helpers. Nothing here holds state.
#ifndef CFFMPEG_SHIM_H
#define CFFMPEG_SHIM_H

#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavcodec/bsf.h>
#include <libavutil/avutil.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libavutil/log.h>
#include <libavutil/mathematics.h>
#include <libavutil/error.h>
#include <libswscale/swscale.h>
#include <libavfilter/avfilter.h>
#include <libavfilter/buffersink.h>
#include <libavfilter/buffersrc.h>
#include <libavdevice/avdevice.h>
#include <libswresample/swresample.h>
#include <libavutil/audio_fifo.h>
#include <libavutil/channel_layout.h>
#include <libavutil/samplefmt.h>
#include <malloc.h>
#include <stdarg.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <time.h>

// libavfilter and libavdevice are opened when first needed (Media's SharedLibrary), not linked:
// the types of the functions rec looks up in them.
typedef __typeof__(&avfilter_graph_alloc) cffmpeg_avfilter_graph_alloc_fn;
typedef __typeof__(&avfilter_graph_free) cffmpeg_avfilter_graph_free_fn;
typedef __typeof__(&avfilter_get_by_name) cffmpeg_avfilter_get_by_name_fn;
typedef __typeof__(&avfilter_graph_create_filter) cffmpeg_avfilter_graph_create_filter_fn;
typedef __typeof__(&avfilter_inout_alloc) cffmpeg_avfilter_inout_alloc_fn;
typedef __typeof__(&avfilter_inout_free) cffmpeg_avfilter_inout_free_fn;
typedef __typeof__(&avfilter_graph_parse_ptr) cffmpeg_avfilter_graph_parse_ptr_fn;
typedef __typeof__(&avfilter_graph_config) cffmpeg_avfilter_graph_config_fn;
typedef __typeof__(&av_buffersrc_add_frame_flags) cffmpeg_av_buffersrc_add_frame_flags_fn;
typedef __typeof__(&av_buffersink_get_frame) cffmpeg_av_buffersink_get_frame_fn;
typedef __typeof__(&av_buffersink_get_w) cffmpeg_av_buffersink_get_w_fn;
typedef __typeof__(&av_buffersink_get_h) cffmpeg_av_buffersink_get_h_fn;
typedef __typeof__(&av_buffersink_get_format) cffmpeg_av_buffersink_get_format_fn;
typedef __typeof__(&av_buffersink_get_sample_aspect_ratio) cffmpeg_av_buffersink_get_sample_aspect_ratio_fn;
typedef __typeof__(&av_buffersink_get_time_base) cffmpeg_av_buffersink_get_time_base_fn;
typedef __typeof__(&avdevice_register_all) cffmpeg_avdevice_register_all_fn;
typedef __typeof__(&avdevice_list_input_sources) cffmpeg_avdevice_list_input_sources_fn;
typedef __typeof__(&avdevice_free_list_devices) cffmpeg_avdevice_free_list_devices_fn;

static inline int cffmpeg_averror(int e) { return AVERROR(e); }
static const int CFFMPEG_AVERROR_EOF = AVERROR_EOF;
static const int CFFMPEG_EAGAIN = AVERROR(EAGAIN);
static const int64_t CFFMPEG_NOPTS = AV_NOPTS_VALUE;
static const int CFFMPEG_ROUND_NEAR_INF_PASS_MINMAX = AV_ROUND_NEAR_INF | AV_ROUND_PASS_MINMAX;

/// av_err2str is a macro over a compound literal; this copies the text into a caller buffer.
static inline void cffmpeg_strerror(int e, char *buf, size_t size) { av_strerror(e, buf, size); }

/// Quiets FFmpeg's own logging below the given level (av_log_set_level takes AV_LOG_* macros).
static inline void cffmpeg_log_quiet(void) { av_log_set_level(AV_LOG_ERROR); }
static inline void cffmpeg_log_silent(void) { av_log_set_level(AV_LOG_QUIET); }

/// Where error lines go: defined in Swift (Media's FFmpegLog.swift, `@_cdecl`), which keeps them.
extern void rec_ffmpeg_log_line(int level, const char *line);

/// The part of av_log's callback that keeps and prints a line: out of line, so that the check
/// every dropped line pays (below) stays a few instructions, without this one's 1 KiB frame.
static __attribute__((noinline)) void cffmpeg_log_line(void *avcl, int level, const char *fmt, va_list vl) {
    if (level >= 0 && level <= AV_LOG_ERROR) {
        char line[1024];
        int prefix = 1;
        va_list copy;
        va_copy(copy, vl);
        av_log_format_line2(avcl, level, fmt, copy, line, sizeof line, &prefix);
        va_end(copy);
        rec_ffmpeg_log_line(level, line);
    }
    av_log_default_callback(avcl, level, fmt, vl);
}

/// av_log's callback: formats error-level lines (the va_list must be read in C) for rec to attach
/// to the failure they explain, then prints as FFmpeg's default callback does, by av_log_set_level.
static inline void cffmpeg_log_trampoline(void *avcl, int level, const char *fmt, va_list vl) {
    // Demuxers log at debug level for every packet (a camera's RTSP reader some 1,000 times a
    // second): what neither rec nor the default callback keeps is dropped here, before any work.
    if (level > AV_LOG_ERROR && level > av_log_get_level()) return;
    cffmpeg_log_line(avcl, level, fmt, vl);
}
/// What an InterruptFlag holds where libavformat's interrupt callback reads it, some 2,000 times a
/// second on a camera (a Swift callback cost ~70 instructions a call there, this ~20): set once
/// by any thread, and a CLOCK_MONOTONIC_COARSE deadline in nanoseconds, 0 for none; `passed` once
/// the callback saw the deadline pass (until the next deadline), and the callback's call count.
/// Touched only through these atomic builtins; InterruptFlag owns the memory.
typedef struct { int set; int passed; unsigned calls; unsigned long long deadline; } cffmpeg_interrupt;
static inline unsigned long long cffmpeg_clock_ns(clockid_t clock) {
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}
static inline unsigned long long cffmpeg_coarse_now(void) { return cffmpeg_clock_ns(CLOCK_MONOTONIC_COARSE); }
/// CLOCK_MONOTONIC in nanoseconds: what DispatchTime.now().uptimeNanoseconds reads on Linux,
/// without libdispatch's two calls around it (a camera reads it for every packet).
static inline unsigned long long cffmpeg_monotonic_now(void) { return cffmpeg_clock_ns(CLOCK_MONOTONIC); }
static inline int cffmpeg_interrupt_is_set(const cffmpeg_interrupt *s) { return __atomic_load_n(&s->set, __ATOMIC_ACQUIRE); }
/// Sets the flag; returns whether it was set before.
static inline int cffmpeg_interrupt_set(cffmpeg_interrupt *s) { return __atomic_exchange_n(&s->set, 1, __ATOMIC_ACQ_REL); }
static inline void cffmpeg_interrupt_expire(cffmpeg_interrupt *s, unsigned long long deadline) {
    __atomic_store_n(&s->passed, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&s->deadline, deadline, __ATOMIC_RELEASE);
}
static inline int cffmpeg_interrupt_expired(const cffmpeg_interrupt *s) {
    unsigned long long d = __atomic_load_n(&s->deadline, __ATOMIC_ACQUIRE);
    return d != 0 && cffmpeg_coarse_now() >= d;
}
/// AVIOInterruptCB.callback, with the cffmpeg_interrupt as its opaque pointer. The deadline is
/// seconds away, so the clock is read on every 8th call only: libavformat calls this ~25 times for
/// each packet of a camera, and every 100 ms while it waits on a silent socket, so a passed deadline
/// is seen at most 0.7 s late. Once seen, every call says so until the next deadline.
/// The clock is read out of line, so that the other seven calls need no stack frame.
static __attribute__((noinline)) int cffmpeg_interrupt_check_clock(cffmpeg_interrupt *s) {
    if (!cffmpeg_interrupt_expired(s)) return 0;
    __atomic_store_n(&s->passed, 1, __ATOMIC_RELAXED);
    return 1;
}
static inline int cffmpeg_interrupt_callback(void *opaque) {
    cffmpeg_interrupt *s = opaque;
    if (cffmpeg_interrupt_is_set(s) || __atomic_load_n(&s->passed, __ATOMIC_RELAXED)) return 1;
    // Only the reading thread counts: a plain load and store, not a locked add.
    unsigned calls = __atomic_load_n(&s->calls, __ATOMIC_RELAXED) + 1;
    __atomic_store_n(&s->calls, calls, __ATOMIC_RELAXED);
    if ((calls & 7) != 0) return 0;
    return cffmpeg_interrupt_check_clock(s);
}
/// The calling thread's kernel id (Swift's Glibc module has no gettid); for per-thread state and priority.
static inline pid_t cffmpeg_gettid(void) { return (pid_t)syscall(SYS_gettid); }
static inline void cffmpeg_log_capture(void) { av_log_set_callback(cffmpeg_log_trampoline); }

/// The wall clock (microseconds since the Unix epoch) libavformat's RTP reader gives a packet
/// read after its stream's first RTCP sender report (AV_PKT_DATA_PRFT), or AV_NOPTS_VALUE.
static inline int64_t cffmpeg_packet_prft_wallclock(const AVPacket *p) {
    for (int i = 0; i < p->side_data_elems; i++)
        if (p->side_data[i].type == AV_PKT_DATA_PRFT && p->side_data[i].size >= sizeof(AVProducerReferenceTime))
            return ((const AVProducerReferenceTime *)p->side_data[i].data)->wallclock;
    return AV_NOPTS_VALUE;
}
/// Drops a packet's side data when all of it is AV_PKT_DATA_PRFT: the sender-report times
/// libavformat's RTP reader attaches to every packet of a camera, which the demuxer reads first
/// (cffmpeg_packet_prft_wallclock) and no file rec writes stores.
static inline void cffmpeg_packet_drop_prft(AVPacket *p) {
    for (int i = 0; i < p->side_data_elems; i++)
        if (p->side_data[i].type != AV_PKT_DATA_PRFT) return;
    av_packet_free_side_data(p);
}
/// AVStream.time_base etc. are plain fields; these exist for macros only.
static inline int64_t cffmpeg_rescale(int64_t a, AVRational from, AVRational to) {
    return av_rescale_q_rnd(a, from, to, AV_ROUND_NEAR_INF | AV_ROUND_PASS_MINMAX);
}
/// glibc's mallopt for the frame buffers FFmpeg allocates (Swift's Glibc module leaves malloc.h out).
static inline void cffmpeg_malloc_arena_max(int n) { mallopt(M_ARENA_MAX, n); }
static inline void cffmpeg_malloc_mmap_threshold(int bytes) { mallopt(M_MMAP_THRESHOLD, bytes); }
/// Gives every arena's free pages back to the kernel (glibc's malloc_trim(0) also frees whole pages
/// inside the heap, not only at its top).
static inline void cffmpeg_malloc_trim(void) { malloc_trim(0); }

// ---- Hardware encoders (branch controls): device and frames contexts ---------------------------
#include <libavutil/hwcontext.h>
// ---- end hardware block ------------------------------------------------------------------------
#endif
