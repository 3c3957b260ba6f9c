#!/usr/bin/python3
"""A stand-in network camera for rec's tests: GStreamer's RTSP server (gst-rtsp-server) on loopback.

Run with Debian's /usr/bin/python3 (python3-gi, gir1.2-gst-rtsp-server-1.0, gstreamer1.0-plugins-*,
gstreamer1.0-libav). It listens on 127.0.0.1 only and prints one line, `READY rtsp://127.0.0.1:PORT`,
on stdout once it accepts connections; errors go to stderr and exit 1.

Options:
  --port N              the port (0, the default, picks a free one; the READY line says which)
  --size WxH            the picture size (default 640x360; even, at least 128x64)
  --user U --password P every mount then asks for these: none or wrong ones get 401 Unauthorized
  --auth basic|digest   the method the server asks for (default basic)
  --parent PID          exit when process PID exits (the test that started us), so no server outlives it

Mounts (every one 30 fps, sound 48 kHz mono before its encoder):
  /h264           H.264 (x264, no B-frames, an IDR every 30 frames = 1 s) + AAC (mpeg4-generic)
  /h264-bframes   H.264 with 2 B-frames and a B-pyramid (PTS differs from DTS) + AAC
  /h265           H.265 (x265, no B-frames, an IDR every 1 s) + AAC
  /long-gop       H.264, an IDR every 120 frames (4 s) + AAC
  /pcma, /pcmu    H.264 + G.711 A-law / mu-law at 8 kHz
  /opus           H.264 + Opus
  /silent         H.264, no sound
  /no-rtcp        as /h264 but without RTCP (no sender reports); every other mount sends them
  /jump           as /h264, but at 4 s of stream time (frame 120, sample 192000) the RTP timestamps of both
                  streams jump 20 s forward while the packets keep their pace
  /jump-back      as /jump, but the timestamps go back 5 s at 4 s
                  (The sender reports that follow map the new RTP times to an unbroken wall clock, and
                  libavformat, which times packets by them once it has one, shows the jump only until the
                  next report, a few seconds later.)
  /jump-no-rtcp, /jump-back-no-rtcp   the same without RTCP: the jump stays in libavformat's times
  /late-keyframe  H.264 with an IDR every 180 frames (6 s) + AAC, whose first IDR is never sent: a client
                  gets P-frames (referring to a picture it never had) from connecting and its first keyframe
                  6 s after the first frame, as when it joins a camera's stream mid-GOP
  /h264-sliced    H.264 from x264's zerolatency tune with two slices a picture (sliced threads), an IDR every
                  60 frames, the payloader's SPS and PPS before every IDR slice (between a picture's slices),
                  + AAC: libavformat hands out each keyframe as two packets of one time
  /h264-sdp-only  as /h264, but SPS and PPS only in the SDP (sprop-parameter-sets, payloader config-interval=0),
                  never in the stream, as some cameras send them
  /h264-aud-sei   as /h264, with an access unit delimiter and a picture timing SEI (x264 pic-struct) before
                  every picture, and x264's own SEI (its version) in the first IDR
  /h264-baseline  H.264 constrained baseline (CAVLC, no 8x8 transform, no B-frames) + AAC
  /h264-main      H.264 main with 2 B-frames, no B-pyramid + AAC
  /h264-high      H.264 high (8x8 transform) with 3 B-frames and a B-pyramid + AAC
  /h265-bframes   H.265 (x265) with 3 B-frames, an IDR every 60 frames, VPS, SPS and PPS with every IDR + AAC
  /mjpeg          Motion JPEG over RTP (RFC 2435, jpegenc quality 85) + G.711 mu-law: RTP/JPEG gives sizes in
                  8-pixel units, so a height that is not a multiple of 8 arrives rounded up (90 as 96)
  /two-sounds     as /h264 with a second sound stream, Opus (pay2, payload type 98), beside the AAC: both
                  carry the same sound, each led by its own encoder's priming
  /h264-shared    as /h264, but one stream for every client, as a real camera sends: it starts with the
                  first client, and later ones join it where it is (their first keyframe on the next whole
                  second), so clients that overlap receive the same frames, numbered the same
  /motion         H.264 as /h264, no sound, with the counter and the second mark but no moving bar: a scene
                  for motion detection (see Content) where only a square moves, at known frames

Content: every client gets its own pipeline (except on /h264-shared), so each one receives the same frames
and samples from frame 0 and sample 0 (the media are not shared), generated here, never depending on the machine's speed: the sinks
pace them in real time, forever. In a WxH picture (I420, limited range):
  - background luma 128 (grey), chroma 128; a vertical bar of luma 235, 8 px wide and the full height, at
    x = 4n mod (W - 8) on frame n, so consecutive frames differ as a camera's do;
  - on /motion, no bar but a square of luma 235, S = max(8, (H // 8) & ~1) px a side, its top at
    (H - S) // 2, its left at x0 = W // 8 on frames 0..149; with step = max(1, (5 W // 8) // 90) it
    moves right by step each frame from 150 to 239 (frame n at x0 + (n - 149) step), stands at
    x0 + 90 step on frames 239..599, moves left by 3 step each frame from 600 to 629 (frame n at
    x0 + 90 step - 3 (n - 599) step) and stands at x0 from frame 629 on, forever. So the frames that
    differ from the one before in more than the counter and the mark are exactly 150..239 and
    600..629 (5.0 s to 7.97 s and 20.0 s to 20.97 s); in 160x90, a 10 px square moving 1 px a frame;
  - the frame counter: 16 blocks of B x B pixels in the top-left corner, B = max(8, (W // 32) & ~7), block i
    (from the left) white (luma 235) when bit i of n is 1, else black (16): n mod 65536, least bit first;
  - the second mark: the bottom-left eighth each way ((W // 8) & ~1 by (H // 8) & ~1 pixels, at the bottom
    edge), black (16) except on frames n = 0, 30, 60, ..., where it is white (235);
  - the sound: a 440 Hz sine at 0.1 with a click at samples 0, 48000, 96000, ... (+0.8 for 48 samples, then
    -0.8 for 48), so the click starts with the flash of the same second. AAC's encoder delays what it
    codes by 1024 samples of priming that RTP cannot signal, so on AAC mounts the sound enters the
    encoder 1024 samples ahead: decoded, each click lands on its flash, and the first (at 0) falls in
    the priming, so clicks start at 1 s. (Measured through ffmpeg: within 0.5 ms for AAC, G.711, Opus.)
These are the stand-in signals of the sound tests (Tests/RecCLITests/Sound/SoundProbe.swift measures them);
the counter names each frame, so a test can match a recording's frames to the camera's.
"""

