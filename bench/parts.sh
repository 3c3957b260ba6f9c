#!/usr/bin/env bash
# Issue 21's CPU gap by part of the process, timed: one 1280x720 30 fps RTSP camera (cameras.sh's)
# read at once, each from a mount of its own, by
#   ffmpeg   ffmpeg -rtsp_transport tcp -i URL -c copy fragmented MP4 (the issue's yardstick)
#   rec      rec start --buffer 60s -o FILE.mp4 (camera-copy)
# After the ring has filled, over the same window: each process's task clock, page faults and
# context switches (perf stat), each thread's voluntary switches (/proc), and a perf profile of
# each split into the kernel, FFmpeg's libraries, libc and the program's own code (rec's with the
# Swift runtime), in milliseconds. instructions.sh counts the same parts in instructions.
#
#   bench/parts.sh [seconds (40)]     needs perf (apt-get install linux-perf), run as root
#   CAMERAS_WORK=/some/dir reuses the camera file; PARTS_WARM=S sets the warm-up (75).
set -euo pipefail
seconds=${1:-40}
warm=${PARTS_WARM:-75}
command -v perf >/dev/null || { echo "bench/parts.sh needs perf: apt-get install linux-perf" >&2; exit 1; }
source "$(dirname "$0")/common.sh"
camdir=${CAMERAS_WORK:-$work}
session=parts$$
cleanup() {
  "$rec" stop --session "$session" >/dev/null 2>&1 || true
  [[ -z ${ff:-} ]] || kill "$ff" 2>/dev/null || true
  [[ -z ${server:-} ]] || kill "$server" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
camera=$(camera_file "$camdir" $(( (warm + seconds + 60) / 60 + 1 )))
echo "parts bench (issue 21), $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD);" \
  "$seconds s after $warm s"
camera_server "$camera" 2
ffmpeg -nostdin -v error -y -rtsp_transport tcp -i "$url/cam2" -c copy -f mp4 \
  -movflags frag_keyframe+empty_moov+default_base_moof "$work/ff.mp4" 2>"$work/ff.err" &
ff=$!
"$rec" start --session "$session" --source "$url/cam1" --buffer 60s -o "$work/rec.mp4" --force >/dev/null
rp=$(cat "$XDG_RUNTIME_DIR/rec/$session/pid")
sleep "$warm"

# name voluntary-switches for each thread of PID.
switches() { for t in /proc/"$1"/task/*; do echo "$(cat "$t/comm") $(awk '/^voluntary/ { print $2 }' "$t/status")"; done; }
switches "$rp" >"$work/rec.sw0"; switches "$ff" >"$work/ff.sw0"
watchers=()
for p in rec:"$rp" ffmpeg:"$ff"; do
  name=${p%%:*} pid=${p#*:}
  perf stat -e task-clock,page-faults,context-switches -x, -o "$work/$name.stat" -p "$pid" -- sleep "$seconds" &
  watchers+=($!)
  perf record -q -F 10000 -p "$pid" -o "$work/$name.perf" -- sleep "$seconds" >/dev/null 2>&1 &
  watchers+=($!)
done
wait "${watchers[@]}"
switches "$rp" >"$work/rec.sw1"; switches "$ff" >"$work/ff.sw1"

stat() { awk -F, -v e="$2" '$3 == e { printf "%.0f", $1 }' "$work/$1.stat"; }
# part NAME: milliseconds of NAME's profile by part (kernel, ffmpeg-libs, libc, own).
parts() {
  local clock; clock=$(stat "$1" task-clock)
  perf report -i "$work/$1.perf" --no-children --sort dso --stdio 2>/dev/null | awk -v ms="$clock" '
    /^#/ || !/%/ { next }
    { gsub("%", "", $1); d = $2
      k = d ~ /kernel/ ? "kernel" : d ~ /^(libav|libswscale|libswresample)/ ? "ffmpeg-libs" : d ~ /^(libc\.|libm\.|ld-linux|\[vdso)/ ? "libc" : "own"
      part[k] += $1 * ms / 100 }
    END { printf "%.0f %.0f %.0f %.0f\n", part["kernel"], part["ffmpeg-libs"], part["libc"], part["own"] }'
}
read -r rk rl rc ro < <(parts rec)
read -r fk fl fc fo < <(parts ffmpeg)
row() { printf '  %-44s %10s %10s %10s\n' "$@"; }
echo
row "over the window" "rec" "ffmpeg" "rec - ffmpeg"
row "task clock, ms" "$(stat rec task-clock)" "$(stat ffmpeg task-clock)" "$(( $(stat rec task-clock) - $(stat ffmpeg task-clock) ))"
row "  kernel, ms" "$rk" "$fk" "$((rk - fk))"
row "  FFmpeg's libraries, ms" "$rl" "$fl" "$((rl - fl))"
row "  libc, ms" "$rc" "$fc" "$((rc - fc))"
row "  own code (rec: with the Swift runtime), ms" "$ro" "$fo" "$((ro - fo))"
row "page faults" "$(stat rec page-faults)" "$(stat ffmpeg page-faults)" ""
row "context switches" "$(stat rec context-switches)" "$(stat ffmpeg context-switches)" ""
echo "  rec / ffmpeg task clock: $(calc %.3f "$(stat rec task-clock) / $(stat ffmpeg task-clock)")"
echo "  voluntary switches by thread over the window:"
for name in rec ff; do
  paste "$work/$name.sw0" "$work/$name.sw1" | awk -v n="$name" '$4 - $2 > 0 { printf "    %s %s %d\n", n, $1, $4 - $2 }'
done
echo "  rec's own code, its twelve largest functions (ms):"
perf report -i "$work/rec.perf" --no-children --sort dso,sym --stdio 2>/dev/null |
  awk -v ms="$(stat rec task-clock)" '/^#/ || !/%/ { next }
    $2 ~ /^(rec-engine|libswift)/ { gsub("%", "", $1); n = $1 * ms / 100; $1 = $2 = $3 = ""; printf "    %5.1f %s\n", n, $0 }' |
  head -12 | { swift demangle --simplified 2>/dev/null || cat; } | cut -c1-120 || true
