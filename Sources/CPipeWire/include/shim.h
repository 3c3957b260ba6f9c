// libpipewire-0.3 for the Wayland screen (ScreenCast portal) source: SPA builds its format and
// buffer parameters with variadic macros and reads buffers through static inline helpers, neither
// of which Swift imports; these wrappers are the whole C side.
#ifndef CPIPEWIRE_SHIM_H
#define CPIPEWIRE_SHIM_H
#include <pipewire/pipewire.h>
#include <spa/param/video/format-utils.h>
#include <spa/param/props.h>
#include <spa/buffer/meta.h>
#include <spa/utils/result.h>

static const uint32_t CPW_ID_ANY = PW_ID_ANY;
static const uint32_t CPW_STREAM_EVENTS_VERSION = PW_VERSION_STREAM_EVENTS;
static const uint32_t CPW_CORE_EVENTS_VERSION = PW_VERSION_CORE_EVENTS;

// pw_properties_new is variadic (NULL-terminated pairs).
static inline struct pw_properties *cpw_properties_new(void) { return pw_properties_new(NULL, NULL); }

// spa_strerror is a function-like macro.
static inline const char *cpw_strerror(int result) { return spa_strerror(result); }

// pw_loop's calls are macros over its control interface.
static inline int cpw_loop_fd(struct pw_loop *loop) { return pw_loop_get_fd(loop); }
static inline int cpw_loop_iterate(struct pw_loop *loop, int timeout) { return pw_loop_iterate(loop, timeout); }
static inline void cpw_loop_enter(struct pw_loop *loop) { pw_loop_enter(loop); }
static inline void cpw_loop_leave(struct pw_loop *loop) { pw_loop_leave(loop); }

// pw_core_add_listener is a macro over the proxy's method table.
static inline void cpw_core_add_listener(struct pw_core *core, struct spa_hook *hook,
                                         const struct pw_core_events *events, void *data) {
    pw_core_add_listener(core, hook, events, data);
}

// The raw-video formats rec takes from a screen, in the order it prefers them: the packed
// 32-bit RGB layouts compositors share memory in. Any size, any rate (a screen cast's rate is
// variable: 0/1 with a maximum). The pod is built in `buffer` and returned.
static inline const struct spa_pod *cpw_video_enum_format(uint8_t *buffer, uint32_t size) {
    struct spa_pod_builder b = SPA_POD_BUILDER_INIT(buffer, size);
    struct spa_rectangle def = SPA_RECTANGLE(1920, 1080), min = SPA_RECTANGLE(1, 1), max = SPA_RECTANGLE(16384, 16384);
    struct spa_fraction rate = SPA_FRACTION(30, 1), rmin = SPA_FRACTION(0, 1), rmax = SPA_FRACTION(1000, 1);
    return spa_pod_builder_add_object(&b,
        SPA_TYPE_OBJECT_Format, SPA_PARAM_EnumFormat,
        SPA_FORMAT_mediaType, SPA_POD_Id(SPA_MEDIA_TYPE_video),
        SPA_FORMAT_mediaSubtype, SPA_POD_Id(SPA_MEDIA_SUBTYPE_raw),
        SPA_FORMAT_VIDEO_format, SPA_POD_CHOICE_ENUM_Id(7, SPA_VIDEO_FORMAT_BGRx,
            SPA_VIDEO_FORMAT_BGRx, SPA_VIDEO_FORMAT_BGRA, SPA_VIDEO_FORMAT_RGBx, SPA_VIDEO_FORMAT_RGBA,
            SPA_VIDEO_FORMAT_xRGB, SPA_VIDEO_FORMAT_xBGR),
        SPA_FORMAT_VIDEO_size, SPA_POD_CHOICE_RANGE_Rectangle(&def, &min, &max),
        SPA_FORMAT_VIDEO_framerate, SPA_POD_CHOICE_RANGE_Fraction(&rate, &rmin, &rmax));
}

// The negotiated raw-video format; -1 when `param` is not raw video.
static inline int cpw_video_parse(const struct spa_pod *param, uint32_t *format, uint32_t *width, uint32_t *height,
                                  uint32_t *rate_num, uint32_t *rate_den) {
    uint32_t media_type, media_subtype;
    if (spa_format_parse(param, &media_type, &media_subtype) < 0) return -1;
    if (media_type != SPA_MEDIA_TYPE_video || media_subtype != SPA_MEDIA_SUBTYPE_raw) return -1;
    struct spa_video_info_raw info;
    spa_zero(info);
    if (spa_format_video_raw_parse(param, &info) < 0) return -1;
    *format = info.format;
    *width = info.size.width;
    *height = info.size.height;
    *rate_num = info.framerate.num ? info.framerate.num : info.max_framerate.num;
    *rate_den = info.framerate.num ? info.framerate.denom : info.max_framerate.denom;
    return 0;
}

// Buffers in memory rec can map (memfd or plain pointers, not DMA-BUF), and a header meta for
// each buffer's timestamp. Writes two pods into `buffer` and their addresses into `params`.
static inline void cpw_buffer_params(uint8_t *buffer, uint32_t size, const struct spa_pod *params[2]) {
    struct spa_pod_builder b = SPA_POD_BUILDER_INIT(buffer, size);
    params[0] = spa_pod_builder_add_object(&b,
        SPA_TYPE_OBJECT_ParamBuffers, SPA_PARAM_Buffers,
        SPA_PARAM_BUFFERS_buffers, SPA_POD_CHOICE_RANGE_Int(8, 2, 16),
        SPA_PARAM_BUFFERS_blocks, SPA_POD_Int(1),
        SPA_PARAM_BUFFERS_dataType, SPA_POD_CHOICE_FLAGS_Int((1 << SPA_DATA_MemPtr) | (1 << SPA_DATA_MemFd)));
    params[1] = spa_pod_builder_add_object(&b,
        SPA_TYPE_OBJECT_ParamMeta, SPA_PARAM_Meta,
        SPA_PARAM_META_type, SPA_POD_Id(SPA_META_Header),
        SPA_PARAM_META_size, SPA_POD_Int(sizeof(struct spa_meta_header)));
}

// One dequeued buffer's first plane, mapped (PW_STREAM_FLAG_MAP_BUFFERS), and its header's
// timestamp. Returns -1 when the buffer has no mapped memory (a DMA-BUF), or 1 when the
// producer marked it corrupted.
static inline int cpw_buffer_plane(struct pw_buffer *b, const uint8_t **data, uint32_t *bytes, int32_t *stride,
                                   int64_t *pts, uint64_t *sequence) {
    struct spa_buffer *buf = b->buffer;
    if (buf->n_datas < 1 || buf->datas[0].data == NULL || buf->datas[0].chunk == NULL) return -1;
    struct spa_data *d = &buf->datas[0];
    uint32_t offset = d->chunk->offset % (d->maxsize ? d->maxsize : 1);
    *data = (const uint8_t *)d->data + offset;
    *bytes = d->chunk->size;
    *stride = d->chunk->stride;
    *pts = -1;
    *sequence = 0;
    struct spa_meta_header *h = spa_buffer_find_meta_data(buf, SPA_META_Header, sizeof(*h));
    if (h) {
        *pts = h->pts;
        *sequence = h->seq;
        if (h->flags & SPA_META_HEADER_FLAG_CORRUPTED) return 1;
    }
    if (d->chunk->flags & SPA_CHUNK_FLAG_CORRUPTED) return 1;
    return 0;
}

#endif