import argparse
import math
import os
import sys

import gi

gi.require_version("Gst", "1.0")
gi.require_version("GstRtsp", "1.0")
gi.require_version("GstRtspServer", "1.0")
from gi.repository import GLib, Gst, GstRtsp, GstRtspServer  # noqa: E402

FPS = 30
RATE = 48000
COUNTER_BITS = 16
# AAC's encoder puts 1024 samples of priming before the first input sample, and RTP says nothing of it,
# so a receiver decodes each sample 1024 late: the sound goes in that far ahead (see Feed._need_sound).
PRIMING = {"aac": 1024}
JUMP_AT = 4                  # seconds of stream time
BASE_OFFSET = 10 * Gst.SECOND  # jump mounts run 10 s ahead in running time, so going back 5 s stays positive


class Picture:
    """The frames: a precomputed background with the bar, counter and mark stamped per frame."""

    def __init__(self, width, height):
        self.width, self.height = width, height
        self.block = max(8, (width // 32) & ~7)
        self.mark_w, self.mark_h = (width // 8) & ~1, (height // 8) & ~1
        self.luma = width * height
        self.chroma = (width // 2) * (height // 2)
        self.background = bytes([128]) * (self.luma + 2 * self.chroma)

    def _fill(self, frame, x, y, w, h, luma):
        row = bytes([luma]) * w
        for line in range(y, y + h):
            start = line * self.width + x
            frame[start:start + w] = row

    def _neutral(self, frame, x, y, w, h):
        """Chroma 128 under a luma rectangle (x, y, w, h even), so white is white."""
        half = self.width // 2
        row = bytes([128]) * (w // 2)
        for plane in (self.luma, self.luma + self.chroma):
            for line in range(y // 2, (y + h) // 2):
                start = plane + line * half + x // 2
                frame[start:start + w // 2] = row

    def square_x(self, n):
        """Where the /motion mount's square stands on frame n (the header gives the schedule)."""
        step = max(1, (5 * self.width // 8) // 90)
        x0 = self.width // 8
        if n < 150:
            return x0
        if n < 240:
            return x0 + (n - 149) * step
        if n < 600:
            return x0 + 90 * step
        if n < 630:
            return x0 + 90 * step - 3 * (n - 599) * step
        return x0

    def frame(self, n, scene="bar"):
        frame = bytearray(self.background)
        if scene == "square":
            side = max(8, (self.height // 8) & ~1)
            self._fill(frame, self.square_x(n), (self.height - side) // 2, side, side, 235)
        else:
            self._fill(frame, (4 * n) % (self.width - 8), 0, 8, self.height, 235)
        b = self.block
        for bit in range(COUNTER_BITS):
            self._fill(frame, bit * b, 0, b, b, 235 if (n >> bit) & 1 else 16)
        self._fill(frame, 0, self.height - self.mark_h, self.mark_w, self.mark_h, 235 if n % FPS == 0 else 16)
        return bytes(frame)


def one_second_of_sound():
    """48000 samples, S16LE: the 440 Hz sine (a whole number of cycles a second) and the click at sample 0."""
    samples = bytearray()
    for i in range(RATE):
        value = 0.1 * math.sin(2 * math.pi * 440 * i / RATE)
        if i < RATE // 1000:
            value += 0.8
        elif i < 2 * RATE // 1000:
            value -= 0.8
        samples += int(round(value * 32767)).to_bytes(2, "little", signed=True)
    return bytes(samples)


def encoder(name, fallback=None):
    """The first of these GStreamer elements that is installed."""
    for candidate in (name, fallback):
        if candidate and Gst.ElementFactory.find(candidate):
            return candidate
    raise SystemExit(f"rtsp-server: GStreamer element {name} is not installed (gstreamer1.0-libav or -plugins-bad)")


def video_branch(codec, gop, bframes=0, sliced=False, profile=None, config_interval=-1, aud=False, sei=False):
    """The picture's encoder and payloader (pay0): `config_interval` -1 sends SPS and PPS (VPS) before every
    IDR, 0 only in the SDP's sprop-parameter-sets (x264 in avc form keeps them out of the pictures)."""
    if codec == "mjpeg":
        return "jpegenc quality=85 ! rtpjpegpay name=pay0 pt=26"
    if codec == "h265":
        options = f"bframes={bframes}:scenecut=0:repeat-headers=1:frame-threads=1:pools=1"
        return (f"x265enc speed-preset=ultrafast key-int-max={gop} option-string={options} "
                f"! video/x-h265,profile=main ! rtph265pay name=pay0 pt=96 config-interval={config_interval}")
    if sliced:
        # x264's low-latency tune as cameras use it: two slices a picture (sliced threads), and the
        # payloader's parameter sets before every IDR slice, so SPS and PPS sit between a picture's slices.
        return (f"x264enc speed-preset=ultrafast tune=zerolatency threads=2 sliced-threads=true key-int-max={gop} option-string=slices=2 "
                f"! video/x-h264,stream-format=avc,alignment=au ! rtph264pay name=pay0 pt=96 config-interval={config_interval}")
    # The payloader accepts constrained-baseline first, which has no B-frames: ask for main when they are wanted.
    pyramid = ":b-pyramid=normal" if bframes > 1 and profile != "main" else ":b-pyramid=none"
    profile = profile or ("main" if bframes > 1 else None)
    extra = ""
    if aud:
        extra += " aud=true"
    if sei:
        # A picture timing SEI in every picture (pic_struct), beside x264's own SEI in the first IDR.
        pyramid += ":pic-struct=1"
    if profile == "baseline":
        extra += " cabac=false dct8x8=false"
    if profile == "high":
        extra += " dct8x8=true"   # ultrafast turns it off, and without it x264 writes main
    caps = f",profile={'constrained-baseline' if profile == 'baseline' else profile}" if profile else ""
    options = f"scenecut=0:bframes={bframes}:b-adapt=0{pyramid}"
    return (f"x264enc speed-preset=ultrafast pass=qual quantizer=20 threads=1 key-int-max={gop} bframes={bframes} "
            f"b-adapt=false{extra} option-string={options} ! video/x-h264,stream-format=avc,alignment=au{caps} "
            f"! rtph264pay name=pay0 pt=96 config-interval={config_interval}")


def audio_branch(codec, perfect_time, pay="pay1", pt=97):
    perfect = "" if perfect_time else " perfect-rtptime=false"
    if codec == "aac":
        return f"audioconvert ! {encoder('avenc_aac', 'voaacenc')} bitrate=64000 ! rtpmp4gpay name={pay} pt={pt}{perfect}"
    if codec == "opus":
        return f"audioconvert ! opusenc bitrate=48000 ! rtpopuspay name={pay} pt={pt}{perfect}"
    coder, payloader = {"pcma": ("alawenc", "rtppcmapay"), "pcmu": ("mulawenc", "rtppcmupay")}[codec]
    return (f"audioconvert ! audioresample ! audio/x-raw,rate=8000,channels=1 ! {coder} "
            f"! {payloader} name={pay}{perfect}")


# Each mount: video codec, GOP in frames, B-frames, sound codec (None: none), jump in seconds (None: none),
# whether RTCP is sent, whether the first IDR is withheld, whether all clients share one stream, and the
# picture's coding (slices, profile, where the parameter sets go, AUD and SEI units), a second sound codec,
# and the scene ("bar": the moving bar; "square": /motion's square).
MOUNTS = {
    "/h264": dict(),
    "/h264-bframes": dict(bframes=2),
    "/h265": dict(video="h265"),
    "/long-gop": dict(gop=4 * FPS),
    "/pcma": dict(audio="pcma"),
    "/pcmu": dict(audio="pcmu"),
    "/opus": dict(audio="opus"),
    "/silent": dict(audio=None),
    "/no-rtcp": dict(rtcp=False),
    "/jump": dict(jump=20),
    "/jump-back": dict(jump=-5),
    "/jump-no-rtcp": dict(jump=20, rtcp=False),
    "/jump-back-no-rtcp": dict(jump=-5, rtcp=False),
    "/late-keyframe": dict(gop=6 * FPS, withhold_first_idr=True),
    "/h264-shared": dict(shared=True),
    "/h264-sliced": dict(gop=2 * FPS, sliced=True),
    "/h264-sdp-only": dict(config_interval=0),
    "/h264-aud-sei": dict(aud=True, sei=True),
    "/h264-baseline": dict(profile="baseline"),
    "/h264-main": dict(bframes=2, profile="main"),
    "/h264-high": dict(bframes=3, profile="high"),
    "/h265-bframes": dict(video="h265", gop=2 * FPS, bframes=3),
    "/mjpeg": dict(video="mjpeg", audio="pcmu"),
    "/two-sounds": dict(audio2="opus"),
    "/motion": dict(audio=None, scene="square"),
}


class Mount:
    def __init__(self, path, video="h264", gop=FPS, bframes=0, audio="aac", jump=None, rtcp=True,
                 withhold_first_idr=False, shared=False, audio2=None, scene="bar", **coding):
        self.path, self.video, self.gop, self.bframes, self.coding = path, video, gop, bframes, coding
        self.audio, self.jump, self.rtcp, self.withhold_first_idr = audio, jump, rtcp, withhold_first_idr
        self.shared, self.audio2, self.scene = shared, audio2, scene

    def launch(self, picture):
        caps = (f"video/x-raw,format=I420,width={picture.width},height={picture.height},"
                f"framerate={FPS}/1,pixel-aspect-ratio=1/1")
        video = video_branch(self.video, self.gop, self.bframes, **self.coding)
        line = f"( appsrc name=vsrc format=time caps={caps} ! {video}"
        audio_caps = f"audio/x-raw,format=S16LE,layout=interleaved,rate={RATE},channels=1"
        if self.audio:
            line += f" appsrc name=asrc format=time caps={audio_caps} ! {audio_branch(self.audio, self.jump is None)}"
        if self.audio2:
            line += f" appsrc name=asrc2 format=time caps={audio_caps} ! {audio_branch(self.audio2, True, 'pay2', 98)}"
        return line + " )"


class Branch:
    """One appsrc of one client's pipeline and its payloader; for jump mounts, the pad offsets that move
    the payloader's running time (hence its RTP timestamps) while the sinks keep theirs."""

    def __init__(self, source, payloader, jump, jump_unit):
        self.source, self.index = source, 0
        self.jump, self.jump_unit, self.jumped = jump, jump_unit, False
        if jump is not None:
            self.offset = BASE_OFFSET
            source.get_static_pad("src").set_offset(self.offset)
            self.out = payloader.get_static_pad("src")
            self.out.set_offset(-self.offset)
            payloader.get_static_pad("sink").add_probe(Gst.PadProbeType.EVENT_DOWNSTREAM, self._segment_arrives)

    def _segment_arrives(self, _pad, info):
        # The segment the payloader times its RTP timestamps by carries the source's offset in its base;
        # the payloader's own offset takes it off again for the sinks, which pace the packets. It is set
        # here, before the payloader passes the segment on, from the base as it arrives: read on the way
        # out, a base already offset below zero has been clamped to 0 (the rest moved into the segment's
        # offset), which after a jump back left the sinks 5 s behind and the packets sent in a burst.
        event = info.get_event()
        if event.type == Gst.EventType.SEGMENT:
            raw = event.parse_segment().base
            if self.out.get_offset() != -raw:
                self.out.set_offset(-raw)
        return Gst.PadProbeReturn.OK

    def push(self, buffer, start, end):
        if self.jump is not None and not self.jumped and start >= JUMP_AT * self.jump_unit:
            self.jumped = True
            self.offset = BASE_OFFSET + self.jump * Gst.SECOND
            self.source.get_static_pad("src").set_offset(self.offset)
        buffer.offset, buffer.offset_end = start, end
        return self.source.emit("push-buffer", buffer)


class Feed:
    """One client's media: frame n and sample s count from 0 and are pushed whenever appsrc asks."""

    def __init__(self, mount, media, picture, sound):
        self.picture, self.sound, self.scene = picture, sound, mount.scene
        pipeline = media.get_element()
        self.video = Branch(pipeline.get_by_name("vsrc"), pipeline.get_by_name("pay0"), mount.jump, FPS)
        self.video.source.connect("need-data", self._need_frame)
        # Each sound stream is the same sound, led by its own encoder's priming.
        for source, pay, codec in (("asrc", "pay1", mount.audio), ("asrc2", "pay2", mount.audio2)):
            if codec:
                branch = Branch(pipeline.get_by_name(source), pipeline.get_by_name(pay), mount.jump, RATE)
                branch.source.connect("need-data", self._need_sound, branch, PRIMING.get(codec, 0))
        if mount.withhold_first_idr:
            self.withheld = False
            pipeline.get_by_name("pay0").get_static_pad("sink").add_probe(Gst.PadProbeType.BUFFER, self._withhold)

    def _withhold(self, _pad, _info):
        if self.withheld:
            return Gst.PadProbeReturn.REMOVE
        self.withheld = True
        return Gst.PadProbeReturn.DROP

    def _need_frame(self, _source, _length):
        n = self.video.index
        self.video.index += 1
        buffer = Gst.Buffer.new_wrapped(self.picture.frame(n, self.scene))
        buffer.pts = n * Gst.SECOND // FPS
        buffer.duration = (n + 1) * Gst.SECOND // FPS - buffer.pts
        self.video.push(buffer, n, n + 1)

    def _need_sound(self, _source, _length, branch, lead):
        start, count = branch.index, RATE // 50   # 20 ms: a buffer starts at each second
        branch.index += count
        at = (start + lead) % RATE
        data = self.sound[2 * at:2 * (at + count)]
        if len(data) < 2 * count:
            data += self.sound[:2 * count - len(data)]
        buffer = Gst.Buffer.new_wrapped(data)
        buffer.pts = start * Gst.SECOND // RATE
        buffer.duration = (start + count) * Gst.SECOND // RATE - buffer.pts
        branch.push(buffer, start, start + count)


def load_what_streaming_threads_use():
    """PyGObject looks a GI type's methods up on first use, and not safely from two threads at once:
    on the two-sounds mount one need-data callback failed with "type object 'Buffer' has no attribute
    'new_wrapped'" while the other's lookup was under way (a whole-suite run of the camera corpus).
    What the streaming threads call is looked up here, on the main thread, before any of them runs."""
    buffer = Gst.Buffer.new_wrapped(b"\0\0")
    buffer.pts, buffer.duration = 0, Gst.SECOND
    for method in (Gst.Pad.get_offset, Gst.Pad.set_offset, Gst.Element.get_static_pad, Gst.PadProbeInfo.get_event):
        assert callable(method)
    assert None not in (Gst.PadProbeReturn.OK, Gst.PadProbeReturn.DROP, Gst.PadProbeReturn.REMOVE, Gst.EventType.SEGMENT)


def parse_size(text):
    try:
        width, height = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not WxH, e.g. 320x180")
    if width < 128 or height < 64 or width % 2 or height % 2:
        raise argparse.ArgumentTypeError(f"{text}: width and height must be even and at least 128x64")
    return width, height


def main():
    parser = argparse.ArgumentParser(description="RTSP test server for rec's tests (see the header for mounts).")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--size", type=parse_size, default=(640, 360))
    parser.add_argument("--user")
    parser.add_argument("--password")
    parser.add_argument("--auth", choices=["basic", "digest"], default="basic")
    parser.add_argument("--parent", type=int)
    args = parser.parse_args()
    if (args.user is None) != (args.password is None):
        parser.error("--user and --password go together")

    Gst.init(None)
    load_what_streaming_threads_use()
    picture, sound = Picture(*args.size), one_second_of_sound()
    server = GstRtspServer.RTSPServer()
    server.set_address("127.0.0.1")
    server.set_service(str(args.port))
    mounts = server.get_mount_points()
    feeds = {}   # keeps each client's feed alive as long as its media

    auth_token = None
    if args.user is not None:
        auth = GstRtspServer.RTSPAuth()
        auth_token = GstRtspServer.RTSPToken()
        auth_token.set_string("media.factory.role", "camera-user")
        # One method at a time: the methods are flags in C, but an enum that cannot hold both in Python.
        if args.auth == "digest":
            auth.add_digest(args.user, args.password, auth_token)
            auth.set_supported_methods(GstRtsp.RTSPAuthMethod.DIGEST)
        else:
            auth.add_basic(GstRtspServer.RTSPAuth.make_basic(args.user, args.password), auth_token)
            auth.set_supported_methods(GstRtsp.RTSPAuthMethod.BASIC)
        server.set_auth(auth)

    for path, options in MOUNTS.items():
        mount = Mount(path, **options)
        factory = GstRtspServer.RTSPMediaFactory()
        factory.set_launch(mount.launch(picture))
        factory.set_shared(mount.shared)
        factory.set_enable_rtcp(mount.rtcp)
        if auth_token is not None:
            permissions = GstRtspServer.RTSPPermissions()
            permissions.add_permission_for_role("camera-user", "media.factory.access", True)
            permissions.add_permission_for_role("camera-user", "media.factory.construct", True)
            factory.set_permissions(permissions)

        def configure(_factory, media, mount=mount):
            feeds[media] = Feed(mount, media, picture, sound)
            media.connect("unprepared", lambda m: feeds.pop(m, None))

        factory.connect("media-configure", configure)
        mounts.add_factory(path, factory)

    if server.attach(None) == 0:
        print(f"rtsp-server: cannot listen on 127.0.0.1:{args.port} (in use?)", file=sys.stderr)
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
