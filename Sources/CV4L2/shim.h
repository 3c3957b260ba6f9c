// Shims for libv4l2 and videodev2.h: v4l2_ioctl is variadic and the VIDIOC_* requests are macros,
// neither of which Swift imports. One constant per request rec uses.
#ifndef CV4L2_SHIM_H
#define CV4L2_SHIM_H

#include <errno.h>
#include <stdint.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <linux/videodev2.h>
#include <libv4l2.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static pthread_once_t cv4l2_log_once = PTHREAD_ONCE_INIT;
static inline void cv4l2_silence_log(void) {
    // libv4l2 logs every failed call (a DQBUF with no frame ready, ~30 times a second) to stderr
    // unless v4l2_log_file is set; FFmpeg points it at /dev/null too.
    FILE *null_log = fopen("/dev/null", "we");
    if (null_log) v4l2_log_file = null_log;
}

/// open(2), then v4l2_fd_open with V4L2_DISABLE_CONVERSION: libv4l2 then lists and sets the
/// camera's own formats (with conversion on, a camera libv4lcontrol wants to flip in software lists
/// only emulated RGB/YUV420 formats). Plugins still load: libv4l-mplane makes single-plane
/// multi-planar devices look single-planar, and prints "Using mplane plugin for capture" to stdout,
/// so fd 1 points at /dev/null meanwhile (rec's stdout may be JSON). Another thread's stdout write
/// during those microseconds would be lost; rec opens cameras before it prints anything.
static inline int cv4l2_open(const char *path, int flags) {
    pthread_once(&cv4l2_log_once, cv4l2_silence_log);
    int fd = open(path, flags);
    if (fd < 0) return -1;
    fflush(stdout);
    int saved = dup(1);
    int null_out = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (saved >= 0 && null_out >= 0) dup2(null_out, 1);
    int result = v4l2_fd_open(fd, V4L2_DISABLE_CONVERSION);
    int error = errno;
    fflush(stdout);
    if (saved >= 0) { dup2(saved, 1); close(saved); }
    if (null_out >= 0) close(null_out);
    if (result < 0) { close(fd); errno = error; return -1; }
    return result;
}
static inline int cv4l2_close(int fd) { return v4l2_close(fd); }
static inline int cv4l2_ioctl(int fd, unsigned long request, void *arg) { return v4l2_ioctl(fd, request, arg); }
// The same request with no libv4l2 between (V4L2 M2M codecs, as FFmpeg drives them).
static inline int cv4l2_kernel_ioctl(int fd, unsigned long request, void *arg) { return ioctl(fd, request, arg); }
static inline void *cv4l2_mmap(void *start, size_t length, int prot, int flags, int fd, int64_t offset) {
    return v4l2_mmap(start, length, prot, flags, fd, offset);
}
static inline int cv4l2_munmap(void *start, size_t length) { return v4l2_munmap(start, length); }
static inline int cv4l2_errno(void) { return errno; }

static const unsigned long CV4L2_VIDIOC_QUERYCAP = VIDIOC_QUERYCAP;
static const unsigned long CV4L2_VIDIOC_ENUM_FMT = VIDIOC_ENUM_FMT;
static const unsigned long CV4L2_VIDIOC_ENUM_FRAMESIZES = VIDIOC_ENUM_FRAMESIZES;
static const unsigned long CV4L2_VIDIOC_ENUM_FRAMEINTERVALS = VIDIOC_ENUM_FRAMEINTERVALS;
static const unsigned long CV4L2_VIDIOC_G_FMT = VIDIOC_G_FMT;
static const unsigned long CV4L2_VIDIOC_S_FMT = VIDIOC_S_FMT;
static const unsigned long CV4L2_VIDIOC_TRY_FMT = VIDIOC_TRY_FMT;
static const unsigned long CV4L2_VIDIOC_G_PARM = VIDIOC_G_PARM;
static const unsigned long CV4L2_VIDIOC_S_PARM = VIDIOC_S_PARM;
static const unsigned long CV4L2_VIDIOC_REQBUFS = VIDIOC_REQBUFS;
static const unsigned long CV4L2_VIDIOC_QUERYBUF = VIDIOC_QUERYBUF;
static const unsigned long CV4L2_VIDIOC_QBUF = VIDIOC_QBUF;
static const unsigned long CV4L2_VIDIOC_DQBUF = VIDIOC_DQBUF;
static const unsigned long CV4L2_VIDIOC_STREAMON = VIDIOC_STREAMON;
static const unsigned long CV4L2_VIDIOC_STREAMOFF = VIDIOC_STREAMOFF;

