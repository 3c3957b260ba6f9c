#!/usr/bin/env bash
# Soak: runs one background session (stand-in camera, default preset, no file, ring capped at
# ~20 MB) for DURATION seconds, samples its resident memory every INTERVAL seconds, and prints the
# least-squares slope of RSS over time in MB/hour (after a 300 s warm-up while the ring fills), beside the
# ring's bytes and the frames dropped. Flat means the slope is within noise of 0.
# Run by hand: bench/soak.sh [DURATION seconds (3600)] [SIZE (1280x720)] [INTERVAL seconds (30)]
# The samples go to $SOAK_LOG if set (t_seconds rss_kB ring_bytes dropped), else a temporary file.
set -euo pipefail
# One compound command, read whole before it runs: editing this file during an hour-long soak
# would otherwise make bash go on reading at the old offset in the new text.
{
duration=${1:-3600}
size=${2:-1280x720}
interval=${3:-30}
warmup=${SOAK_WARMUP:-300}
source "$(dirname "$0")/common.sh"
# A copy, so rebuilding during a long soak does not replace the binaries under the session.
mkdir "$work/bin"
cp "$(dirname "$rec")"/{rec,rec-engine,rec-trim} "$work/bin/"
rec=$work/bin/rec
log=${SOAK_LOG:-$work/samples.txt}
: >"$log"
trap '"$rec" stop --session soak >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
field() { python3 bench/session-json.py "$@"; }

echo "soak: test:$size@30, preset default, --no-file --buffer 5m --buffer-size 20M, ${duration} s," \
  "a sample every ${interval} s; $(date -u '+%Y-%m-%d %H:%M UTC'), load $(cut -d' ' -f1-3 /proc/loadavg)"
"$rec" start --session soak --source "test:$size@30" --preset default --no-file --buffer 5m --buffer-size 20M >/dev/null
pid=$(cat "$XDG_RUNTIME_DIR/rec/soak/pid")
t0=$EPOCHREALTIME
printf '%8s %9s %9s %9s %8s\n' t "RSS MB" "HWM MB" "ring MB" dropped
for i in $(seq "$((duration / interval))"); do
  sleep "$(awk -v t0="$t0" -v now="$EPOCHREALTIME" -v d=$((i * interval)) 'BEGIN { s = t0 + d - now; print (s > 0 ? s : 0) }')"
  read -r bytes late driver < <("$rec" status --session soak --json | field ring_bytes dropped_late dropped_by_driver)
  read -r rss hwm < <(awk '/^VmRSS:/ { r = $2 } /^VmHWM:/ { h = $2 } END { print r, h }' "/proc/$pid/status")
  t=$((i * interval))
  echo "$t $rss $bytes $((late + driver))" >>"$log"
  if (( i % 10 == 0 || i == 1 )); then
    awk -v t="$t" -v r="$rss" -v h="$hwm" -v b="$bytes" -v d=$((late + driver)) \
      'BEGIN { printf "%7ds %9.1f %9.1f %9.1f %8d\n", t, r * 1024 / 1e6, h * 1024 / 1e6, b / 1e6, d }'
  fi
done
"$rec" stop --session soak >/dev/null
# Least-squares slope of RSS (MB) against time (hours), samples after the warm-up only.
awk -v w="$warmup" '$1 >= w { x = $1 / 3600; y = $2 * 1024 / 1e6; n++; sx += x; sy += y; sxx += x * x; sxy += x * y
    if (n == 1 || y < lo) lo = y; if (n == 1 || y > hi) hi = y; last = y; ring = $3 / 1e6; drop = $4 }
  END { if (n < 3) { print "too few samples after the warm-up"; exit 1 }
    slope = (n * sxy - sx * sy) / (n * sxx - sx * sx)
    printf "after %d s warm-up: %d samples, RSS %.1f..%.1f MB (last %.1f), ring %.1f MB, dropped %d\n", w, n, lo, hi, last, ring, drop
    printf "RSS slope: %+.2f MB/hour\n", slope }' "$log"
echo "load average at end $(cut -d' ' -f1-3 /proc/loadavg)"
exit
}
