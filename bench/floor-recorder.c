// The floor for issue 21's CPU target: the least a recorder built on libavformat can do for a
// network camera. It reads the camera (`-rtsp_transport tcp`, as the ffmpeg CLI is told), writes
// every packet to a fragmented MP4 with av_interleaved_write_frame, and with `ring` also copies
// each packet's bytes into a 60 s ring of memory, as rec's ring keeps them. Nothing else: no
// timeline, no status, no outage handling, no sound re-encoding. bench/floor.sh builds and runs it
// beside the ffmpeg CLI and rec; bench/README.md has the figures.
//
//   floor-recorder URL OUT.mp4 [frag_duration_us] [ring]
#include <libavformat/avformat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: floor-recorder URL OUT.mp4 [frag_duration_us] [ring]\n"); return 64; }
    const char *frag = argc > 3 ? argv[3] : "0";
    int ring = argc > 4 && strcmp(argv[4], "ring") == 0;
    av_log_set_level(AV_LOG_ERROR);
    avformat_network_init();
    AVDictionary *in_opts = NULL;
    av_dict_set(&in_opts, "rtsp_transport", "tcp", 0);
    AVFormatContext *in = NULL;
    if (avformat_open_input(&in, argv[1], NULL, &in_opts) < 0 || avformat_find_stream_info(in, NULL) < 0) {
        fprintf(stderr, "cannot open %s\n", argv[1]);
        return 1;
    }
    AVFormatContext *out = NULL;
    if (avformat_alloc_output_context2(&out, NULL, "mp4", argv[2]) < 0) { fprintf(stderr, "no mp4 muxer\n"); return 1; }
    for (unsigned i = 0; i < in->nb_streams; i++) {
        AVStream *s = avformat_new_stream(out, NULL);
        avcodec_parameters_copy(s->codecpar, in->streams[i]->codecpar);
        s->codecpar->codec_tag = 0;
        s->time_base = in->streams[i]->time_base;
    }
    AVDictionary *out_opts = NULL;
    av_dict_set(&out_opts, "movflags", "frag_keyframe+empty_moov+default_base_moof", 0);
    if (strcmp(frag, "0") != 0) av_dict_set(&out_opts, "frag_duration", frag, 0);
    if (avio_open(&out->pb, argv[2], AVIO_FLAG_WRITE) < 0 || avformat_write_header(out, &out_opts) < 0) {
        fprintf(stderr, "cannot write %s\n", argv[2]);
        return 1;
    }
    // The ring: a circle of 64 MB, bytes copied in and overwritten in turn (60 s of a 3 Mb/s
    // camera is 24 MB), with a start time per packet as an index would keep.
    size_t ring_size = 64u << 20, ring_at = 0;
    unsigned char *bytes = ring ? malloc(ring_size) : NULL;
    int64_t *index = ring ? calloc(1 << 16, sizeof(int64_t)) : NULL;
    unsigned packets = 0;
    AVPacket *p = av_packet_alloc();
    while (av_read_frame(in, p) >= 0) {
        if (ring) {
            if (ring_at + p->size > ring_size) ring_at = 0;
            memcpy(bytes + ring_at, p->data, p->size);
            ring_at += p->size;
            index[packets++ & 0xffff] = p->pts;
        }
        AVStream *is = in->streams[p->stream_index], *os = out->streams[p->stream_index];
        av_packet_rescale_ts(p, is->time_base, os->time_base);
        p->pos = -1;
        if (av_interleaved_write_frame(out, p) < 0) break;
    }
    av_write_trailer(out);
    avio_closep(&out->pb);
    return 0;
}
