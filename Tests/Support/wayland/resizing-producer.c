/* A PipeWire video node for tests that changes its size mid-stream, as a compositor's screen
 * cast does when its monitor changes size (issue 43; mutter 43 ends a monitor's cast instead, and
 * GStreamer's pipewiresink never renegotiates). BGRx, 30 frames a second, driven by its own
 * timer: the first FRAMES frames are WIDTH1xHEIGHT1 and blue, then it offers only
 * WIDTH2xHEIGHT2 (pw_stream_update_params), the link renegotiates, and the frames are red.
 * Prints "streaming" once a consumer takes its frames and "resized WxH" once the new size runs.
 *
 *   resizing-producer NAME WIDTH1xHEIGHT1 WIDTH2xHEIGHT2 FRAMES
 *   cc -O2 -o resizing-producer resizing-producer.c $(pkg-config --cflags --libs libpipewire-0.3)
 */
#include <stdio.h>
#include <string.h>
#include <pipewire/pipewire.h>
#include <spa/param/video/format-utils.h>
#include <spa/param/buffers.h>

struct data {
    struct pw_main_loop *loop;
    struct pw_stream *stream;
    struct spa_hook listener;
    struct spa_source *timer;
    struct spa_video_info_raw format;
    int width[2], height[2], phase, after, frames, told;
};

static const struct spa_pod *format(struct spa_pod_builder *b, int w, int h) {
    return spa_pod_builder_add_object(b, SPA_TYPE_OBJECT_Format, SPA_PARAM_EnumFormat,
        SPA_FORMAT_mediaType, SPA_POD_Id(SPA_MEDIA_TYPE_video),
        SPA_FORMAT_mediaSubtype, SPA_POD_Id(SPA_MEDIA_SUBTYPE_raw),
        SPA_FORMAT_VIDEO_format, SPA_POD_Id(SPA_VIDEO_FORMAT_BGRx),
        SPA_FORMAT_VIDEO_size, SPA_POD_Rectangle(&SPA_RECTANGLE(w, h)),
        SPA_FORMAT_VIDEO_framerate, SPA_POD_Fraction(&SPA_FRACTION(30, 1)));
}

static void param_changed(void *userdata, uint32_t id, const struct spa_pod *param) {
    struct data *d = userdata;
    if (param == NULL || id != SPA_PARAM_Format) return;
    if (spa_format_video_raw_parse(param, &d->format) < 0) return;
    uint8_t buffer[1024];
    struct spa_pod_builder b = SPA_POD_BUILDER_INIT(buffer, sizeof(buffer));
    int stride = d->format.size.width * 4;
    const struct spa_pod *params[1] = {
        spa_pod_builder_add_object(&b, SPA_TYPE_OBJECT_ParamBuffers, SPA_PARAM_Buffers,
            SPA_PARAM_BUFFERS_buffers, SPA_POD_CHOICE_RANGE_Int(4, 2, 8),
            SPA_PARAM_BUFFERS_blocks, SPA_POD_Int(1),
            SPA_PARAM_BUFFERS_size, SPA_POD_Int(stride * d->format.size.height),
            SPA_PARAM_BUFFERS_stride, SPA_POD_Int(stride),
            SPA_PARAM_BUFFERS_dataType, SPA_POD_CHOICE_FLAGS_Int((1 << SPA_DATA_MemFd) | (1 << SPA_DATA_MemPtr))),
    };
    pw_stream_update_params(d->stream, params, 1);
    if (d->phase == 1 && (int)d->format.size.width == d->width[1]) {
        printf("resized %dx%d\n", d->width[1], d->height[1]);
        fflush(stdout);
    }
}

static void state_changed(void *userdata, enum pw_stream_state old, enum pw_stream_state state, const char *error) {
    struct data *d = userdata;
    (void)old;
    if (state == PW_STREAM_STATE_STREAMING && !d->told) {
        d->told = 1;
        printf("streaming\n");
        fflush(stdout);
    }
    if (state == PW_STREAM_STATE_ERROR) { fprintf(stderr, "stream error: %s\n", error ? error : "?"); pw_main_loop_quit(d->loop); }
}

static void process(void *userdata) {
    struct data *d = userdata;
    struct pw_buffer *b = pw_stream_dequeue_buffer(d->stream);
    if (b == NULL) return;
    struct spa_data *data = &b->buffer->datas[0];
    int w = d->format.size.width, h = d->format.size.height, stride = w * 4;
    if (data->data != NULL && (uint32_t)(stride * h) <= data->maxsize) {
        uint32_t colour = d->phase == 0 ? 0x000000ff : 0x00ff0000;   /* BGRx in memory: blue, then red */
        uint32_t *p = data->data;
        for (int i = 0; i < w * h; i++) p[i] = colour;
        data->chunk->offset = 0;
        data->chunk->size = stride * h;
        data->chunk->stride = stride;
    }
    pw_stream_queue_buffer(d->stream, b);
}

static const struct pw_stream_events events = {
    PW_VERSION_STREAM_EVENTS, .state_changed = state_changed, .param_changed = param_changed, .process = process,
};

static void tick(void *userdata, uint64_t expirations) {
    struct data *d = userdata;
    (void)expirations;
    if (!d->told) return;
    if (++d->frames == d->after) {
        d->phase = 1;
        uint8_t buffer[1024];
        struct spa_pod_builder b = SPA_POD_BUILDER_INIT(buffer, sizeof(buffer));
        const struct spa_pod *params[1] = { format(&b, d->width[1], d->height[1]) };
        pw_stream_update_params(d->stream, params, 1);
    }
    pw_stream_trigger_process(d->stream);
}

int main(int argc, char *argv[]) {
    struct data d = { 0 };
    if (argc != 5 || sscanf(argv[2], "%dx%d", &d.width[0], &d.height[0]) != 2
        || sscanf(argv[3], "%dx%d", &d.width[1], &d.height[1]) != 2 || sscanf(argv[4], "%d", &d.after) != 1) {
        fprintf(stderr, "usage: resizing-producer NAME W1xH1 W2xH2 FRAMES\n");
        return 64;
    }
    pw_init(&argc, &argv);
    d.loop = pw_main_loop_new(NULL);
    d.stream = pw_stream_new_simple(pw_main_loop_get_loop(d.loop), argv[1],
        pw_properties_new(PW_KEY_MEDIA_CLASS, "Video/Source", PW_KEY_NODE_NAME, argv[1], NULL), &events, &d);
    uint8_t buffer[1024];
    struct spa_pod_builder b = SPA_POD_BUILDER_INIT(buffer, sizeof(buffer));
    const struct spa_pod *params[1] = { format(&b, d.width[0], d.height[0]) };
    pw_stream_connect(d.stream, PW_DIRECTION_OUTPUT, PW_ID_ANY,
                      PW_STREAM_FLAG_DRIVER | PW_STREAM_FLAG_MAP_BUFFERS, params, 1);
    d.timer = pw_loop_add_timer(pw_main_loop_get_loop(d.loop), tick, &d);
    struct timespec interval = { 0, 33333333 };
    pw_loop_update_timer(pw_main_loop_get_loop(d.loop), d.timer, &interval, &interval, false);
    pw_main_loop_run(d.loop);
    pw_stream_destroy(d.stream);
    pw_main_loop_destroy(d.loop);
    return 0;
}