// Pixel formats (v4l2_fourcc is a function-like macro, so Swift cannot see V4L2_PIX_FMT_*).
static const uint32_t CV4L2_PIX_FMT_YUYV = V4L2_PIX_FMT_YUYV;
static const uint32_t CV4L2_PIX_FMT_UYVY = V4L2_PIX_FMT_UYVY;
static const uint32_t CV4L2_PIX_FMT_NV12 = V4L2_PIX_FMT_NV12;
static const uint32_t CV4L2_PIX_FMT_YUV420 = V4L2_PIX_FMT_YUV420;
static const uint32_t CV4L2_PIX_FMT_MJPEG = V4L2_PIX_FMT_MJPEG;
static const uint32_t CV4L2_PIX_FMT_JPEG = V4L2_PIX_FMT_JPEG;
static const uint32_t CV4L2_PIX_FMT_H264 = V4L2_PIX_FMT_H264;
static const uint32_t CV4L2_PIX_FMT_RGB24 = V4L2_PIX_FMT_RGB24;
static const uint32_t CV4L2_PIX_FMT_GREY = V4L2_PIX_FMT_GREY;

// Capability flags (struct v4l2_capability.capabilities / device_caps).
static const uint32_t CV4L2_CAP_VIDEO_CAPTURE = V4L2_CAP_VIDEO_CAPTURE;
static const uint32_t CV4L2_CAP_STREAMING = V4L2_CAP_STREAMING;
static const uint32_t CV4L2_CAP_DEVICE_CAPS = V4L2_CAP_DEVICE_CAPS;
static const uint32_t CV4L2_CAP_META_CAPTURE = V4L2_CAP_META_CAPTURE;
static const uint32_t CV4L2_CAP_TIMEPERFRAME = V4L2_CAP_TIMEPERFRAME;
static const uint32_t CV4L2_CAP_IO_MC = V4L2_CAP_IO_MC;
static const uint32_t CV4L2_CAP_VIDEO_CAPTURE_MPLANE = V4L2_CAP_VIDEO_CAPTURE_MPLANE;

// Field orders (struct v4l2_pix_format.field).
static const uint32_t CV4L2_FIELD_TOP = V4L2_FIELD_TOP;
static const uint32_t CV4L2_FIELD_BOTTOM = V4L2_FIELD_BOTTOM;
static const uint32_t CV4L2_FIELD_INTERLACED = V4L2_FIELD_INTERLACED;
static const uint32_t CV4L2_FIELD_SEQ_TB = V4L2_FIELD_SEQ_TB;
static const uint32_t CV4L2_FIELD_SEQ_BT = V4L2_FIELD_SEQ_BT;
static const uint32_t CV4L2_FIELD_ALTERNATE = V4L2_FIELD_ALTERNATE;
static const uint32_t CV4L2_FIELD_INTERLACED_TB = V4L2_FIELD_INTERLACED_TB;
static const uint32_t CV4L2_FIELD_INTERLACED_BT = V4L2_FIELD_INTERLACED_BT;

// Colour (struct v4l2_pix_format.colorspace, ycbcr_enc, quantization, xfer_func).
static const uint32_t CV4L2_COLORSPACE_SMPTE170M = V4L2_COLORSPACE_SMPTE170M;
static const uint32_t CV4L2_COLORSPACE_REC709 = V4L2_COLORSPACE_REC709;
static const uint32_t CV4L2_COLORSPACE_SRGB = V4L2_COLORSPACE_SRGB;
static const uint32_t CV4L2_COLORSPACE_JPEG = V4L2_COLORSPACE_JPEG;
static const uint32_t CV4L2_COLORSPACE_BT2020 = V4L2_COLORSPACE_BT2020;
static const uint32_t CV4L2_COLORSPACE_470_SYSTEM_BG = V4L2_COLORSPACE_470_SYSTEM_BG;
static const uint32_t CV4L2_YCBCR_ENC_601 = V4L2_YCBCR_ENC_601;
static const uint32_t CV4L2_YCBCR_ENC_709 = V4L2_YCBCR_ENC_709;
static const uint32_t CV4L2_YCBCR_ENC_BT2020 = V4L2_YCBCR_ENC_BT2020;
static const uint32_t CV4L2_QUANTIZATION_FULL_RANGE = V4L2_QUANTIZATION_FULL_RANGE;
static const uint32_t CV4L2_QUANTIZATION_LIM_RANGE = V4L2_QUANTIZATION_LIM_RANGE;

// Buffer flags (struct v4l2_buffer.flags).
static const uint32_t CV4L2_BUF_FLAG_MAPPED = V4L2_BUF_FLAG_MAPPED;
static const uint32_t CV4L2_BUF_FLAG_QUEUED = V4L2_BUF_FLAG_QUEUED;
static const uint32_t CV4L2_BUF_FLAG_DONE = V4L2_BUF_FLAG_DONE;
static const uint32_t CV4L2_BUF_FLAG_ERROR = V4L2_BUF_FLAG_ERROR;
static const uint32_t CV4L2_BUF_FLAG_TIMESTAMP_MASK = V4L2_BUF_FLAG_TIMESTAMP_MASK;
static const uint32_t CV4L2_BUF_FLAG_TIMESTAMP_MONOTONIC = V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC;
static const uint32_t CV4L2_FMT_FLAG_COMPRESSED = V4L2_FMT_FLAG_COMPRESSED;
static const uint32_t CV4L2_FMT_FLAG_EMULATED = V4L2_FMT_FLAG_EMULATED;

