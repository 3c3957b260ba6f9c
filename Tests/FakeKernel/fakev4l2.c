// A fake V4L2 kernel driver as an LD_PRELOAD library, so the tests can run the real `rec` binary
// through the real libv4l2 (and its plugins) on a machine with no camera.
//
// It claims the device paths in FAKEV4L2_DEVICES ("path:kind,path:kind", kind one of yuyv, mjpeg,
// grey, empty, mplane, unicam, or encoder: an M2M H.264 encoder) and serves, for descriptors it
// opened, the calls libv4l2 and rec make: open/open64/openat (and syscall(SYS_openat)), close,
// ioctl (and syscall(SYS_ioctl), which libv4l2 uses), mmap/munmap (and their syscalls), poll, read
// and fstat (a character device, major 81). Everything else goes to the real C library. Frames come
// in real time at FAKEV4L2_FPS.
//
// Faults, each an environment variable (frame numbers count the frames one stream produced):
//   FAKEV4L2_FPS=n            frame rate (default 50); S_PARM picks between n and n/2
//   FAKEV4L2_STALL_AFTER=n    a stream delivers n frames, then nothing until it is restarted
//   FAKEV4L2_ENOSPC=1         STREAMON fails with ENOSPC (USB bandwidth)
//   FAKEV4L2_PARTIAL=a,b      these MJPEG frames arrive cut in half (no EOI marker)
//   FAKEV4L2_ZERO=a-b         these frames arrive with bytesused 0 (HDMI grabbers)
//   FAKEV4L2_REALTIME_TS=a-b  these frames' timestamps are CLOCK_REALTIME although flagged monotonic
//   FAKEV4L2_FIELD=name       G_FMT's field: interlaced, seq_tb or alternate (height halves)
//   FAKEV4L2_COLOR=709        BT.709 limited-range colour (default: BT.601 limited, JPEG full)
//   FAKEV4L2_FLIP=1           the input reports V4L2_IN_ST_HFLIP|VFLIP (a sensor mounted upside down)
//   FAKEV4L2_NO_TIMEPERFRAME=1  G_PARM lacks TIMEPERFRAME and reports n/2 fps
//   FAKEV4L2_UNPLUG_AFTER=n   the first stream's device vanishes after n frames (node file removed)
//   FAKEV4L2_REPLUG_MS=ms     ... and comes back this long after (node file recreated)
//   FAKEV4L2_FLAKY=k          the first k attempts after the replug fail: EBUSY at open, then EIO at
//                             S_FMT, then ETIMEDOUT at STREAMON, in turn
//   FAKEV4L2_QBUF_FAIL=n      the QBUF after frame n fails with EINVAL
//   FAKEV4L2_DQBUF_EIO=n      DQBUF of frame n fails with EIO, the buffer dequeued (uvcvideo)
//   FAKEV4L2_POLLERR_AFTER=n  after n frames poll reports POLLERR (a vb2 queue error), device present
//   FAKEV4L2_LOG=path         appends one line per open and per stream start to this file
//
// YUYV frames (320x240) draw their frame number as 16 bits, 4x4 blocks of 80x60 (white = 1),
// most significant first; MJPEG frames are FAKEV4L2_JPEG's bytes with a COM segment "frame N"
// after SOI.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/videodev2.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#define MAX_DEVICES 4
#define MAX_FDS 64
#define MAX_BUFFERS 8
#define W 320
#define H 240

