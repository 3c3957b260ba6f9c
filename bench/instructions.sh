#!/usr/bin/env bash
# Issue 21's CPU gap counted in instructions rather than timed: one 1280x720 30 fps RTSP camera
# (bench/cameras.sh's) read at once, under valgrind's callgrind, by
#   ffmpeg   ffmpeg -rtsp_transport tcp -i URL -c copy fragmented MP4 (the issue's yardstick)
#   rec      rec-engine, camera-copy, 60 s ring, MP4 (what `rec start --buffer 60s -o` runs)
#   floor    bench/floor-recorder.c with rec's work: 0.4 s fragments and a 60 s ring copy
# counting the user-space instructions each runs over the same window, after the ring has filled,
# split by where they run: the program's own code (with the Swift runtime for rec), FFmpeg's
# libraries, libc's memcpy and the rest of libc. Timings on a VM spread by ±4 % from run to run;
# these counts repeat to a fraction of a percent, so they show what a change to the copy path
# saves. They leave out the kernel and the cache: see bench/README.md for what they do not say.
#
#   bench/instructions.sh [seconds (20)]     needs valgrind (apt-get install valgrind)
#   CAMERAS_WORK=/some/dir reuses the camera file; INSTR_WARM=S sets the warm-up (80).
set -euo pipefail
seconds=${1:-20}
warm=${INSTR_WARM:-80}
command -v valgrind >/dev/null || { echo "bench/instructions.sh needs valgrind: apt-get install valgrind" >&2; exit 1; }
source "$(dirname "$0")/common.sh"
camdir=${CAMERAS_WORK:-$work}
pids=()
cleanup() {
  for p in "${pids[@]:1}"; do kill -INT "$p" 2>/dev/null || true; done
  [[ ${#pids[@]} -eq 0 ]] || kill "${pids[0]}" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
cc -O2 -o "$work/floor-recorder" bench/floor-recorder.c $(pkg-config --cflags --libs libavformat libavcodec libavutil)
camera=$(camera_file "$camdir" $(( (warm + seconds + 60) / 60 + 1 )))
engine=$(dirname "$rec")/rec-engine

echo "instructions bench (issue 21), $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD);" \
  "$seconds s counted after $warm s"
# A mount each: a later client of a shared mount costs more than the first (rtsp-position.sh).
camera_server "$camera" 3; pids+=("$server")
grind() { local name=$1; shift; valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$work/$name.out" "$@" \
  >"$work/$name.log" 2>&1 & pids+=($!); }
grind ffmpeg ffmpeg -nostdin -v error -y -rtsp_transport tcp -i "$url/cam1" -c copy -f mp4 \
  -movflags frag_keyframe+empty_moov+default_base_moof -progress "$work/ff.progress" "$work/ff.mp4"
grind rec "$engine" start --session instr --foreground --buffer 60s --source "$url/cam2" -o "$work/rec.mp4" --force
grind floor "$work/floor-recorder" "$url/cam3" "$work/floor.mp4" 400000 ring
names=(ffmpeg rec floor)
workers=("${pids[@]:1}")
sleep "$warm"
# Pictures each has taken so far (the floor has no counter): ffmpeg's progress, rec's status.
taken() {
  case $1 in
    ffmpeg) grep '^frame=' "$work/ff.progress" | tail -1 | cut -d= -f2;;
    rec) "$rec" status --session instr --json | python3 bench/session-json.py frames;;
    *) echo 0;;
  esac
}
# Each program's window is its own, from its switch on to its switch off, with its pictures
# counted right outside it.
declare -A t0 t1 f0 f1
for i in 0 1 2; do
  n=${names[i]}; f0[$n]=$(taken "$n"); callgrind_control -i on "${workers[i]}" >/dev/null 2>&1; t0[$n]=$EPOCHREALTIME
done
sleep "$seconds"
for i in 0 1 2; do
  n=${names[i]}; callgrind_control -i off "${workers[i]}" >/dev/null 2>&1; t1[$n]=$EPOCHREALTIME; f1[$n]=$(taken "$n")
done
for p in "${workers[@]}"; do callgrind_control -d "$p" >/dev/null 2>&1; done
for p in "${workers[@]}"; do kill -INT "$p" 2>/dev/null || true; done
wait "${workers[@]}" 2>/dev/null || true
declare -A window
for n in "${names[@]}"; do window[$n]=$(calc %.3f "${t1[$n]} - ${t0[$n]}"); done
pictures=$(( f1[rec] - f0[rec] ))
# A program that fell behind the camera under valgrind did less than a window's work in its window.
for n in ffmpeg rec; do
  got=$(( f1[$n] - f0[$n] ))
  awk "BEGIN { exit !($got < ${window[$n]} * 30 * 0.95) }" && echo "warning: $n took $got pictures in ${window[$n]} s under valgrind; it fell behind"
done

# Exclusive instructions per part, from each dump (a dump file per thread or one for all).
parts() {
  for f in "$work/$1".out*; do callgrind_annotate --auto=no --threshold=100 "$f" 2>/dev/null; done | sed -n '/file:function/,$p' | grep '\[' | awk '
      { n = $1; gsub(/,/, "", n); lib = $NF; gsub(/[][]/, "", lib); sub(/.*\//, "", lib) }
      lib ~ /^libc\.so/ && /:__mem(cpy|move)/ { p["memcpy"] += n; next }
      lib ~ /^libc\.so/ { p["libc"] += n; next }
      lib ~ /^libav|^libsw/ { p["ffmpeg_libs"] += n; next }
      { p["own"] += n }
      END { printf "%d %d %d %d\n", p["own"], p["ffmpeg_libs"], p["memcpy"], p["libc"] }'
}
declare -A count
for n in "${names[@]}"; do read -r count[$n.own] count[$n.libs] count[$n.memcpy] count[$n.libc] < <(parts "$n"); done
echo
echo "millions of instructions a second of camera (windows: ffmpeg ${window[ffmpeg]} s, rec ${window[rec]} s with $pictures" \
  "pictures and their sound, floor ${window[floor]} s):"
printf '%-34s %10s %10s %10s %12s\n' part ffmpeg rec floor "rec - ffmpeg"
for k in own libs memcpy libc total; do
  label=$(case $k in own) echo "own code (rec: with Swift runtime)";; libs) echo "FFmpeg's libraries";;
    memcpy) echo "libc memcpy (bytes, rep movsb)";; libc) echo "libc, the rest (malloc, ...)";; total) echo total;; esac)
  for n in "${names[@]}"; do
    if [[ $k == total ]]; then v=$(( count[$n.own] + count[$n.libs] + count[$n.memcpy] + count[$n.libc] )); else v=${count[$n.$k]}; fi
    eval "v_$n=$v"
  done
  printf '%-34s %10s %10s %10s %12s\n' "$label" "$(calc %.2f "$v_ffmpeg / ${window[ffmpeg]} / 1e6")" \
    "$(calc %.2f "$v_rec / ${window[rec]} / 1e6")" "$(calc %.2f "$v_floor / ${window[floor]} / 1e6")" \
    "$(calc %+.2f "$v_rec / ${window[rec]} / 1e6 - $v_ffmpeg / ${window[ffmpeg]} / 1e6")"
done
own_rec=${count[rec.own]}
echo
echo "rec's own code: $(calc %.0f "$own_rec / ($pictures * 2.56)") instructions a packet" \
  "(about $(calc %.0f "$pictures * 2.56") packets: each picture and ~1.56 AAC packets)"
