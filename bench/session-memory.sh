#!/usr/bin/env bash
# Where a session's memory goes: runs a 1080p30 default-preset session (recording to a file, 5 min
# ring) for a while under several glibc malloc settings, and prints its RSS, the ring's bytes, what
# is left (RSS − ring) and where that is (bench/session-maps.py), beside the peak RSS of the ffmpeg
# CLI doing the same encode. The settings only change the environment the session inherits; rec is
# not rebuilt. Run by hand: bench/session-memory.sh [seconds-per-setting (60)]
set -euo pipefail
seconds=${1:-60}
source=test:1920x1080@30
source "$(dirname "$0")/common.sh"
trap '"$rec" stop --session mem >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
field() { python3 bench/session-json.py "$@"; }

echo "session memory after ${seconds} s, $(date -u '+%Y-%m-%d %H:%M UTC'), load average $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-32s %7s %7s %9s %6s  %s\n' setting "RSS MB" "ring MB" "RSS-ring" dropped "RSS by kind (MB)"
for setting in "" MALLOC_ARENA_MAX=2 MALLOC_ARENA_MAX=1 MALLOC_MMAP_THRESHOLD_=1048576 \
  "MALLOC_ARENA_MAX=2 MALLOC_MMAP_THRESHOLD_=1048576"; do
  # shellcheck disable=SC2086 # the setting is words of NAME=value on purpose
  env $setting "$rec" start --session mem --source "$source" --preset default --output "$work/mem.mp4" \
    --buffer 5m --force >/dev/null
  pid=$(cat "$XDG_RUNTIME_DIR/rec/mem/pid")
  sleep "$seconds"
  read -r bytes late driver < <("$rec" status --session mem --json | field ring_bytes dropped_late dropped_by_driver)
  rss=$(awk '/^VmRSS:/ { print $2 * 1024 }' "/proc/$pid/status")
  maps=$(python3 bench/session-maps.py "$pid")
  "$rec" stop --session mem >/dev/null
  printf '%-32s %7.0f %7.1f %9.0f %6d  %s\n' "${setting:-glibc defaults}" "$(calc %f "$rss / 1e6")" \
    "$(calc %f "$bytes / 1e6")" "$(calc %f "($rss - $bytes) / 1e6")" $((late + driver)) "$maps"
  sleep 2
done
peak=$(/usr/bin/time -f %M ffmpeg -v error -f lavfi -i testsrc2=size=1920x1080:rate=30 -frames:v 300 \
  -c:v libx264 -preset veryfast -crf 23 -g 30 -bf 0 -pix_fmt yuv420p -f null - 2>&1 | tail -1)
echo "ffmpeg CLI, the same encode (300 frames to null): peak RSS $(calc '%.0f' "$peak * 1024 / 1e6") MB"
