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
[[ $EUID -eq 0 ]] || { echo "bench/parts.sh needs root: perf must see the kernel's part of each process" >&2; exit 1; }
source "$(dirname "$0")/common.sh"
camdir=${CAMERAS_WORK:-$work}
session=parts$$
watchers=()
cleanup() {
  for p in "${watchers[@]}"; do kill -INT "$p" 2>/dev/null || true; done
  "$rec" stop --session "$session" >/dev/null 2>&1 || true
  [[ -z ${ff:-} ]] || kill "$ff" 2>/dev/null || true
  [[ -z ${server:-} ]] || { kill "$server" 2>/dev/null || true; exec {server_fd}<&-; }
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
camera=$(camera_file "$camdir" $(( (warm + seconds + 60) / 60 + 1 )))
echo "parts bench (issue 21), $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git describe --always --dirty);" \
  "$seconds s after $warm s"
camera_server "$camera" 2
ffmpeg -nostdin -v error -y -rtsp_transport tcp -i "$url/cam2" -c copy -f mp4 \
  -movflags frag_keyframe+empty_moov+default_base_moof "$work/ff.mp4" 2>"$work/ff.err" &
ff=$!
"$rec" start --session "$session" --source "$url/cam1" --buffer 60s -o "$work/rec.mp4" --force >/dev/null
rp=$(cat "$XDG_RUNTIME_DIR/rec/$session/pid")
sleep "$warm"

# tid name voluntary-switches for each thread of PID, by thread id (a thread may come or go).
switches() {
  for t in /proc/"$1"/task/*; do
    echo "${t##*/} $(cat "$t/comm") $(awk '/^voluntary/ { print $2 }' "$t/status")"
  done | LC_ALL=C sort -k1,1
}
switches "$rp" >"$work/rec.sw0"; switches "$ff" >"$work/ff.sw0"
for p in rec:"$rp" ffmpeg:"$ff"; do
  name=${p%%:*} pid=${p#*:}
  perf stat -e task-clock,page-faults,context-switches -x, -o "$work/$name.stat" -p "$pid" -- sleep "$seconds" &
  watchers+=($!)
  perf record -q -F 10000 -p "$pid" -o "$work/$name.perf" -- sleep "$seconds" >"$work/$name.record.log" 2>&1 &
  watchers+=($!)
done
for w in "${watchers[@]}"; do wait "$w"; done
watchers=()
switches "$rp" >"$work/rec.sw1"; switches "$ff" >"$work/ff.sw1"

# counter NAME EVENT: the count perf stat took (an event's name may carry a modifier, `:u`).
counter() {
  local n; n=$(awk -F, -v e="$2" 'index($3, e) == 1 && $1 ~ /^[0-9.]+$/ { printf "%.0f", $1 }' "$work/$1.stat")
  [[ -n $n ]] || { echo "perf stat took no $2 of $1: $(cat "$work/$1.stat")" >&2; exit 1; }
  echo "$n"
}
# parts NAME: milliseconds of NAME's profile by part (kernel, ffmpeg-libs, libc, the rest).
parts() {
  local clock; clock=$(counter "$1" task-clock)
  perf report -i "$work/$1.perf" --no-children --sort dso --stdio 2>"$work/$1.report.log" | awk -v ms="$clock" '
    /^#/ || !/%/ { next }
    { gsub("%", "", $1); d = $2
      k = d ~ /kernel/ || (d ~ /^\[/ && d !~ /^\[(vdso|unknown)\]/) ? "kernel" : d ~ /^(libav|libswscale|libswresample)/ ? "ffmpeg-libs" : d ~ /^(libc\.|libm\.|ld-linux|\[vdso)/ ? "libc" : "own"
      part[k] += $1 * ms / 100; n++ }
    END { if (!n) exit 1; printf "%.0f %.0f %.0f %.0f\n", part["kernel"], part["ffmpeg-libs"], part["libc"], part["own"] }'
}
p=$(parts rec) || { echo "no profile of rec: $(cat "$work/rec.report.log")" >&2; exit 1; }
read -r rk rl rc ro <<<"$p"
p=$(parts ffmpeg) || { echo "no profile of ffmpeg: $(cat "$work/ffmpeg.report.log")" >&2; exit 1; }
read -r fk fl fc fo <<<"$p"
row() { printf '  %-52s %10s %10s %10s\n' "$@"; }
echo
row "over the window" "rec" "ffmpeg" "rec - ffmpeg"
row "task clock, ms" "$(counter rec task-clock)" "$(counter ffmpeg task-clock)" "$(( $(counter rec task-clock) - $(counter ffmpeg task-clock) ))"
row "  kernel, ms" "$rk" "$fk" "$((rk - fk))"
row "  FFmpeg's libraries, ms" "$rl" "$fl" "$((rl - fl))"
row "  libc, ms" "$rc" "$fc" "$((rc - fc))"
row "  own code and the rest (rec: Swift, Foundation), ms" "$ro" "$fo" "$((ro - fo))"
row "page faults" "$(counter rec page-faults)" "$(counter ffmpeg page-faults)" ""
row "context switches" "$(counter rec context-switches)" "$(counter ffmpeg context-switches)" ""
echo "  rec / ffmpeg task clock: $(calc %.3f "$(counter rec task-clock) / $(counter ffmpeg task-clock)")"
echo "  voluntary switches by thread over the window:"
for name in rec ff; do
  LC_ALL=C join "$work/$name.sw0" "$work/$name.sw1" | awk -v n="$name" '$5 - $3 > 0 { printf "    %s %s %d\n", n, $2, $5 - $3 }'
done
echo "  rec's own code, its twelve largest functions (ms):"
perf report -i "$work/rec.perf" --no-children --sort dso,sym --stdio 2>/dev/null |
  awk -v ms="$(counter rec task-clock)" '/^#/ || !/%/ { next }
    $2 ~ /^(rec-engine|libswift|libFoundation|libdispatch)/ { gsub("%", "", $1); n = $1 * ms / 100; $1 = $2 = $3 = ""; printf "    %5.1f %s\n", n, $0 }' |
  head -12 | { swift demangle --simplified 2>/dev/null || cat; } | cut -c1-120 || true