enum kind { YUYV, MJPEG, GREY, EMPTY, MPLANE, UNICAM, ENCODER };
struct device { char path[512]; enum kind kind; int present; int replugged; int attempts; };
struct buffer { unsigned char *memory; size_t length; int queued, done; uint32_t bytesused, sequence, field; int64_t timestamp; };
struct handle {
    int fd, used, device, generation_dead;
    uint32_t fourcc, width, height, field;
    int fps_divisor, streaming, count;
    struct buffer buffers[MAX_BUFFERS];
    int64_t started;
    uint32_t produced;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct device devices[MAX_DEVICES];
static int device_count = -1;
static struct handle handles[MAX_FDS];
static unsigned char *jpeg;
static size_t jpeg_size;
static int unplugged_once;

static long (*real_syscall)(long, ...);
static int (*real_ioctl)(int, unsigned long, ...);
static int (*real_close)(int);
static int (*real_poll)(struct pollfd *, nfds_t, int);
static void *(*real_mmap)(void *, size_t, int, int, int, off_t);
static int (*real_munmap)(void *, size_t);
static ssize_t (*real_read)(int, void *, size_t);
static int (*real_fstat)(int, struct stat *);

static long env_long(const char *name, long fallback) {
    const char *v = getenv(name);
    return v && *v ? strtol(v, NULL, 10) : fallback;
}

/// True if frame n is listed in a "a,b,c-d" variable.
static int env_has(const char *name, uint32_t n) {
    const char *v = getenv(name);
    if (!v) return 0;
    char copy[256];
    snprintf(copy, sizeof copy, "%s", v);
    for (char *save = NULL, *part = strtok_r(copy, ",", &save); part; part = strtok_r(NULL, ",", &save)) {
        long a = strtol(part, NULL, 10), b = a;
        char *dash = strchr(part, '-');
        if (dash) b = strtol(dash + 1, NULL, 10);
        if (n >= a && n <= b) return 1;
    }
    return 0;
}

static void logf_(const char *format, ...) {
    const char *path = getenv("FAKEV4L2_LOG");
    if (!path) return;
    FILE *f = fopen(path, "a");
    if (!f) return;
    va_list ap;
    va_start(ap, format);
    vfprintf(f, format, ap);
    va_end(ap);
    fputc('\n', f);
    fclose(f);
}

static void setup(void) {
    if (device_count >= 0) return;
    real_syscall = dlsym(RTLD_NEXT, "syscall");
    real_ioctl = dlsym(RTLD_NEXT, "ioctl");
    real_close = dlsym(RTLD_NEXT, "close");
    real_poll = dlsym(RTLD_NEXT, "poll");
    real_mmap = dlsym(RTLD_NEXT, "mmap");
    real_munmap = dlsym(RTLD_NEXT, "munmap");
    real_read = dlsym(RTLD_NEXT, "read");
    real_fstat = dlsym(RTLD_NEXT, "fstat");
    device_count = 0;
    const char *list = getenv("FAKEV4L2_DEVICES");
    if (list) {
        char copy[2048];
        snprintf(copy, sizeof copy, "%s", list);
        for (char *save = NULL, *part = strtok_r(copy, ",", &save); part && device_count < MAX_DEVICES;
             part = strtok_r(NULL, ",", &save)) {
            char *colon = strrchr(part, ':');
            struct device *d = &devices[device_count++];
            const char *kind = colon ? colon + 1 : "yuyv";
            if (colon) *colon = 0;
            snprintf(d->path, sizeof d->path, "%s", part);
            d->kind = !strcmp(kind, "mjpeg") ? MJPEG : !strcmp(kind, "grey") ? GREY : !strcmp(kind, "empty") ? EMPTY
                    : !strcmp(kind, "mplane") ? MPLANE : !strcmp(kind, "unicam") ? UNICAM
                    : !strcmp(kind, "encoder") ? ENCODER : YUYV;
            d->present = 1;
        }
    }
    const char *jpeg_path = getenv("FAKEV4L2_JPEG");
    FILE *f = jpeg_path ? fopen(jpeg_path, "rb") : NULL;
    if (f) {
        fseek(f, 0, SEEK_END);
        jpeg_size = (size_t)ftell(f);
        fseek(f, 0, SEEK_SET);
        jpeg = malloc(jpeg_size);
        if (fread(jpeg, 1, jpeg_size, f) != jpeg_size) jpeg_size = 0;
        fclose(f);
    }
}

static int64_t now_us(clockid_t clock) {
    struct timespec t;
    clock_gettime(clock, &t);
    return (int64_t)t.tv_sec * 1000000 + t.tv_nsec / 1000;
}

static struct handle *find(int fd) {
    if (fd < 0) return NULL;
    for (int i = 0; i < MAX_FDS; i++) if (handles[i].used && handles[i].fd == fd) return &handles[i];
    return NULL;
}

static int claimed(const char *path) {
    if (!path) return -1;
    for (int i = 0; i < device_count; i++) if (!strcmp(devices[i].path, path)) return i;
    return -1;
}

static void *replug(void *arg) {
    struct device *d = arg;
    usleep((useconds_t)env_long("FAKEV4L2_REPLUG_MS", 0) * 1000);
    pthread_mutex_lock(&lock);
    int fd = (int)real_syscall(SYS_openat, AT_FDCWD, d->path, O_CREAT | O_WRONLY, 0666); // not our openat: the lock is held
    if (fd >= 0) real_close(fd);
    d->present = 1;
    d->replugged = 1;
    logf_("replug %s", d->path);
    pthread_mutex_unlock(&lock);
    return NULL;
}

static void unplug(struct device *d) {
    d->present = 0;
    unlink(d->path);
    logf_("unplug %s", d->path);
    for (int i = 0; i < MAX_FDS; i++)
        if (handles[i].used && &devices[handles[i].device] == d) handles[i].generation_dead = 1;
    if (getenv("FAKEV4L2_REPLUG_MS")) {
        pthread_t thread;
        pthread_create(&thread, NULL, replug, d);
        pthread_detach(thread);
    }
}

/// The flaky-replug script: the attempt's turn fails at `stage` (0 open, 1 S_FMT, 2 STREAMON).
static int flaky(struct device *d, int stage) {
    if (!d->replugged || d->attempts >= env_long("FAKEV4L2_FLAKY", 0)) return 0;
    if (d->attempts % 3 != stage) return 0;
    d->attempts++;
    static const int errors[] = { EBUSY, EIO, ETIMEDOUT };
    return errors[stage];
}

static int fake_open(const char *path, int flags) {
    int index = claimed(path);
    struct device *d = &devices[index];
    if (!d->present) { errno = ENOENT; return -1; }
    int e = flaky(d, 0);
    if (e) { errno = e; return -1; }
    int fd = (int)real_syscall(SYS_openat, AT_FDCWD, "/dev/null", O_RDWR | (flags & O_CLOEXEC), 0);
    if (fd < 0) return -1;
    for (int i = 0; i < MAX_FDS; i++) {
        if (handles[i].used) continue;
        memset(&handles[i], 0, sizeof handles[i]);
        handles[i].used = 1;
        handles[i].fd = fd;
        handles[i].device = index;
        handles[i].fourcc = d->kind == MJPEG ? V4L2_PIX_FMT_MJPEG : d->kind == GREY ? V4L2_PIX_FMT_GREY
                          : d->kind == MPLANE ? V4L2_PIX_FMT_NV12 : V4L2_PIX_FMT_YUYV;
        handles[i].width = W;
        handles[i].height = H;
        handles[i].fps_divisor = 1;
        logf_("open %s", path);
        return fd;
    }
    real_close(fd);
    errno = EMFILE;
    return -1;
}

static uint32_t field_setting(void) {
    const char *f = getenv("FAKEV4L2_FIELD");
    if (!f) return V4L2_FIELD_NONE;
    return !strcmp(f, "interlaced") ? V4L2_FIELD_INTERLACED : !strcmp(f, "seq_tb") ? V4L2_FIELD_SEQ_TB
         : !strcmp(f, "alternate") ? V4L2_FIELD_ALTERNATE : V4L2_FIELD_NONE;
}

static size_t image_size(struct handle *h) {
    if (h->fourcc == V4L2_PIX_FMT_MJPEG) return W * H * 2;
    if (h->fourcc == V4L2_PIX_FMT_NV12 || h->fourcc == V4L2_PIX_FMT_NV12M) return (size_t)h->width * h->height * 3 / 2;
    if (h->fourcc == V4L2_PIX_FMT_GREY) return (size_t)h->width * h->height;
    return (size_t)h->width * h->height * 2;
}

static void fill_pix(struct handle *h, struct v4l2_pix_format *p) {
    p->width = h->width;
    p->height = field_setting() == V4L2_FIELD_ALTERNATE ? h->height / 2 : h->height;
    p->pixelformat = h->fourcc;
    p->field = field_setting();
    p->bytesperline = h->fourcc == V4L2_PIX_FMT_MJPEG ? 0 : h->fourcc == V4L2_PIX_FMT_YUYV ? h->width * 2 : h->width;
    p->sizeimage = (uint32_t)image_size(h);
    int hd = getenv("FAKEV4L2_COLOR") && !strcmp(getenv("FAKEV4L2_COLOR"), "709");
    int is_jpeg = h->fourcc == V4L2_PIX_FMT_MJPEG;
    p->colorspace = hd ? V4L2_COLORSPACE_REC709 : is_jpeg ? V4L2_COLORSPACE_JPEG : V4L2_COLORSPACE_SMPTE170M;
    p->ycbcr_enc = hd ? V4L2_YCBCR_ENC_709 : V4L2_YCBCR_ENC_601;
    p->quantization = is_jpeg && !hd ? V4L2_QUANTIZATION_FULL_RANGE : V4L2_QUANTIZATION_LIM_RANGE;
    p->xfer_func = hd ? V4L2_XFER_FUNC_709 : V4L2_XFER_FUNC_DEFAULT;
}

/// Draws frame `n` into a YUYV or NV12 buffer: 16 blocks, white for a 1 bit.
static void draw(struct handle *h, unsigned char *m, uint32_t n) {
    int yuyv = h->fourcc == V4L2_PIX_FMT_YUYV;
    uint32_t height = field_setting() == V4L2_FIELD_ALTERNATE ? h->height / 2 : h->height;
    for (uint32_t y = 0; y < height; y++) {
        for (uint32_t x = 0; x < h->width; x++) {
            uint32_t row = y * 4 / height, column = x * 4 / h->width;
            int bit = (n >> (15 - (row * 4 + column))) & 1;
            unsigned char luma = bit ? 235 : 16;
            if (yuyv) { m[(y * h->width + x) * 2] = luma; m[(y * h->width + x) * 2 + 1] = 128; }
            else m[y * h->width + x] = luma;
        }
    }
    if (!yuyv) memset(m + h->width * height, 128, h->width * height / 2);
}

static int fps(struct handle *h) { return (int)env_long("FAKEV4L2_FPS", 50) / h->fps_divisor; }

/// Fills the oldest queued buffer with the next frame if one is due; returns 1 if a buffer is done.
static int produce(struct handle *h) {
    for (int i = 0; i < h->count; i++) if (h->buffers[i].done) return 1;
    if (!h->streaming) return 0;
    long stall = env_long("FAKEV4L2_STALL_AFTER", -1);
    if (stall >= 0 && h->produced >= (uint32_t)stall) return 0;
    int64_t due = h->started + (int64_t)(h->produced + 1) * 1000000 / fps(h);
    if (now_us(CLOCK_MONOTONIC) < due) return 0;
    struct buffer *b = NULL;
    for (int i = 0; i < h->count && !b; i++) if (h->buffers[i].queued) b = &h->buffers[i];
    if (!b) return 0;
    uint32_t n = h->produced++;
    b->queued = 0;
    b->done = 1;
    b->sequence = n;
    b->timestamp = env_has("FAKEV4L2_REALTIME_TS", n) ? now_us(CLOCK_REALTIME) : now_us(CLOCK_MONOTONIC);
    b->field = field_setting() == V4L2_FIELD_ALTERNATE ? (n % 2 ? V4L2_FIELD_BOTTOM : V4L2_FIELD_TOP) : field_setting();
    if (h->fourcc == V4L2_PIX_FMT_MJPEG) {
        char text[32];
        int length = snprintf(text, sizeof text, "frame %u", n);
        size_t total = jpeg_size + 4 + (size_t)length;
        if (jpeg_size < 4 || total > b->length) { b->bytesused = 0; return 1; }
        memcpy(b->memory, jpeg, 2);
        unsigned char *p = b->memory + 2;
        *p++ = 0xFF; *p++ = 0xFE; *p++ = (unsigned char)((length + 2) >> 8); *p++ = (unsigned char)(length + 2);
        memcpy(p, text, (size_t)length);
        memcpy(p + length, jpeg + 2, jpeg_size - 2);
        b->bytesused = (uint32_t)(env_has("FAKEV4L2_PARTIAL", n) ? total / 2 : total);
    } else {
        draw(h, b->memory, n);
        b->bytesused = (uint32_t)image_size(h);
    }
    if (env_has("FAKEV4L2_ZERO", n)) b->bytesused = 0;
    long unplug_after = env_long("FAKEV4L2_UNPLUG_AFTER", -1);
    if (unplug_after >= 0 && !unplugged_once && h->produced > (uint32_t)unplug_after) {
        unplugged_once = 1;
        unplug(&devices[h->device]);
    }
    return 1;
}

static void fill_buffer(struct handle *h, struct v4l2_buffer *v, int i, int mplane) {
    struct buffer *b = &h->buffers[i];
    v->index = (uint32_t)i;
    v->flags = V4L2_BUF_FLAG_MAPPED | V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC | (b->queued ? V4L2_BUF_FLAG_QUEUED : 0)
             | (b->done ? V4L2_BUF_FLAG_DONE : 0);
    v->sequence = b->sequence;
    v->field = b->field;
    v->timestamp.tv_sec = b->timestamp / 1000000;
    v->timestamp.tv_usec = b->timestamp % 1000000;
    if (mplane) {
        if (!v->m.planes || v->length < 1) return;
        v->length = 1;
        v->m.planes[0].length = (uint32_t)b->length;
        v->m.planes[0].bytesused = b->bytesused;
        v->m.planes[0].m.mem_offset = (uint32_t)i * 0x10000;
    } else {
        v->length = (uint32_t)b->length;
        v->bytesused = b->bytesused;
        v->m.offset = (uint32_t)i * 0x10000;
    }
}

// A Raspberry Pi's H.264 encoder (bcm2835-codec, /dev/video11): a memory-to-memory node whose
// capture queue (the encoded side) offers H264 and whose output queue takes YU12. Only the
// questions a probe asks are answered; nothing streams from it here.
static int encoder_ioctl(unsigned long request, void *arg) {
    switch (request) {
    case VIDIOC_QUERYCAP: {
        struct v4l2_capability *c = arg;
        memset(c, 0, sizeof *c);
        snprintf((char *)c->driver, sizeof c->driver, "bcm2835-codec");
        snprintf((char *)c->card, sizeof c->card, "bcm2835-codec-encode");
        snprintf((char *)c->bus_info, sizeof c->bus_info, "platform:bcm2835-codec");
        c->version = 0x060100;
        c->device_caps = V4L2_CAP_VIDEO_M2M_MPLANE | V4L2_CAP_STREAMING;
        c->capabilities = c->device_caps | V4L2_CAP_DEVICE_CAPS;
        return 0;
    }
    case VIDIOC_ENUM_FMT: {
        struct v4l2_fmtdesc *f = arg;
        if (f->index != 0) return EINVAL;
        if (f->type == V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE) {
            f->pixelformat = V4L2_PIX_FMT_H264;
            f->flags = V4L2_FMT_FLAG_COMPRESSED;
            snprintf((char *)f->description, sizeof f->description, "H.264");
        } else if (f->type == V4L2_BUF_TYPE_VIDEO_OUTPUT_MPLANE) {
            f->pixelformat = V4L2_PIX_FMT_YUV420;
            f->flags = 0;
            snprintf((char *)f->description, sizeof f->description, "Planar YUV 4:2:0");
        } else {
            return EINVAL;
        }
        return 0;
    }
    default:
        return ENOTTY;
    }
}

static int fake_ioctl(struct handle *h, unsigned long request, void *arg) {
    struct device *d = &devices[h->device];
    if (h->generation_dead || !d->present) return ENODEV;
    if (d->kind == ENCODER) return encoder_ioctl(request, arg);
    int mplane = d->kind == MPLANE;
    uint32_t type = mplane ? V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE : V4L2_BUF_TYPE_VIDEO_CAPTURE;
    switch (request) {
    case VIDIOC_QUERYCAP: {
        struct v4l2_capability *c = arg;
        memset(c, 0, sizeof *c);
        snprintf((char *)c->driver, sizeof c->driver, "%s", mplane ? "rkisp_v5" : d->kind == UNICAM ? "unicam" : "uvcvideo");
        snprintf((char *)c->card, sizeof c->card, "%s", d->kind == GREY ? "Fake IR Camera" : d->kind == EMPTY ? "Dummy video device"
                 : mplane ? "rkisp_mainpath" : d->kind == UNICAM ? "unicam" : "Fake Camera");
        snprintf((char *)c->bus_info, sizeof c->bus_info, "%s", mplane || d->kind == UNICAM ? "platform:fake" : "usb-fake-1");
        c->version = 0x060100;
        c->device_caps = (mplane ? V4L2_CAP_VIDEO_CAPTURE_MPLANE : V4L2_CAP_VIDEO_CAPTURE) | V4L2_CAP_STREAMING
                       | (d->kind == UNICAM ? V4L2_CAP_IO_MC : 0);
        c->capabilities = c->device_caps | V4L2_CAP_DEVICE_CAPS;
        return 0;
    }
    case VIDIOC_G_INPUT: *(int *)arg = 0; return 0;
    case VIDIOC_S_INPUT: return *(int *)arg == 0 ? 0 : EINVAL;
    case VIDIOC_ENUMINPUT: {
        struct v4l2_input *in = arg;
        if (in->index != 0) return EINVAL;
        snprintf((char *)in->name, sizeof in->name, "Camera 1");
        in->type = V4L2_INPUT_TYPE_CAMERA;
        in->status = env_long("FAKEV4L2_FLIP", 0) ? V4L2_IN_ST_HFLIP | V4L2_IN_ST_VFLIP : 0;
        return 0;
    }
    case VIDIOC_ENUM_FMT: {
        struct v4l2_fmtdesc *f = arg;
        if (f->type != type) return EINVAL;
        uint32_t list[4] = { 0 }; const char *names[4] = { 0 }; int n = 0;
        switch (d->kind) {
        case YUYV: list[n] = V4L2_PIX_FMT_YUYV; names[n++] = "YUYV 4:2:2"; break;
        case MJPEG: list[n] = V4L2_PIX_FMT_MJPEG; names[n++] = "Motion-JPEG"; break;
        case GREY: list[n] = V4L2_PIX_FMT_GREY; names[n++] = "8-bit Greyscale"; break;
        case EMPTY: case ENCODER: break;
        case MPLANE: list[n] = V4L2_PIX_FMT_NV12; names[n++] = "Y/UV 4:2:0"; list[n] = V4L2_PIX_FMT_NV12M; names[n++] = "Y/UV 4:2:0 (N-C)"; break;
        case UNICAM: list[n] = V4L2_PIX_FMT_YUYV; names[n++] = "YUYV 4:2:2"; list[n] = V4L2_PIX_FMT_SRGGB10P; names[n++] = "10-bit Bayer RGRG/GBGB Packed"; break;
        }
        if (f->index >= (uint32_t)n) return EINVAL;
        f->pixelformat = list[f->index];
        f->flags = list[f->index] == V4L2_PIX_FMT_MJPEG ? V4L2_FMT_FLAG_COMPRESSED : 0;
        snprintf((char *)f->description, sizeof f->description, "%s", names[f->index]);
        return 0;
    }
    case VIDIOC_ENUM_FRAMESIZES: {
        struct v4l2_frmsizeenum *e = arg;
        if (e->index != 0 || d->kind == EMPTY) return EINVAL;
        e->type = V4L2_FRMSIZE_TYPE_DISCRETE;
        e->discrete.width = W;
        e->discrete.height = H;
        return 0;
    }
    case VIDIOC_ENUM_FRAMEINTERVALS: {
        struct v4l2_frmivalenum *e = arg;
        if (e->index > 1 || e->width != W || e->height != H) return EINVAL;
        e->type = V4L2_FRMIVAL_TYPE_DISCRETE;
        e->discrete.numerator = 1;
        e->discrete.denominator = (uint32_t)env_long("FAKEV4L2_FPS", 50) / (e->index + 1);
        return 0;
    }
    case VIDIOC_G_FMT: case VIDIOC_S_FMT: case VIDIOC_TRY_FMT: {
        struct v4l2_format *f = arg;
        if (f->type != type) return EINVAL;
        if (request == VIDIOC_S_FMT) {
            int e = flaky(d, 1);
            if (e) return e;
            if (h->streaming || h->count) return EBUSY;
        }
        if (mplane) {
            struct v4l2_pix_format_mplane *p = &f->fmt.pix_mp;
            if (request != VIDIOC_G_FMT) h->fourcc = p->pixelformat == V4L2_PIX_FMT_NV12M ? V4L2_PIX_FMT_NV12M : V4L2_PIX_FMT_NV12;
            memset(p, 0, sizeof *p);
            p->width = W; p->height = H; p->pixelformat = h->fourcc; p->field = V4L2_FIELD_NONE;
            p->colorspace = V4L2_COLORSPACE_REC709; p->ycbcr_enc = V4L2_YCBCR_ENC_709; p->quantization = V4L2_QUANTIZATION_LIM_RANGE;
            if (h->fourcc == V4L2_PIX_FMT_NV12M) {
                p->num_planes = 2;
                p->plane_fmt[0].bytesperline = W; p->plane_fmt[0].sizeimage = W * H;
                p->plane_fmt[1].bytesperline = W; p->plane_fmt[1].sizeimage = W * H / 2;
            } else {
                p->num_planes = 1;
                p->plane_fmt[0].bytesperline = W; p->plane_fmt[0].sizeimage = W * H * 3 / 2;
            }
            return 0;
        }
        if (request != VIDIOC_G_FMT && d->kind != EMPTY) {
            uint32_t wanted = f->fmt.pix.pixelformat;
            int ok = (d->kind == YUYV && wanted == V4L2_PIX_FMT_YUYV) || (d->kind == MJPEG && wanted == V4L2_PIX_FMT_MJPEG)
                  || (d->kind == UNICAM && (wanted == V4L2_PIX_FMT_YUYV || wanted == V4L2_PIX_FMT_SRGGB10P));
            if (ok && request == VIDIOC_S_FMT) h->fourcc = wanted;
        }
        memset(&f->fmt.pix, 0, sizeof f->fmt.pix);
        fill_pix(h, &f->fmt.pix);
        return 0;
    }
    case VIDIOC_G_PARM: case VIDIOC_S_PARM: {
        struct v4l2_streamparm *p = arg;
        if (p->type != type) return EINVAL;
        int fixed = env_long("FAKEV4L2_NO_TIMEPERFRAME", 0) != 0;
        if (fixed) h->fps_divisor = 2;
        if (request == VIDIOC_S_PARM && !fixed) {
            struct v4l2_fract t = p->parm.capture.timeperframe;
            double asked = t.numerator ? (double)t.denominator / t.numerator : 1000;
            h->fps_divisor = asked <= env_long("FAKEV4L2_FPS", 50) / 2 ? 2 : 1;
        }
        memset(&p->parm, 0, sizeof p->parm);
        p->parm.capture.capability = fixed ? 0 : V4L2_CAP_TIMEPERFRAME;
        p->parm.capture.timeperframe.numerator = 1;
        p->parm.capture.timeperframe.denominator = (uint32_t)fps(h);
        return 0;
    }
    case VIDIOC_REQBUFS: {
        struct v4l2_requestbuffers *r = arg;
        if (r->type != type || r->memory != V4L2_MEMORY_MMAP) return EINVAL;
        if (h->streaming) return EBUSY;
        for (int i = 0; i < h->count; i++) real_munmap(h->buffers[i].memory, h->buffers[i].length);
        h->count = r->count > MAX_BUFFERS ? MAX_BUFFERS : (int)r->count;
        for (int i = 0; i < h->count; i++) {
            h->buffers[i] = (struct buffer){ 0 };
            h->buffers[i].length = image_size(h);
            h->buffers[i].memory = real_mmap(NULL, h->buffers[i].length, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        }
        r->count = (uint32_t)h->count;
        return 0;
    }
    case VIDIOC_QUERYBUF: case VIDIOC_QBUF: case VIDIOC_DQBUF: {
        struct v4l2_buffer *v = arg;
        if (v->type != type || v->memory != V4L2_MEMORY_MMAP) return EINVAL;
        if (request == VIDIOC_DQBUF) {
            if (!h->streaming) return EINVAL;
            produce(h);
            int found = -1;
            uint32_t oldest = UINT32_MAX;
            for (int i = 0; i < h->count; i++)
                if (h->buffers[i].done && h->buffers[i].sequence < oldest) { oldest = h->buffers[i].sequence; found = i; }
            if (found < 0) return EAGAIN;
            h->buffers[found].done = 0;
            fill_buffer(h, v, found, mplane);
            if (env_has("FAKEV4L2_DQBUF_EIO", h->buffers[found].sequence) && getenv("FAKEV4L2_DQBUF_EIO")) return EIO;
            return 0;
        }
        if (v->index >= (uint32_t)h->count) return EINVAL;
        struct buffer *b = &h->buffers[v->index];
        if (request == VIDIOC_QBUF) {
            if (b->queued || b->done) return EINVAL;
            long fail = env_long("FAKEV4L2_QBUF_FAIL", -1);
            if (fail >= 0 && h->streaming && b->sequence == (uint32_t)fail && h->produced > (uint32_t)fail) {
                b->sequence = UINT32_MAX - 1;
                return EINVAL;
            }
            b->queued = 1;
        }
        fill_buffer(h, v, (int)v->index, mplane);
        return 0;
    }
    case VIDIOC_STREAMON: {
        if (*(int *)arg != (int)type || !h->count) return EINVAL;
        int e = flaky(d, 2);
        if (e) return e;
        if (env_long("FAKEV4L2_ENOSPC", 0)) return ENOSPC;
        if (d->kind == UNICAM) return EPIPE; // the media graph's links are not configured
        h->streaming = 1;
        h->produced = 0;
        h->started = now_us(CLOCK_MONOTONIC);
        logf_("streamon %s %dfps", d->path, fps(h));
        return 0;
    }
    case VIDIOC_STREAMOFF:
        h->streaming = 0;
        for (int i = 0; i < h->count; i++) h->buffers[i].queued = h->buffers[i].done = 0;
        return 0;
    default:
        return ENOTTY;
    }
}

static long do_ioctl(int fd, unsigned long request, void *arg, int *handled) {
    pthread_mutex_lock(&lock);
    setup();
    struct handle *h = find(fd);
    *handled = h != NULL;
    int e = h ? fake_ioctl(h, request, arg) : 0;
    pthread_mutex_unlock(&lock);
    if (!*handled) return 0;
    if (e) { errno = e; return -1; }
    return 0;
}

static int do_close(int fd, int *handled) {
    pthread_mutex_lock(&lock);
    setup();
    struct handle *h = find(fd);
    *handled = h != NULL;
    if (h) {
        for (int i = 0; i < h->count; i++) real_munmap(h->buffers[i].memory, h->buffers[i].length);
        h->used = 0;
    }
    pthread_mutex_unlock(&lock);
    return *handled ? real_close(fd) : 0;
}

static void *do_mmap(size_t length, int fd, off_t offset, int *handled) {
    pthread_mutex_lock(&lock);
    setup();
    struct handle *h = find(fd);
    *handled = h != NULL;
    void *result = MAP_FAILED;
    if (h) {
        int index = (int)(offset / 0x10000);
        if (index >= 0 && index < h->count && length <= h->buffers[index].length) result = h->buffers[index].memory;
        else errno = EINVAL;
    }
    pthread_mutex_unlock(&lock);
    return result;
}

/// True for an address inside one of the fake's buffers (munmap of it is a no-op: the driver owns it).
static int fake_memory(void *address) {
    pthread_mutex_lock(&lock);
    int found = 0;
    for (int i = 0; i < MAX_FDS && !found; i++)
        for (int j = 0; handles[i].used && j < handles[i].count; j++)
            if (handles[i].buffers[j].memory == address) found = 1;
    pthread_mutex_unlock(&lock);
    return found;
}

long syscall(long number, ...) {
    va_list ap;
    va_start(ap, number);
    long a[6];
    for (int i = 0; i < 6; i++) a[i] = va_arg(ap, long);
    va_end(ap);
    pthread_mutex_lock(&lock);
    setup();
    pthread_mutex_unlock(&lock);
    int handled = 0;
    switch (number) {
    case SYS_openat:
        pthread_mutex_lock(&lock);
        if (claimed((const char *)a[1]) >= 0) {
            long fd = fake_open((const char *)a[1], (int)a[2]);
            pthread_mutex_unlock(&lock);
            return fd;
        }
        pthread_mutex_unlock(&lock);
        break;
    case SYS_ioctl: {
        long r = do_ioctl((int)a[0], (unsigned long)a[1], (void *)a[2], &handled);
        if (handled) return r;
        break;
    }
    case SYS_close: {
        int r = do_close((int)a[0], &handled);
        if (handled) return r;
        break;
    }
    case SYS_mmap: {
        void *r = do_mmap((size_t)a[1], (int)a[4], (off_t)a[5], &handled);
        if (handled) return (long)r;
        break;
    }
    case SYS_munmap:
        if (fake_memory((void *)a[0])) return 0;
        break;
    case SYS_read:
        pthread_mutex_lock(&lock);
        handled = find((int)a[0]) != NULL;
        pthread_mutex_unlock(&lock);
        if (handled) { errno = EINVAL; return -1; }
        break;
    }
    return real_syscall(number, a[0], a[1], a[2], a[3], a[4], a[5]);
}

static int open_common(int dirfd, const char *path, int flags, mode_t mode) {
    pthread_mutex_lock(&lock);
    setup();
    if (claimed(path) >= 0) {
        int fd = fake_open(path, flags);
        pthread_mutex_unlock(&lock);
        return fd;
    }
    pthread_mutex_unlock(&lock);
    return (int)real_syscall(SYS_openat, dirfd, path, flags, mode);
}

static mode_t mode_arg(int flags, va_list ap) { return (flags & (O_CREAT | O_TMPFILE)) ? va_arg(ap, mode_t) : 0; }
int open(const char *path, int flags, ...) { va_list ap; va_start(ap, flags); mode_t m = mode_arg(flags, ap); va_end(ap); return open_common(AT_FDCWD, path, flags, m); }
int open64(const char *path, int flags, ...) { va_list ap; va_start(ap, flags); mode_t m = mode_arg(flags, ap); va_end(ap); return open_common(AT_FDCWD, path, flags, m); }
int openat(int dirfd, const char *path, int flags, ...) { va_list ap; va_start(ap, flags); mode_t m = mode_arg(flags, ap); va_end(ap); return open_common(dirfd, path, flags, m); }
int openat64(int dirfd, const char *path, int flags, ...) { va_list ap; va_start(ap, flags); mode_t m = mode_arg(flags, ap); va_end(ap); return open_common(dirfd, path, flags, m); }

int close(int fd) {
    int handled;
    int r = do_close(fd, &handled);
    return handled ? r : real_close(fd);
}

int ioctl(int fd, unsigned long request, ...) {
    va_list ap;
    va_start(ap, request);
    void *arg = va_arg(ap, void *);
    va_end(ap);
    int handled;
    long r = do_ioctl(fd, request, arg, &handled);
    return handled ? (int)r : real_ioctl(fd, request, arg);
}

void *mmap(void *address, size_t length, int prot, int flags, int fd, off_t offset) {
    int handled;
    void *r = do_mmap(length, fd, offset, &handled);
    return handled ? r : real_mmap(address, length, prot, flags, fd, offset);
}
void *mmap64(void *address, size_t length, int prot, int flags, int fd, off_t offset) { return mmap(address, length, prot, flags, fd, offset); }

int munmap(void *address, size_t length) {
    if (!real_munmap) { pthread_mutex_lock(&lock); setup(); pthread_mutex_unlock(&lock); }
    return fake_memory(address) ? 0 : real_munmap(address, length);
}

ssize_t read(int fd, void *buffer, size_t count) {
    pthread_mutex_lock(&lock);
    setup();
    int handled = find(fd) != NULL;
    pthread_mutex_unlock(&lock);
    if (handled) { errno = EINVAL; return -1; }
    return real_read(fd, buffer, count);
}

int fstat(int fd, struct stat *st) {
    pthread_mutex_lock(&lock);
    setup();
    struct handle *h = find(fd);
    int index = h ? h->device : -1;
    pthread_mutex_unlock(&lock);
    if (!h) return real_fstat(fd, st);
    memset(st, 0, sizeof *st);
    st->st_mode = S_IFCHR | 0660;
    st->st_rdev = makedev(81, (unsigned)index);
    return 0;
}
int fstat64(int fd, struct stat64 *st) { return fstat(fd, (struct stat *)st); }

int poll(struct pollfd *fds, nfds_t count, int timeout) {
    pthread_mutex_lock(&lock);
    setup();
    struct handle *h = count == 1 ? find(fds[0].fd) : NULL;
    pthread_mutex_unlock(&lock);
    if (!h) return real_poll(fds, count, timeout);
    int64_t deadline = now_us(CLOCK_MONOTONIC) + (int64_t)timeout * 1000;
    while (1) {
        pthread_mutex_lock(&lock);
        h = find(fds[0].fd);
        short revents = 0;
        if (!h || h->generation_dead || !devices[h->device].present) revents = POLLERR | POLLHUP;
        else {
            long pollerr = env_long("FAKEV4L2_POLLERR_AFTER", -1);
            if (pollerr >= 0 && h->streaming && h->produced >= (uint32_t)pollerr) revents = POLLERR;
            else if (produce(h)) revents = POLLIN | POLLRDNORM;
            else if (!h->streaming) revents = POLLERR;
        }
        pthread_mutex_unlock(&lock);
        if (revents) { fds[0].revents = revents; return 1; }
        int64_t now = now_us(CLOCK_MONOTONIC);
        if (timeout >= 0 && now >= deadline) { fds[0].revents = 0; return 0; }
        usleep(2000);
    }
}
