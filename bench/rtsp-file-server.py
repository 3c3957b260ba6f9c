#!/usr/bin/python3
"""Cheap RTSP cameras for bench/cameras.sh: gst-rtsp-server playing one H.264 + AAC MP4 file as N mounts.

Run with Debian's /usr/bin/python3 (python3-gi, gir1.2-gst-rtsp-server-1.0, gstreamer1.0-plugins-good
and -bad for qtdemux, h264parse, aacparse and the payloaders).

Usage: rtsp-file-server.py FILE.mp4 --cameras N [--port P] [--parent PID]

Serves rtsp://127.0.0.1:PORT/cam1 .. /camN on loopback only and prints `READY rtsp://127.0.0.1:PORT`
once it accepts connections. Each mount only packetizes the file (filesrc ! qtdemux ! h264parse !
rtph264pay, and the AAC through aacparse ! rtpmp4gpay), paced in real time by the server's sinks:
nothing is generated or encoded here, unlike Tests/Support/rtsp/rtsp-server.py, which makes and
encodes every client's frames in Python. A mount's media is shared: its clients get the same packets
at the same moments, and the file is read once per mount (cameras.sh and floor.sh give each of their
processes a mount of its own, since a later client of a shared mount costs more than the first:
rtsp-position.sh). The file does not loop: make it longer than the run. A new pipeline (from the file's start)
is made when a mount gets a client after all its earlier ones left. The mounts do not seek, as a
live camera does not: libavformat asks every PLAY for `Range: npt=0.000-`, and gst-rtsp-server would
seek the shared file back to its start for all of the mount's clients (those already playing got
their first pictures again, and the joining one first packets seconds apart). With --parent, exits
when that process does.
"""

import argparse
import os
import sys

import gi

gi.require_version("Gst", "1.0")
gi.require_version("GstRtspServer", "1.0")
from gi.repository import GLib, Gst, GstRtspServer  # noqa: E402


def launch(path):
    # config-interval=-1: SPS and PPS before every IDR, as cameras send them, so a client joining a
    # shared stream mid-way can start at the next keyframe.
    return (f"( filesrc location={path} ! qtdemux name=d "
            "d.video_0 ! queue ! h264parse ! rtph264pay name=pay0 pt=96 config-interval=-1 "
            "d.audio_0 ! queue ! aacparse ! rtpmp4gpay name=pay1 pt=97 )")


def unseekable(_pad, info):
    # A SEEKING query answered without an answer says "not seekable" (a fresh query's default),
    # and gst-rtsp-media then plays a PLAY's Range from where the mount is.
    query = info.get_query()
    return Gst.PadProbeReturn.HANDLED if query.type == Gst.QueryType.SEEKING else Gst.PadProbeReturn.OK


def unseekable_media(_factory, media):
    """A mount's media, made unseekable (see the header) by its payloaders' answer to SEEKING."""
    pipeline = media.get_element()
    for name in ("pay0", "pay1"):
        pipeline.get_by_name(name).get_static_pad("src").add_probe(Gst.PadProbeType.QUERY_UPSTREAM, unseekable)


def main():
    parser = argparse.ArgumentParser(description="N RTSP cameras playing one MP4 file (see the header).")
    parser.add_argument("file")
    parser.add_argument("--cameras", type=int, default=1)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--parent", type=int)
    args = parser.parse_args()
    if not os.path.isfile(args.file):
        parser.error(f"no file {args.file}")

    Gst.init(None)
    server = GstRtspServer.RTSPServer()
    server.set_address("127.0.0.1")
    server.set_service(str(args.port))
    mounts = server.get_mount_points()
    for k in range(1, args.cameras + 1):
        factory = GstRtspServer.RTSPMediaFactory()
        factory.set_launch(launch(os.path.abspath(args.file)))
        factory.set_shared(True)
        factory.connect("media-configure", unseekable_media)
        mounts.add_factory(f"/cam{k}", factory)
    if server.attach(None) == 0:
        print(f"rtsp-file-server: cannot listen on 127.0.0.1:{args.port} (in use?)", file=sys.stderr)
        return 1
    loop = GLib.MainLoop()
    if args.parent:
        try:
            parent = os.pidfd_open(args.parent)
        except ProcessLookupError:
            return 0
        GLib.io_add_watch(parent, GLib.IO_IN, lambda *_: loop.quit())
    print(f"READY rtsp://127.0.0.1:{server.get_bound_port()}", flush=True)
    loop.run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
