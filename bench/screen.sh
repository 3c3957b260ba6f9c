#!/usr/bin/env bash
# Issue 22's figures for the X11 screen source, beside the ffmpeg CLI in the same run:
#   a. a changing 1920x1080 screen (mpv playing testsrc2 full screen on a private Xvfb) recorded
#      at 30 fps with the default preset, to an MP4 file: rec's CPU per recorded frame against
#      `ffmpeg -f x11grab -framerate 30 -video_size 1920x1080 -i :N` with the same encoder settings
#      (the default preset and what a screen recording adds: no look-ahead, sliced threads, the
#      same fragmented MP4); target <= 1.05x, 0 frames dropped.
#   b. the same screen static (mpv stopped, the root one colour): rec's CPU per second <= 20 % of
#      the changing screen's.
# CPU is user + system seconds of the whole process (/proc/PID/stat) over the same window, per
# frame encoded (rec: pictures captured minus those its late-frame queue dropped); the
# sessions run in turn, each for $1 seconds (30) after 3 s of warm-up. The machine may be shared:
# the ratio of the same run is the figure, and the load average is printed.
# Run by hand: bench/screen.sh [seconds (30)]
set -euo pipefail
seconds=${1:-30}
warm=3
source "$(dirname "$0")/common.sh"
hz=$(getconf CLK_TCK)
load() { cut -d' ' -f1-3 /proc/loadavg; }
ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
field() { python3 bench/session-json.py "$@"; }
pids=()
cleanup() {
  "$rec" stop --session screen >/dev/null 2>&1 || true
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

# Xvfb writes its display number once it accepts clients (-displayfd).
exec 3< <(exec Xvfb -displayfd 1 -screen 0 1920x1080x24 -nolisten tcp -noreset 2>/dev/null)
pids+=("$!")
read -r -u 3 number
display=":$number"
export DISPLAY=$display
echo "screen bench (issue 22), $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD)," \
  "$(nproc) cores, $(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo); Xvfb $display 1920x1080"

changing() { # a picture that changes every frame, full screen
  mpv --no-config --really-quiet --vo=x11 --fs --loop=inf --no-audio "av://lavfi:testsrc2=size=1920x1080:rate=30" &
  mpv_pid=$!; pids+=("$mpv_pid")
  sleep 2
}

recsession() { # sets cpu frames drops
  "$rec" start --session screen --source x11 --preset default -o "$work/rec.mp4" --force >/dev/null
  local pid; pid=$(cat "$XDG_RUNTIME_DIR/rec/screen/pid")
  sleep "$warm"
  local f0 l0 c0 f1 l1 c1
  read -r f0 l0 < <("$rec" status --session screen --json | field frames dropped_late); c0=$(ticks "$pid")
  sleep "$seconds"
  read -r f1 l1 < <("$rec" status --session screen --json | field frames dropped_late); c1=$(ticks "$pid")
  "$rec" stop --session screen >/dev/null
  # `frames` counts every picture captured, the dropped ones too: the encoded ones are the rest.
  cpu=$(calc %.2f "($c1 - $c0) / $hz"); drops=$((l1 - l0)); frames=$((f1 - f0 - drops))
}

ffsession() { # the same encoder settings as a screen recording with the default preset
  ffmpeg -nostdin -v error -y -f x11grab -framerate 30 -video_size 1920x1080 -i "$display" -t $((warm + seconds + 2)) \
    -c:v libx264 -preset veryfast -crf 23 -g 30 -bf 0 -rc-lookahead 0 -x264-params sync-lookahead=0:sliced-threads=1 \
    -pix_fmt yuv420p -movflags frag_keyframe+empty_moov+default_base_moof -frag_duration 100000 \
    -stats_period 0.1 -progress "$work/progress" "$work/ff.mp4" &
  local ff=$! f0 c0 f1 c1; pids+=("$ff")
  sleep "$warm"
  ffframe() { grep '^frame=' "$work/progress" | tail -1 | cut -d= -f2; }
  ffcount() { grep "^$1=" "$work/progress" | tail -1 | cut -d= -f2; }
  local drop0 drop1 dup0 dup1
  f0=$(ffframe); drop0=$(ffcount drop_frames); dup0=$(ffcount dup_frames); c0=$(ticks "$ff")
  sleep "$seconds"
  f1=$(ffframe); drop1=$(ffcount drop_frames); dup1=$(ffcount dup_frames); c1=$(ticks "$ff")
  wait "$ff" || true
  # ffmpeg writes a constant rate: a grab that came late is followed by copies of the picture
  # before it (dup_frames), encoded again at almost no cost; `frames` counts them, `dups` says how many.
  cpu=$(calc %.2f "($c1 - $c0) / $hz"); frames=$((f1 - f0)); drops=$((drop1 - drop0)); dups=$((dup1 - dup0))
}

line() { printf '  %-34s %7.2f %7d %9.2f %9.1f %8d\n' "$1" "$cpu" "$frames" "$(calc %f "$cpu / ($frames > 0 ? $frames : 1) * 1000")" \
  "$(calc %f "$cpu / $seconds * 100")" "$drops"; }
echo
echo "window of $seconds s after $warm s; load at start $(load)"
printf '  %-34s %7s %7s %9s %9s %8s\n' "" "CPU s" frames "ms/frame" "% of a core" dropped
changing
recsession; line "a. rec, changing screen"; rec_cpu=$cpu; rec_frames=$frames; rec_drops=$drops
ffsession; line "a. ffmpeg x11grab, changing screen"; ff_cpu=$cpu; ff_frames=$frames; ff_dups=$dups
kill "$mpv_pid"; wait "$mpv_pid" 2>/dev/null || true
xsetroot -solid '#336699'
recsession; line "b. rec, static screen"; static_cpu=$cpu; static_frames=$frames; static_drops=$drops
echo "  load at end $(load)"
echo
ratio=$(calc %.3f "($rec_cpu / $rec_frames) / ($ff_cpu / $ff_frames)")
share=$(calc %.3f "$static_cpu / $rec_cpu")
printf '  %-50s %10s %10s  %s\n' "rec / ffmpeg CPU per frame (changing)" "$ratio" "<= 1.05" "$(awk "BEGIN { print ($ratio <= 1.05) ? \"PASS\" : \"MISS\" }")"
printf '  %-50s %10s %10s  %s\n' "rec frames dropped (changing + static)" "$((rec_drops + static_drops))" "0" "$( ((rec_drops + static_drops == 0)) && echo PASS || echo MISS)"
printf '  %-50s %10s %10s  %s\n' "static / changing CPU (rec, same window)" "$share" "<= 0.20" "$(awk "BEGIN { print ($share <= 0.20) ? \"PASS\" : \"MISS\" }")"
printf '  %-50s %10s\n' "rec frames kept, changing / static" "$rec_frames / $static_frames"
# Without ffmpeg's copies, per picture grabbed and encoded (rec makes no copies: its file is
# variable-rate). Printed beside the figure, not instead of it.
distinct=$(calc %.3f "($rec_cpu / $rec_frames) / ($ff_cpu / ($ff_frames - $ff_dups > 0 ? $ff_frames - $ff_dups : 1))")
printf '  %-50s %10s\n' "ffmpeg's copies of late pictures (dup_frames)" "$ff_dups"
printf '  %-50s %10s\n' "rec / ffmpeg CPU per picture, copies left out" "$distinct"
