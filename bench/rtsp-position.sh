#!/usr/bin/env bash
# What a client's place on a shared RTSP mount costs it: three identical ffmpeg CLIs (-c copy into
# fragmented MP4) join one mount of bench/cameras.sh's camera, two seconds apart, and each one's
# CPU time is read over the same windows. Same program, same bytes: any difference is the order
# in which the server's sends wake them. bench/cameras.sh and floor.sh give every process a mount
# of its own because of it; see bench/README.md.
#
#   bench/rtsp-position.sh [seconds (30)] [rounds (3)]
#   CAMERAS_WORK=/some/dir reuses the camera file.
set -euo pipefail
seconds=${1:-30}
rounds=${2:-3}
source "$(dirname "$0")/common.sh"
pids=() clients=()
cleanup() {
  for p in "${clients[@]}"; do kill "$p" 2>/dev/null || true; done
  wait "${clients[@]}" 2>/dev/null || true
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
camera=$(camera_file "${CAMERAS_WORK:-$work}" $(( (seconds * rounds + 20) / 60 + 1 )))
camera_server "$camera" 1; pids+=("$server")
for i in 0 1 2; do
  ffmpeg -nostdin -v error -y -rtsp_transport tcp -i "$url/cam1" -c copy -f mp4 \
    -movflags frag_keyframe+empty_moov+default_base_moof "$work/ff$i.mp4" &
  clients+=($!)
  sleep 2
done
sleep 10
echo "rtsp position bench, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores; three ffmpeg CLIs on one mount, $rounds rounds of $seconds s"
total=(0 0 0)
for r in $(seq "$rounds"); do
  for i in 0 1 2; do start[i]=$(cpu_us "${clients[i]}"); done
  sleep "$seconds"
  line="  round $r:"
  for i in 0 1 2; do d=$(( $(cpu_us "${clients[i]}") - start[i] )); total[i]=$(( total[i] + d )); line+=" client $((i + 1)) $(calc %.3f "$d / 1e6") s"; done
  echo "$line"
done
echo "second / first $(calc %.3f "${total[1]} / ${total[0]}"), third / first $(calc %.3f "${total[2]} / ${total[0]}")"