// Enumerations, as plain integers for the structs' __u32 fields.
static const uint32_t CV4L2_BUF_TYPE_VIDEO_CAPTURE = V4L2_BUF_TYPE_VIDEO_CAPTURE;
static const uint32_t CV4L2_MEMORY_MMAP = V4L2_MEMORY_MMAP;
static const uint32_t CV4L2_FIELD_ANY = V4L2_FIELD_ANY;
static const uint32_t CV4L2_FIELD_NONE = V4L2_FIELD_NONE;
static const uint32_t CV4L2_FRMSIZE_TYPE_DISCRETE = V4L2_FRMSIZE_TYPE_DISCRETE;
static const uint32_t CV4L2_FRMSIZE_TYPE_CONTINUOUS = V4L2_FRMSIZE_TYPE_CONTINUOUS;
static const uint32_t CV4L2_FRMSIZE_TYPE_STEPWISE = V4L2_FRMSIZE_TYPE_STEPWISE;
static const uint32_t CV4L2_FRMIVAL_TYPE_DISCRETE = V4L2_FRMIVAL_TYPE_DISCRETE;
static const uint32_t CV4L2_FRMIVAL_TYPE_CONTINUOUS = V4L2_FRMIVAL_TYPE_CONTINUOUS;
static const uint32_t CV4L2_FRMIVAL_TYPE_STEPWISE = V4L2_FRMIVAL_TYPE_STEPWISE;

// mmap(2) results and flags for the seam.
static void *const CV4L2_MAP_FAILED = MAP_FAILED;

// ---- Camera controls and M2M encoder probing (branch controls) --------------------------------
static const unsigned long CV4L2_VIDIOC_QUERY_EXT_CTRL = VIDIOC_QUERY_EXT_CTRL;
static const unsigned long CV4L2_VIDIOC_QUERYMENU = VIDIOC_QUERYMENU;
static const unsigned long CV4L2_VIDIOC_G_CTRL = VIDIOC_G_CTRL;
static const unsigned long CV4L2_VIDIOC_S_CTRL = VIDIOC_S_CTRL;
static const uint32_t CV4L2_CTRL_FLAG_NEXT_CTRL = V4L2_CTRL_FLAG_NEXT_CTRL;
static const uint32_t CV4L2_CTRL_FLAG_DISABLED = V4L2_CTRL_FLAG_DISABLED;
static const uint32_t CV4L2_CTRL_FLAG_GRABBED = V4L2_CTRL_FLAG_GRABBED;
static const uint32_t CV4L2_CTRL_FLAG_READ_ONLY = V4L2_CTRL_FLAG_READ_ONLY;
static const uint32_t CV4L2_CTRL_FLAG_INACTIVE = V4L2_CTRL_FLAG_INACTIVE;
static const uint32_t CV4L2_CTRL_FLAG_WRITE_ONLY = V4L2_CTRL_FLAG_WRITE_ONLY;
static const uint32_t CV4L2_CTRL_FLAG_VOLATILE = V4L2_CTRL_FLAG_VOLATILE;
static const uint32_t CV4L2_CTRL_TYPE_INTEGER = V4L2_CTRL_TYPE_INTEGER;
static const uint32_t CV4L2_CTRL_TYPE_BOOLEAN = V4L2_CTRL_TYPE_BOOLEAN;
static const uint32_t CV4L2_CTRL_TYPE_MENU = V4L2_CTRL_TYPE_MENU;
static const uint32_t CV4L2_CTRL_TYPE_BUTTON = V4L2_CTRL_TYPE_BUTTON;
static const uint32_t CV4L2_CTRL_TYPE_INTEGER64 = V4L2_CTRL_TYPE_INTEGER64;
static const uint32_t CV4L2_CTRL_TYPE_CTRL_CLASS = V4L2_CTRL_TYPE_CTRL_CLASS;
static const uint32_t CV4L2_CTRL_TYPE_STRING = V4L2_CTRL_TYPE_STRING;
static const uint32_t CV4L2_CTRL_TYPE_BITMASK = V4L2_CTRL_TYPE_BITMASK;
static const uint32_t CV4L2_CTRL_TYPE_INTEGER_MENU = V4L2_CTRL_TYPE_INTEGER_MENU;
static const uint32_t CV4L2_CAP_VIDEO_M2M = V4L2_CAP_VIDEO_M2M;
static const uint32_t CV4L2_CAP_VIDEO_M2M_MPLANE = V4L2_CAP_VIDEO_M2M_MPLANE;
static const uint32_t CV4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE = V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE;
// struct v4l2_querymenu is packed with an anonymous union: read and write it through these.
static inline const char *cv4l2_querymenu_name(const struct v4l2_querymenu *m) { return (const char *)m->name; }
static inline int64_t cv4l2_querymenu_value(const struct v4l2_querymenu *m) { return m->value; }
static inline void cv4l2_querymenu_set_value(struct v4l2_querymenu *m, int64_t v) { m->value = v; }
static inline char *cv4l2_querymenu_name_buffer(struct v4l2_querymenu *m) { return (char *)m->name; }
// ---- end controls block ------------------------------------------------------------------------
#endif
