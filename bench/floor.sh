#!/usr/bin/env bash
# Where issue 21's CPU target can be met: one 1280x720 30 fps RTSP camera (bench/cameras.sh's) read
# at once by four recorders over the same window, each one's exact CPU time against the ffmpeg CLI's:
#   rec               rec start --buffer 60s -o FILE.mp4 (camera-copy)
#   ffmpeg            ffmpeg -rtsp_transport tcp -i URL -c copy fragmented MP4 (the issue's yardstick)
#   floor             bench/floor-recorder.c: av_read_frame and av_interleaved_write_frame, nothing else
#   floor + rec's work  the same with rec's 0.4 s fragments and every packet copied into a 60 s ring
# The last is the least any recorder on libavformat that keeps rec's promises can cost. See
# bench/README.md.
#
#   bench/floor.sh [seconds (60)] [rounds (3)]
#   CAMERAS_WORK=/some/dir reuses bench/cameras.sh's camera file; FLOOR_WARM=S sets the warm-up (75).
set -euo pipefail
seconds=${1:-60}
rounds=${2:-3}
warm=${FLOOR_WARM:-75}
source "$(dirname "$0")/common.sh"
camdir=${CAMERAS_WORK:-$work}
pids=()
cleanup() {
  "$rec" stop --session floor >/dev/null 2>&1 || true
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
cc -O2 -o "$work/floor-recorder" bench/floor-recorder.c $(pkg-config --cflags --libs libavformat libavcodec libavutil)
minutes=$(( (warm + seconds + 30) / 60 + 1 ))
camera=$(camera_file "$camdir" "$minutes")

echo "floor bench (issue 21), $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD), $(nproc) cores;" \
  "$rounds rounds of $seconds s after $warm s"
names=("rec" "ffmpeg -c copy" "floor" "floor + rec's work")
declare -A total
for round in $(seq "$rounds"); do
  # A mount each: a later client of a shared mount costs more than the first (see cameras.sh).
  camera_server "$camera" 4; pids+=("$server")
  ffmpeg -nostdin -v error -y -rtsp_transport tcp -i "$url/cam2" -c copy -f mp4 \
    -movflags frag_keyframe+empty_moov+default_base_moof "$work/ff.mp4" 2>"$work/ff.err" &
  p1=$!; pids+=("$p1")
  "$work/floor-recorder" "$url/cam3" "$work/floor.mp4" & p2=$!; pids+=("$p2")
  "$work/floor-recorder" "$url/cam4" "$work/floor-ring.mp4" 400000 ring & p3=$!; pids+=("$p3")
  "$rec" start --session floor --source "$url/cam1" --buffer 60s -o "$work/rec.mp4" --force >/dev/null
  p0=$(cat "$XDG_RUNTIME_DIR/rec/floor/pid")
  sleep "$warm"
  a=("$(cpu_us "$p0")" "$(cpu_us "$p1")" "$(cpu_us "$p2")" "$(cpu_us "$p3")")
  sleep "$seconds"
  b=("$(cpu_us "$p0")" "$(cpu_us "$p1")" "$(cpu_us "$p2")" "$(cpu_us "$p3")")
  line="  round $round:"
  for i in 0 1 2 3; do
    d=$((b[i] - a[i])); total[$i]=$(( ${total[$i]:-0} + d ))
    line+=" ${names[i]} $(calc %.3f "$d / 1e6") s ($(calc %.3f "$d / (${b[1]} - ${a[1]})")x)"
    [[ $i -lt 3 ]] && line+=","
  done
  echo "$line"
  "$rec" stop --session floor >/dev/null
  kill "$p1" "$p2" "$p3" "$server" 2>/dev/null || true
  wait "$p1" "$p2" "$p3" 2>/dev/null || true
  exec {server_fd}<&-
  pids=()
done
echo
printf '%-22s %12s %18s\n' recorder "CPU s (all)" "against ffmpeg"
for i in 0 1 2 3; do
  printf '%-22s %12s %17sx\n' "${names[i]}" "$(calc %.3f "${total[$i]} / 1e6")" "$(calc %.3f "${total[$i]} / ${total[1]}")"
done
