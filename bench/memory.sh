#!/usr/bin/env bash
# Memory (and speed) against the ffmpeg CLI doing the same encode, in the same run:
#   1. rec record of a 1920x1080 file (--pace off, default preset) against ffmpeg -i same -c:v
#      libx264 with the default preset's settings: peak RSS (VmHWM) and wall time, RUNS runs each,
#      alternating, medians and ratios rec / ffmpeg;
#   2. a 1920x1080@30 session on the stand-in camera with a ~20 MB ring (--buffer-size 20M): RSS
#      after WARMUP seconds, against ffmpeg -re encoding lavfi's testsrc2 at the same size and rate
#      with the same settings for as long, and the target RSS <= ffmpeg + 1.1 x ring + 30 MB.
# Both encode with libx264 veryfast, crf 23, keyframe every 30 frames, no B-frames, yuv420p; the
# x264 settings line each wrote is compared (threads, lookahead and the rest must match).
# Run by hand: bench/memory.sh [RUNS (5)] [WARMUP seconds (60)] [parts (1,2)]
set -euo pipefail
runs=${1:-5}
warmup=${2:-60}
parts=${3:-1,2}
source "$(dirname "$0")/common.sh"
trap '"$rec" stop --session mem >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
# Recordings cap x264's look-ahead (EncoderLatency, docs/RELIABILITY.md): ffmpeg gets the same options.
x264=(-c:v libx264 -preset veryfast -crf 23 -g 30 -bf 0 -rc-lookahead 5 -x264-params sync-lookahead=0 -pix_fmt yuv420p)
median() { sort -g | awk '{ a[NR] = $1 } END { print (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2) }'; }
wants() { [[ ",$parts," == *",$1,"* ]]; }
# The x264 options line a file's SEI carries, minus the version.
settings() { strings "$1" | grep -o 'x264 - core.*' | head -1 | sed 's/.*options: //'; }
# "seconds peak_kB" of a command (GNU time's %M is the peak RSS, VmHWM).
measure() { /usr/bin/time -f '%e %M' -o "$work/t" "$@" >/dev/null 2>"$work/err" || { cat "$work/err" >&2; exit 1; }; cat "$work/t"; }

echo "memory bench, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"

if wants 1; then
  frames=300
  ffmpeg -v error -f lavfi -i testsrc2=size=1920x1080:rate=30 -frames:v $frames -c:v libx264 -preset ultrafast \
    -crf 12 -pix_fmt yuv420p "$work/in.mp4"
  : >"$work/rec.txt"; : >"$work/ff.txt"
  for _ in $(seq "$runs"); do
    measure "$rec" record --source "file:$work/in.mp4" --pace off --preset default -o "$work/rec.mp4" --force >>"$work/rec.txt"
    measure ffmpeg -v error -y -i "$work/in.mp4" "${x264[@]}" -movflags +faststart "$work/ff.mp4" >>"$work/ff.txt"
  done
  [[ "$(settings "$work/rec.mp4")" == "$(settings "$work/ff.mp4")" ]] ||
    { echo "x264 settings differ:"; settings "$work/rec.mp4"; settings "$work/ff.mp4"; exit 1; }
  rt=$(cut -d' ' -f1 "$work/rec.txt" | median); ft=$(cut -d' ' -f1 "$work/ff.txt" | median)
  rm_=$(cut -d' ' -f2 "$work/rec.txt" | median); fm=$(cut -d' ' -f2 "$work/ff.txt" | median)
  echo
  echo "1. rec record --source file:IN --pace off vs ffmpeg -i IN, 1920x1080, $frames frames, $runs runs each" \
    "(alternating), medians"
  printf '  %-8s %10s %12s\n' "" "time (s)" "peak RSS MB"
  printf '  %-8s %10.2f %12.1f\n' rec "$rt" "$(calc %f "$rm_ * 1024 / 1e6")" ffmpeg "$ft" "$(calc %f "$fm * 1024 / 1e6")"
  # Each rec run and the ffmpeg run right after it saw about the same load: their ratio drifts less.
  paired=$(paste -d' ' "$work/rec.txt" "$work/ff.txt" | awk '{ print $1 / $3 }' | median)
  echo "  ratio rec / ffmpeg: time $(calc %.2f "$rt / $ft")x of the medians, $(calc %.2f "$paired")x run by run" \
    "(target <= 1.00); peak RSS $(calc %.2f "$rm_ / $fm")x (target <= 1.10)"
  echo "  runs (s kB): rec $(paste -sd, "$work/rec.txt"); ffmpeg $(paste -sd, "$work/ff.txt")"
  echo "  x264: $(settings "$work/rec.mp4" | tr ' ' '\n' | grep -E '^(threads|lookahead_threads|rc_lookahead|bframes|keyint|crf)=' | paste -sd' ')"
fi

if wants 2; then
  echo
  echo "2. 1920x1080@30 session, stand-in camera, --no-file --buffer-size 20M, RSS after ${warmup} s," \
    "vs ffmpeg -re -f lavfi -i testsrc2 (same size, rate, x264 settings) after as long"
  "$rec" start --session mem --source test:1920x1080@30 --preset default --no-file --buffer 5m --buffer-size 20M >/dev/null
  pid=$(cat "$XDG_RUNTIME_DIR/rec/mem/pid")
  sleep "$warmup"
  read -r bytes late driver < <("$rec" status --session mem --json | python3 bench/session-json.py ring_bytes dropped_late dropped_by_driver)
  rss=$(awk '/^VmRSS:/ { print $2 * 1024 }' "/proc/$pid/status")
  maps=$(python3 bench/session-maps.py "$pid")
  "$rec" stop --session mem >/dev/null
  ffmpeg -v error -re -f lavfi -i testsrc2=size=1920x1080:rate=30 -t $((warmup + 5)) "${x264[@]}" -f null - &
  ff=$!
  sleep "$warmup"
  ffrss=$(awk '/^VmRSS:/ { print $2 * 1024 }' "/proc/$ff/status")
  ffmaps=$(python3 bench/session-maps.py "$ff")
  wait "$ff"
  limit=$(calc %.0f "$ffrss + 1.1 * $bytes + 30e6")
  printf '  rec session  RSS %6.1f MB, ring %5.1f MB, dropped %d (%s)\n' "$(calc %f "$rss / 1e6")" \
    "$(calc %f "$bytes / 1e6")" $((late + driver)) "$maps"
  printf '  ffmpeg -re   RSS %6.1f MB (%s)\n' "$(calc %f "$ffrss / 1e6")" "$ffmaps"
  echo "  rec / ffmpeg $(calc %.2f "$rss / $ffrss")x; rec - ffmpeg - ring $(calc %.1f "($rss - $ffrss - $bytes) / 1e6") MB;" \
    "target ffmpeg + 1.1 x ring + 30 MB = $(calc %.1f "$limit / 1e6") MB:" \
    "$(awk -v r="$rss" -v l="$limit" 'BEGIN { print (r <= l ? "pass" : "FAIL") }')"
fi
echo "load average at end $(cut -d' ' -f1-3 /proc/loadavg)"
