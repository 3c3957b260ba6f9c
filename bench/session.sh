#!/usr/bin/env bash
# Background sessions with a 1080p30 test source and the default preset, against the ffmpeg CLI
# where a comparison makes sense:
#   1. rec start until the first frame is confirmed (vs ffmpeg's time to its first encoded frame);
#   2. rec save of 18 s from the live ring, as a whole CLI round trip (vs ffmpeg -c copy of an
#      18 s cut from a file), and every clip checked for exactly 540 frames;
#   3. a long session recording to a file with a save every 10 s: frames, drops, real fps, CPU;
#   4. memory once the 5-minute ring is full: RSS against the ring's bytes.
# Prints a summary with targets at the end. Sessions live in a private XDG_RUNTIME_DIR.
# Run by hand: bench/session.sh [long-run-seconds (600)] [parts (1,2,3,4)]
#   e.g. bench/session.sh 60 3,4 for a quick look; MALLOC_ARENA_MAX=2 bench/session.sh 330 3,4
#   to see the allocator's share of memory (the session inherits the environment).
set -euo pipefail
cd "$(dirname "$0")/.."
duration=${1:-600}
parts=${2:-1,2,3,4}
source=test:1920x1080@30
{ swift build -c release --product rec-engine && swift build -c release --product rec-trim && swift build -c release --product rec; } >/dev/null
rec=$(swift build -c release --show-bin-path)/rec
field() { python3 bench/session-json.py "$@"; }
work=$(mktemp -d)
export XDG_RUNTIME_DIR=$work/run
mkdir -m 700 "$XDG_RUNTIME_DIR"
cleanup() {
  for folder in "$XDG_RUNTIME_DIR"/rec/*/; do
    [[ -d "$folder" ]] && "$rec" stop --session "$(basename "$folder")" >/dev/null 2>&1 || true
  done
  rm -rf "$work"
}
trap cleanup EXIT

# Seconds a command takes, start to exit; its output goes to $work/out, the CPU seconds it used
# (user + system, far less sensitive to other load than the wall time) to $work/cpu, and its
# failure stops the bench.
timed() {
  local s=$EPOCHREALTIME
  /usr/bin/time -o "$work/time" -f '%U %S' "$@" >"$work/out" 2>"$work/err" ||
    { echo "failed: $*" >&2; cat "$work/err" >&2; return 1; }
  awk '{ print $1 + $2 }' "$work/time" >>"$work/cpu"
  awk -v s="$s" -v e="$EPOCHREALTIME" 'BEGIN { printf "%.4f\n", e - s }'
}
# "best median" of the numbers on stdin.
best_median() {
  sort -g | awk '{ a[NR] = $1 } END { m = NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2; print a[1], m }'
}
calc() { awk "BEGIN { printf \"$1\n\", $2 }"; }
ms() { calc '%.0f' "$1 * 1000"; }
load() { cut -d' ' -f1-3 /proc/loadavg; }
ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
rss_kb() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status"; }
status() { "$rec" status --session "$1" --json; }
wants() { [[ ",$parts," == *",$1,"* ]]; }
summary=()
# row NAME MEASURED TARGET OK (OK is an awk condition on nothing but numbers)
row() { summary+=("$(printf '%-36s %14s %16s  %s' "$1" "$2" "$3" "$(awk "BEGIN { print ($4) ? \"pass\" : \"FAIL\" }")")"); }
wait_span() { # session seconds: wait until its ring holds that many seconds
  until [[ "$(status "$1" | field ring_span | awk -v want="$2" '{ print ($1 != "-" && $1 >= want) }')" == 1 ]]; do sleep 1; done
}

echo "rec session bench, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)"
echo "source $source, preset default; load average at start $(load)"

if wants 1; then
  echo
  echo "1. rec start → first frame confirmed (5 runs, each stopped)"
  starts=(); ffs=()
  for _ in 1 2 3 4 5; do
    starts+=("$(timed "$rec" start --session s1 --source "$source" --preset default --no-file)")
    "$rec" stop --session s1 >/dev/null
    ffs+=("$(timed ffmpeg -v error -f lavfi -i testsrc2=size=1920x1080:rate=30 -frames:v 1 -c:v libx264 \
      -preset veryfast -f null -)")
    sleep 1
  done
  read -r sb sm < <(printf '%s\n' "${starts[@]}" | best_median)
  read -r fb fm < <(printf '%s\n' "${ffs[@]}" | best_median)
  printf '%-28s %8s %8s\n' "" best median
  printf '%-28s %7.3fs %7.3fs\n' "rec start" "$sb" "$sm" "ffmpeg first encoded frame" "$fb" "$fm"
  echo "  runs: rec ${starts[*]}; ffmpeg ${ffs[*]}; load $(load)"
  row "start → first frame (median)" "$(calc '%.3f s' "$sm")" "<= 0.5 s" "$sm <= 0.5"
fi

if wants 2; then
  echo
  echo "2. rec save --from -22s --to -4s (18 s) from a live 1080p30 ring, 10 runs"
  "$rec" start --session s2 --source "$source" --preset default --no-file --buffer 5m >/dev/null
  # ffmpeg's equivalent input, made while the ring fills: 30 s coded like the default preset.
  ffmpeg -v error -f lavfi -i testsrc2=size=1920x1080:rate=30 -frames:v 900 -c:v libx264 -preset veryfast \
    -crf 23 -g 30 -pix_fmt yuv420p "$work/recording.mp4"
  wait_span s2 25
  saves=(); reported=(); floor=()
  for i in $(seq 10); do
    saves+=("$(timed "$rec" save --session s2 --from -22s --to -4s -o "$work/clip$i.mp4" --json)")
    tail -1 "$work/cpu" >>"$work/save-cpu"
    reported+=("$(field frames dropped_in_range <"$work/out" | tr ' ' /)")
    floor+=("$(timed "$rec" status --session s2 --json)")
    tail -1 "$work/cpu" >>"$work/status-cpu"
  done
  echo "  load during saves $(load)"
  ffloor=()
  for _ in $(seq 10); do ffloor+=("$(timed ffmpeg -version)"); tail -1 "$work/cpu" >>"$work/ffmpeg-cpu"; done
  "$rec" stop --session s2 >/dev/null
  cuts=()
  for i in $(seq 10); do
    cuts+=("$(timed ffmpeg -v error -y -ss 4 -to 22 -i "$work/recording.mp4" -c copy "$work/cut$i.mp4")")
  done
  read -r rb rm_ < <(printf '%s\n' "${saves[@]}" | best_median)
  read -r cb cm < <(printf '%s\n' "${cuts[@]}" | best_median)
  count() { ffprobe -v error -count_frames -select_streams v -show_entries stream=nb_read_frames -of csv=p=0 "$1"; }
  exact=0
  counted=()
  for i in $(seq 10); do
    counted+=("$(count "$work/clip$i.mp4")")
    [[ "${counted[-1]}" == 540 ]] && exact=$((exact + 1))
  done
  read -r lb lm < <(printf '%s\n' "${floor[@]}" | best_median)
  read -r xb xm < <(printf '%s\n' "${ffloor[@]}" | best_median)
  cpu_median() { best_median <"$work/$1" | awk '{ printf "%.0f", $2 * 1000 }'; }
  printf '%-28s %8s %8s %8s\n' "" best median frames
  printf '%-28s %6.0fms %6.0fms %8s\n' "rec save" "$(ms "$rb")" "$(ms "$rm_")" "$exact/10 ×540" \
    "ffmpeg -ss -to -c copy" "$(ms "$cb")" "$(ms "$cm")" "$(count "$work/cut1.mp4")" \
    "floor: rec status" "$(ms "$lb")" "$(ms "$lm")" "" "floor: ffmpeg -version" "$(ms "$xb")" "$(ms "$xm")" ""
  printf '  ratio ffmpeg / rec (median; above 1.00 means rec is faster): %.2fx\n' "$(calc '%f' "$cm / $rm_")"
  echo "  runs (s): rec ${saves[*]}"
  echo "  CPU per process (user + system, median): rec save $(cpu_median save-cpu) ms," \
    "rec status $(cpu_median status-cpu) ms, ffmpeg -version $(cpu_median ffmpeg-cpu) ms"
  echo "  frames counted by ffprobe: ${counted[*]}; rec's report (frames/dropped in range): ${reported[*]}"
  row "save 18 s from ring (median)" "$(ms "$rm_") ms" "<= 100 ms" "$rm_ <= 0.1"
  row "  its CPU (user + system, median)" "$(cpu_median save-cpu) ms" "(info)" "1"
  row "clips with exactly 540 frames" "$exact/10" "10/10" "$exact == 10"
fi

if wants 3 || wants 4; then
  echo
  echo "3. ${duration} s session recording to a file, 5 min ring, rec save --last 10s every 10 s"
  "$rec" start --session s3 --source "$source" --preset default --output "$work/long.mp4" --buffer 5m >/dev/null
  pid=$(cat "$XDG_RUNTIME_DIR/rec/s3/pid")
  t0=$EPOCHREALTIME; c0=$(ticks "$pid"); hz=$(getconf CLK_TCK)
  saves=(); short=0; n=$((duration / 10))
  printf '  %6s %9s %10s %8s %8s\n' t RSS ring span "RSS-ring"
  for i in $(seq "$n"); do
    sleep "$(awk -v t0="$t0" -v now="$EPOCHREALTIME" -v i="$i" 'BEGIN { d = t0 + 10 * i - now; print (d > 0 ? d : 0) }')"
    s=$EPOCHREALTIME
    frames=$("$rec" save --session s3 --last 10s -o "$work/save.mp4" --force --json | field frames) || frames=failed
    saves+=("$(awk -v s="$s" -v e="$EPOCHREALTIME" 'BEGIN { printf "%.4f", e - s }')")
    [[ "$frames" == 300 ]] || { short=$((short + 1)); echo "$((i * 10)) $frames" >>"$work/short.txt"; }
    read -r bytes span < <(status s3 | field ring_bytes ring_span)
    rss=$(rss_kb "$pid")
    echo "$((i * 10)) $rss $bytes $span" >>"$work/memory.txt"
    if (( i % 6 == 0 || i == 1 )); then
      printf '  %5ds %7.0fMB %8.0fMB %7.1fs %7.0fMB\n' $((i * 10)) "$(calc %f "$rss / 1000")" \
        "$(calc %f "$bytes / 1e6")" "$span" "$(calc %f "($rss * 1000 - $bytes) / 1e6")"
    fi
  done
  st=$(status s3)
  wall=$(awk -v s="$t0" -v e="$EPOCHREALTIME" 'BEGIN { print e - s }'); c1=$(ticks "$pid")
  read -r frames fps late driver uptime bytes span < <(echo "$st" | field frames fps dropped_late dropped_by_driver uptime ring_bytes ring_span)
  rss=$(rss_kb "$pid")
  smaps=$(grep -E '^(Rss|Anonymous|Private_Dirty)' "/proc/$pid/smaps_rollup" | tr -s ' ' | paste -sd' ')
  threads=$(awk '/^Threads:/ { print $2 }' "/proc/$pid/status")
  endload=$(load)
  "$rec" stop --session s3 >/dev/null
  written=$(ffprobe -v error -select_streams v -show_entries stream=nb_frames -of csv=p=0 "$work/long.mp4")
  cpu=$(calc '%.0f' "($c1 - $c0) / $hz / $wall * 100")
  real=$(calc '%.2f' "($frames - $late - $driver) / $uptime")
  captured=$(calc '%.2f' "$frames / $uptime")
  read -r svb svm < <(printf '%s\n' "${saves[@]}" | best_median)
  echo "  frames captured $frames in $(calc '%.1f' "$uptime") s ($captured fps, status fps $fps);" \
    "encoded $((frames - late - driver)): real ${real} fps; the file has $written frames"
  echo "  dropped_late $late, dropped_by_driver $driver; saves ${#saves[@]}, not 300 frames: $short"
  [[ -s "$work/short.txt" ]] && echo "  short saves (t frames): $(head -12 "$work/short.txt" | paste -sd,)"
  echo "  save --last 10s best $(ms "$svb") ms, median $(ms "$svm") ms"
  echo "  session CPU ${cpu}% of one core (${threads} threads); load average at end $endload"
  # Can this machine, as loaded now, encode 1080p30 with these settings in real time at all?
  ffenc=$(timed ffmpeg -v error -f lavfi -i testsrc2=size=1920x1080:rate=30 -frames:v 300 -c:v libx264 \
    -preset veryfast -crf 23 -g 30 -bf 0 -pix_fmt yuv420p -f null -)
  echo "  ffmpeg CLI, same encode unpaced right after: $(calc '%.1f' "300 / $ffenc") fps (load $(load))"
  row "dropped (late + driver) in ${duration} s" "$((late + driver))" "0" "$late + $driver == 0"
  row "real fps (frames encoded / s)" "$real" ">= 29.9" "$real >= 29.9"
  row "saves of 300 frames" "$(( ${#saves[@]} - short ))/${#saves[@]}" "all" "$short == 0"
  row "session CPU (share of one core)" "${cpu}%" "(info)" "1"
  if wants 4; then
    echo
    echo "4. memory of the session (5 min ring)"
    limit=$(calc '%.0f' "1.1 * $bytes + 60e6")
    full=$(awk -v s="$span" 'BEGIN { print (s >= 299) }')
    echo "  ring ${span} s, $(calc '%.1f' "$bytes / 1e6") MB$( ((full)) || echo " — NOT full: run ≥ 310 s for the figure")"
    echo "  VmRSS $(calc '%.1f' "$rss / 1000") MB; RSS / ring bytes $(calc '%.2f' "$rss * 1000 / $bytes");" \
      "RSS − 1.1×ring $(calc '%.1f' "($rss * 1000 - 1.1 * $bytes) / 1e6") MB (target ≤ 60 MB)"
    echo "  smaps_rollup (kB): $smaps"
    first=$(head -1 "$work/memory.txt")
    echo "  RSS − ring at 10 s: $(echo "$first" | awk '{ printf "%.1f", ($2 * 1000 - $3) / 1e6 }') MB;" \
      "at the end: $(calc '%.1f' "($rss * 1000 - $bytes) / 1e6") MB; MALLOC_ARENA_MAX=${MALLOC_ARENA_MAX:-unset}"
    row "RSS, ring $(calc '%.0f' "$span") s of $(calc '%.0f' "$bytes / 1e6") MB" "$(calc '%.0f MB' "$rss / 1000")" \
      "<= $(calc '%.0f' "$limit / 1e6") MB" "$rss * 1000 <= $limit && $full"
  fi
fi

echo
printf '%-36s %14s %16s  %s\n' measure measured target result
printf '%s\n' "${summary[@]}"
echo "load average at end $(load)"
