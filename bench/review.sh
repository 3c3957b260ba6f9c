#!/usr/bin/env bash
# The review page's server (docs/REVIEW.md, issue 42): CPU and memory of 16 sessions and `rec
# review` with 4 viewers, against the same with none (target: at most 1.10×).
#   1. 16 background sessions on the stand-in camera (test:320x240@15, ring only, --http 0: small
#      enough that two shared cores encode all 16 without dropping frames) and `rec review --http 0`
#      beside them;
#   2. phase A, no viewers: over SECONDS, each session's and the review server's CPU (utime+stime
#      of /proc/PID/stat, which keeps the time of threads that ended: the servers run a thread per
#      connection) and resident memory (the mean of one sample a second); frames dropped late;
#   3. phase B, 4 viewers (bench/review-viewer.py, each doing what the page does without decoding (one /api/grid for every camera):
#      every camera's /cam/NAME/live.mp4 through the review server, 64 streams in all, and /api/box
#      and every camera's /api/recordings every 2 s): the same figures; for A and B, where the CPU
#      went by thread name (bench/proc-threads.py);
#   4. headless Chromium on the watch URL for 20 s, when installed (REVIEW_CHROMIUM=0 skips it):
#      how many cameras' live streams the real page holds open (the sessions' live_viewers);
#   4b. phase A2: no viewers again, the same figures (B is also set against the mean of A and A2,
#      so that the machine's drift over the run is not counted as the viewers');
#   5. with every session stopped, the ffmpeg CLI doing the sessions' encodes: 16 × `ffmpeg -re`
#      testsrc2 at the same size and rate, x264 veryfast, crf 23, g = rate, no B-frames,
#      look-ahead 5 (rec's cap), -f null; its CPU and memory, and rec's phase A over it.
# Run by hand: bench/review.sh [seconds per phase (20)]
# REVIEW_CAMERAS (16), REVIEW_VIEWERS (4) and REVIEW_SOURCE (test:320x240@15) change the set-up;
# REVIEW_LOAD=streams or refresh makes the viewers do only that half of the page's work.
# REVIEW_STREAMS=each makes each viewer hold one /cam/NAME/live.mp4 per camera (the page before /api/grid) instead of one /api/grid.
set -euo pipefail
seconds=${1:-20}
cameras=${REVIEW_CAMERAS:-16}
nviewers=${REVIEW_VIEWERS:-4}
src=${REVIEW_SOURCE:-test:320x240@15}
size=${src#test:}; size=${size%@*}; rate=${src##*@}
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

background=()   # every process this script started and has not ended yet, by pid
names=()
for i in $(seq "$cameras"); do names+=("cam$i"); done
cleanup() {
  local p
  for p in "${background[@]}"; do kill "$p" 2>/dev/null || true; done
  for n in "${names[@]}"; do "$rec" stop --session "$n" >/dev/null 2>&1 & done
  wait 2>/dev/null || true
  # A session that did not stop in time: kill -9 it, by the pid it wrote (this script started it).
  for n in "${names[@]}"; do
    p=$(cat "$XDG_RUNTIME_DIR/rec/$n/pid" 2>/dev/null) || continue
    kill -9 "$p" 2>/dev/null || true
  done
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

hz=$(getconf CLK_TCK)
ticks() { local f; read -r f <"/proc/$1/stat"; f=${f##*) }; set -- $f; echo $((${12} + ${13})); }
rss_kb() { local k v r; while read -r k v r; do [[ $k == VmRSS: ]] && { echo "$v"; return; }; done <"/proc/$1/status"; echo 0; }
load() { cut -d' ' -f1-3 /proc/loadavg; }
declare -A cpu rss
# measure PHASE PID...: each PID's CPU (% of one core) and mean resident memory (MB) over $seconds,
# into cpu[PHASE:PID] and rss[PHASE:PID]; snapshots of every thread's CPU in $work/PHASE.before and
# .after, and the seconds between them in $work/PHASE.seconds, for `threads`.
measure() {
  local phase=$1 p i n=0 start end
  shift
  local -A t0 kb
  python3 bench/proc-threads.py snapshot "$@" >"$work/$phase.before"
  for p; do t0[$p]=$(ticks "$p"); kb[$p]=0; done
  start=$EPOCHREALTIME
  for i in $(seq "$seconds"); do
    sleep 1
    for p; do kb[$p]=$((kb[$p] + $(rss_kb "$p"))); done
    n=$((n + 1))
  done
  for p; do cpu[$phase:$p]=$(calc %.2f "($(ticks "$p") - ${t0[$p]}) / $hz / ($EPOCHREALTIME - $start) * 100"); done
  end=$EPOCHREALTIME
  python3 bench/proc-threads.py snapshot "$@" >"$work/$phase.after"
  calc %.3f "$end - $start" >"$work/$phase.seconds"
  for p; do rss[$phase:$p]=$(calc %.1f "${kb[$p]} / $n / 1024"); done
}
# threads PHASE PID...: where those processes' CPU went in PHASE, by thread name.
threads() { local phase=$1; shift; python3 bench/proc-threads.py diff "$work/$phase.before" "$work/$phase.after" "$(cat "$work/$phase.seconds")" "$@"; }
# total ARRAY PHASE PID...: the sum of ARRAY[PHASE:PID] (cpu or rss).
total() {
  local -n a=$1
  local phase=$2 p s=0
  shift 2
  for p; do s=$(calc %.2f "$s + ${a[$phase:$p]}"); done
  echo "$s"
}
# statuses: every session's `rec status --json`, summed: dropped_late, live_viewers, live_skipped, fps.
statuses() {
  for n in "${names[@]}"; do "$rec" status --session "$n" --json || true; echo; done | python3 -c '
import json, sys
text, sums, i, d = sys.stdin.read(), {}, 0, json.JSONDecoder()
while True:
    text = text[i:].lstrip()
    if not text: break
    doc, i = d.raw_decode(text)
    e = doc.get("extra", {})
    for k in ("dropped_late", "live_viewers", "live_skipped", "fps"):
        v = doc.get(k, e.get(k))
        try: sums[k] = sums.get(k, 0) + float(v)
        except (TypeError, ValueError): pass
print(" ".join("%s=%g" % kv for kv in sorted(sums.items())))'
}
get() { [[ $1 =~ (^| )$2=([^ ]*) ]] && echo "${BASH_REMATCH[2]}" || echo "-"; }

echo "rec review bench, $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD), $(nproc) cores, load $(load) (other engineers' builds may share the machine)"
echo "$cameras sessions on $src (ring only, --http 0), $nviewers viewers doing ${REVIEW_LOAD:-all} (all: the streams and the refreshes), $seconds s per phase"
spids=()
for n in "${names[@]}"; do
  "$rec" start --session "$n" --source "$src" --no-file --buffer 60s --http 0 >/dev/null
  spids+=("$(cat "$XDG_RUNTIME_DIR/rec/$n/pid")")
done
"$rec" review --http 0 --exports "$work/exports" >"$work/review.out" 2>"$work/review.err" &
review=$!
background+=("$review")
for _ in $(seq 100); do [[ -s $XDG_RUNTIME_DIR/rec/.review/export-token ]] && break; sleep 0.1; done
base=$(cat "$XDG_RUNTIME_DIR/rec/.review/http-address")
token=$(cat "$XDG_RUNTIME_DIR/rec/.review/http-token")
sleep 3
watch_url=$(awk '$1 == "watch" { print $2 }' "$work/review.out")
echo "review server: pid $review, $base ($([[ -n $watch_url ]] && echo "its watch and export URLs printed on stdout" || echo "nothing printed on stdout yet"))"
code=$(curl -s -o /dev/null -w '%{http_code}' -H "X-Rec-Token: $token" "${base}cam/cam1/api/recordings")
echo "GET /cam/cam1/api/recordings through the review server: $code"

# Phase A: no viewers.
s0=$(statuses)
echo "phase A (no viewers) from $(date -u +%H:%M:%S), load $(load)"
measure A "${spids[@]}" "$review"
s1=$(statuses)
dropA=$(calc %d "$(get "$s1" dropped_late) - $(get "$s0" dropped_late)")

# Phase B: the viewers.
vpids=()
for v in $(seq "$nviewers"); do
  python3 bench/review-viewer.py "$base" "$token" "$((seconds + 16))" "${names[@]}" >"$work/viewer$v.json" &
  vpids+=($!)
  background+=($!)
done
sleep 4
s2=$(statuses)
echo "phase B ($nviewers viewers) from $(date -u +%H:%M:%S), load $(load); sessions report $(get "$s2" live_viewers) live viewers"
measure B "${spids[@]}" "$review" "${vpids[@]}"
s3=$(statuses)
dropB=$(calc %d "$(get "$s3" dropped_late) - $(get "$s2" dropped_late)")
wait "${vpids[@]}" || true
background=("$review")
# Phase A again, with the viewers gone: the machine's own drift over the run (another VM, the
# host) shows as a difference between A and A2, and B is set against their mean.
sleep 3
echo "phase A2 (no viewers again) from $(date -u +%H:%M:%S), load $(load); sessions report $(get "$(statuses)" live_viewers) live viewers"
measure A2 "${spids[@]}" "$review"
viewer_summary=$(cat "$work"/viewer*.json | python3 -c '
import json, sys
docs = [json.loads(l) for l in sys.stdin if l.strip()]
streams = [s for d in docs for s in d["streams"].values()]
ok = [s["bytes"] for s in streams if s["status"] == 200]
req = {}
for d in docs:
    for k, v in d["requests"].items(): req[k] = req.get(k, 0) + v
print("streams: %d of %d answered 200, %.0f–%.0f kB each (min–max)" % (len(ok), len(streams), min(ok or [0]) / 1e3, max(ok or [0]) / 1e3))
print("requests (kind status: count): " + ", ".join("%s: %d" % kv for kv in sorted(req.items())))
print("refresh rounds: %d, slowest %.3f s" % (sum(d["refresh_rounds"] for d in docs), max(d["slowest_round_s"] for d in docs)))')

# A real browser on the watch URL: how many live streams does the page hold open?
chromium_note="not run"
if [[ ${REVIEW_CHROMIUM:-1} != 0 ]] && command -v chromium >/dev/null; then
  timeout 60 chromium --headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run --user-data-dir="$work/chromium" \
    --autoplay-policy=no-user-gesture-required "${base}?token=$token" >/dev/null 2>&1 &
  ch=$!
  background+=("$ch")
  sleep 20
  s4=$(statuses)
  kill "$ch" 2>/dev/null || true
  wait "$ch" 2>/dev/null || true
  chromium_note="$(get "$s4" live_viewers) of $cameras cameras' live streams open after 20 s"
fi

# Every session and the review server end before ffmpeg runs, so neither measure disturbs the other.
kill "$review" 2>/dev/null || true
wait "$review" 2>/dev/null || true
for n in "${names[@]}"; do "$rec" stop --session "$n" >/dev/null 2>&1 & done
wait
background=()
fpids=()
for i in $(seq "$cameras"); do
  ffmpeg -nostdin -v error -re -f lavfi -i "testsrc2=size=$size:rate=$rate" -c:v libx264 -preset veryfast -crf 23 -g "$rate" -bf 0 \
    -rc-lookahead 5 -x264-params sync-lookahead=0 -pix_fmt yuv420p -f null - &
  fpids+=($!)
  background+=($!)
done
sleep 3
echo "ffmpeg CLI from $(date -u +%H:%M:%S), load $(load)"
measure C "${fpids[@]}"
for p in "${fpids[@]}"; do kill "$p" 2>/dev/null || true; done
wait "${fpids[@]}" 2>/dev/null || true
background=()

sA=$(total cpu A "${spids[@]}"); sB=$(total cpu B "${spids[@]}")
mA=$(total rss A "${spids[@]}"); mB=$(total rss B "${spids[@]}")
rA=${cpu[A:$review]}; rB=${cpu[B:$review]}; qA=${rss[A:$review]}; qB=${rss[B:$review]}
tA=$(calc %.2f "$sA + $rA"); tB=$(calc %.2f "$sB + $rB"); tA2=$(calc %.2f "$(total cpu A2 "${spids[@]}") + ${cpu[A2:$review]}")
tAm=$(calc %.2f "($tA + $tA2) / 2"); uA=$(calc %.1f "$mA + $qA"); uB=$(calc %.1f "$mB + $qB")
fC=$(total cpu C "${fpids[@]}"); fM=$(total rss C "${fpids[@]}")
vC=$(total cpu B "${vpids[@]}")
echo
echo "per session (% of a core / MB resident), A → B:"
for i in "${!spids[@]}"; do
  p=${spids[$i]}
  printf '  %-6s %6s / %5s  →  %6s / %5s\n' "${names[$i]}" "${cpu[A:$p]}" "${rss[A:$p]}" "${cpu[B:$p]}" "${rss[B:$p]}"
done
echo
printf '%-34s %10s %8s   %10s %8s   %7s %7s\n' "" "A: CPU %" "A: MB" "B: CPU %" "B: MB" "CPU B/A" "MB B/A"
row() { printf '%-34s %10s %8s   %10s %8s   %7s %7s\n' "$1" "$2" "$3" "$4" "$5" "$(calc %.3f "$4 / $2")" "$(calc %.3f "$5 / $3")"; }
row "$cameras sessions (sum)" "$sA" "$mA" "$sB" "$mB"
printf '%-34s %10s %8s   %10s %8s\n' "review server" "$rA" "$qA" "$rB" "$qB"
row "total (target B/A <= 1.10)" "$tA" "$uA" "$tB" "$uB"
printf '%-34s %10s %8s   %10s %8s   %7s\n' "total, A2 (after B) and B / mean A" "$tA2" "" "" "" "$(calc %.3f "$tB / $tAm")"
printf '%-34s %10s %8s\n' "each viewer's cost ((B-A)/$nviewers)" "$(calc %.2f "($tB - $tA) / $nviewers")" "$(calc %.1f "($uB - $uA) / $nviewers")"
printf '%-34s %10s %8s   (not counted above; they share the cores)\n' "the $nviewers viewer processes, B" "$vC" "$(total rss B "${vpids[@]}")"
printf '%-34s %10s %8s\n' "ffmpeg CLI, $cameras encodes (sum)" "$fC" "$fM"
printf '%-34s %10s %8s\n' "rec A / ffmpeg" "$(calc %.2f "$tA / $fC")" "$(calc %.2f "$uA / $fM")"
echo
echo "frames dropped late: A $dropA, B $dropB (all sessions); live fragments skipped: $(get "$s3" live_skipped); sessions' rate in B: $(get "$s3" fps) fps summed"
echo "$viewer_summary"
echo "headless Chromium on the watch URL: $chromium_note"
for ph in A B A2; do
  echo "where the CPU went in phase $ph, by thread name: the $cameras sessions"
  threads "$ph" "${spids[@]}"
  echo "  the review server"
  threads "$ph" "$review"
done
echo "load at the end: $(load)"
