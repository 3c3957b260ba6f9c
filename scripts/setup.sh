#!/usr/bin/env bash
# Installs what rec needs on Debian 12: FFmpeg and libv4l2 development files, the ffmpeg/ffprobe
# binaries (tests and benchmarks check against them) and pkg-config. Safe to run again.
set -euo pipefail
packages=(pkg-config libavformat-dev libavcodec-dev libavutil-dev libswscale-dev libavfilter-dev
          libv4l-dev ffmpeg)
# Real players the cut tests play clips in (Tests/RecCLITests/RealMedia): what they present must be exact.
players=(mpv chromium gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good gstreamer1.0-plugins-bad gstreamer1.0-libav mediainfo)
packages+=("${players[@]}")
# Everyday use (issue 11): libsystemd for sd_notify and desktop notifications over sd-bus; chrpath,
# lintian and man-db to build, check and read the installed package (scripts/ci-install.sh).
packages+=(libsystemd-dev chrpath lintian man-db)
# Live page (docs/LIVE.md): libmicrohttpd serves it; headless Chromium and Firefox run the page's test.
packages+=(libmicrohttpd-dev chromium firefox-esr)
# The screen as a source (issue 22, docs/SCREEN.md): libxcb's RandR headers (rec devices lists outputs);
# the tests run a headless X server (xvfb), paint and resize it (x11-xserver-utils: xsetroot, xrandr),
# move a window (xdotool) of x11-utils' xmessage, and bench/screen.sh uses the same. Debian 12's Xvfb
# refuses RandR size changes, so the resize test runs TigerVNC's Xvnc (with no VNC port open).
packages+=(libxcb-randr0-dev xvfb x11-xserver-utils xdotool x11-utils tigervnc-standalone-server)
# gcc builds Tests/FakeKernel/fakev4l2.c, the fake V4L2 driver the camera tests preload under libv4l2.
packages+=(gcc libc6-dev)
# Sound (issue 9): libavdevice reads PulseAudio/ALSA, libswresample converts and corrects drift;
# the sound tests run a real PulseAudio with a null sink and play into it with paplay.
packages+=(libavdevice-dev libswresample-dev pulseaudio pulseaudio-utils)
# Sound nobody here made, for the cut tests: alsa-utils' WAV recordings, the freedesktop sound theme's Vorbis.
packages+=(alsa-utils sound-theme-freedesktop)
# Off-site copies (issue 23, docs/OFFSITE.md): rec copies files through rclone, and the tests serve
# WebDAV with `rclone serve webdav` on loopback.
packages+=(rclone)
# Network cameras (issue 21): GStreamer's RTSP server, driven from Python (Tests/Support/rtsp), with
# x264 (plugins-ugly) and x265 (plugins-bad) encoders, stands in for a camera in the tests.
packages+=(python3-gi gir1.2-gst-rtsp-server-1.0 gir1.2-gst-plugins-base-1.0 gstreamer1.0-plugins-ugly)
# Several boxes as one (issue 23): rec runs session commands on other boxes through OpenSSH's client;
# the tests start Debian's sshd on a loopback port as the second box (and as an SFTP server).
packages+=(openssh-client openssh-server)
# The Wayland screen (issue 22, docs/WAYLAND.md): libpipewire to read PipeWire video streams; the tests
# run a private PipeWire + WirePlumber under dbus-run-session (dbus-user-session) as an ordinary user,
# with GStreamer's pipewiresink as the producer, and sway + xdg-desktop-portal(-wlr) for the portal.
packages+=(libpipewire-0.3-dev pipewire wireplumber gstreamer1.0-pipewire dbus-user-session
           sway xdg-desktop-portal xdg-desktop-portal-wlr)
# The portal run for real (issue 43, Tests/Support/wayland): a headless mutter makes the screencast
# nodes, a ScreenCast backend in Python (dbus-python) answers the real frontend, and a GTK 3
# window draws what the tests read back.
packages+=(mutter python3-dbus gir1.2-gtk-3.0 python3-gi-cairo)
# MQTT (issue 40, docs/MQTT.md): libmosquitto for the client; the tests run their own broker and its clients.
packages+=(mosquitto mosquitto-clients libmosquitto-dev)
# Network cameras as they come (issue 39, Tests/RecCLITests/Network/Corpus): servers nobody here wrote
# serve the stand-in camera's files as they are: VLC's RTSP server (vlc-bin, its plugins for MP4, RTP
# and RTSP) and nginx with its RTMP module relaying what ffmpeg publishes.
packages+=(vlc-bin vlc-plugin-base nginx libnginx-mod-rtmp)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""
  [[ $(id -u) -eq 0 ]] || sudo="sudo"
  echo "setup: installing ${missing[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
command -v swift >/dev/null || [[ -x /opt/swift/usr/bin/swift ]] || {
  echo "setup: no Swift toolchain found; install Swift 6 (swift.org) and put it on PATH" >&2; exit 1; }
