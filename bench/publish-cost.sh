#!/usr/bin/env bash
# What publishing itself costs the ffmpeg CLI: the reference for core.sh's b rows (5 viewers and a
# publisher against the bare session). Three `ffmpeg -re -c copy` processes read the same 1080p30
# H.264 file (~5.5 Mb/s, what core.sh's session sends) at the same time: one to `-f null`, one as
# FLV to an `ffmpeg -listen 1` RTMP receiver, one as MPEG-TS to an SRT listener, all on loopback.
# The difference to the null copy is libavformat's own cost of each protocol, per frame.
#   bench/publish-cost.sh [seconds (75)]
set -euo pipefail
seconds=${1:-75}
warm=5
work=$(mktemp -d)
pids=()
# The copies stop before their receivers, so no publisher reports a closed connection.
trap 'for ((i = ${#pids[@]} - 1; i >= 0; i--)); do kill "${pids[i]}" 2>/dev/null && wait "${pids[i]}" 2>/dev/null; done; rm -rf "$work"' EXIT
hz=$(getconf CLK_TCK)
ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
echo "publish cost, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
ffmpeg -v error -y -f lavfi -i testsrc2=size=1920x1080:rate=30 -t $((warm + seconds + 10)) -c:v libx264 -preset ultrafast \
  -b:v 5500k -maxrate 5500k -bufsize 11M -g 30 -bf 0 -pix_fmt yuv420p "$work/in.mp4"
rtmp=$(port); srt=$(port)
# (A receiver reports an I/O error when its publisher stops: its messages go to a file.)
# The receivers are ready when their ports listen (SRT's is UDP: ss shows it bound).
ffmpeg -nostdin -v error -listen 1 -i "rtmp://127.0.0.1:$rtmp/live/cam" -c copy -f null - 2>"$work/rtmp.err" & pids+=("$!")
ffmpeg -nostdin -v error -i "srt://127.0.0.1:$srt?mode=listener" -c copy -f null - 2>"$work/srt.err" & pids+=("$!")
until ss -ltn | grep -q ":$rtmp " && ss -lun | grep -q ":$srt "; do sleep 0.1; done
copy() { ffmpeg -nostdin -v error -re -i "$work/in.mp4" -c copy "$@" & pids+=("$!"); }
copy -f null -; null=$!
copy -f flv "rtmp://127.0.0.1:$rtmp/live/cam"; flv=$!
copy -f mpegts "srt://127.0.0.1:$srt"; ts=$!
sleep "$warm"
n0=$(ticks $null) r0=$(ticks $flv) s0=$(ticks $ts)
sleep "$seconds"
n1=$(ticks $null) r1=$(ticks $flv) s1=$(ticks $ts)
frames=$((seconds * 30))
awk -v hz="$hz" -v f="$frames" -v n=$((n1 - n0)) -v r=$((r1 - r0)) -v s=$((s1 - s0)) 'BEGIN {
  printf "  %-36s %8s %9s\n", "", "CPU s", "ms/frame"
  printf "  %-36s %8.2f %9.3f\n", "ffmpeg -re -c copy -f null", n / hz, n / hz / f * 1000
  printf "  %-36s %8.2f %9.3f\n", "ffmpeg -re -c copy, FLV over RTMP", r / hz, r / hz / f * 1000
  printf "  %-36s %8.2f %9.3f\n", "ffmpeg -re -c copy, MPEG-TS over SRT", s / hz, s / hz / f * 1000
  printf "  publishing costs ffmpeg: RTMP %.3f ms/frame, SRT %.3f ms/frame\n", (r - n) / hz / f * 1000, (s - n) / hz / f * 1000 }'
echo "load at end $(cut -d' ' -f1-3 /proc/loadavg)"
