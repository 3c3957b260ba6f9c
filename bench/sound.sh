#!/usr/bin/env bash
# What sound costs, and whether it stays in sync (issue 9), beside the ffmpeg CLI in the same run:
#   1. CPU and memory of a 1920x1080@30 stand-in session (default preset, recording to a file)
#      for SECONDS, without and with --audio test (AAC 160 kb/s stereo), against ffmpeg -re encoding
#      lavfi's testsrc2 the same way without and with a sine tone (aac 160k). CPU seconds are the
#      process's user+system time over the run; the target is <= 5 % more CPU with sound.
#   2. Sync over a stand-in session of MINUTES whose sound clock runs 0.1 % fast
#      (--audio test:skew=0.001, 320x240 so the run costs little): the worst |click - flash| at
#      the start, middle and end of the recording and of clips saved from the ring there
#      (bench/syncprobe.py, the ffmpeg CLI only). Target <= 10 ms after an hour.
# Run by hand: bench/sound.sh [SECONDS (60)] [MINUTES (60)] [parts (1,2)]
set -euo pipefail
seconds=${1:-60}
minutes=${2:-60}
parts=${3:-1,2}
source "$(dirname "$0")/common.sh"
trap '"$rec" stop --session snd >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
wants() { [[ ",$parts," == *",$1,"* ]]; }
ticks=$(getconf CLK_TCK)
# user+system CPU seconds of a running process.
cpu() { awk -v t="$ticks" '{ print ($14 + $15) / t }' "/proc/$1/stat"; }
x264=(-c:v libx264 -preset veryfast -crf 23 -g 30 -bf 0 -rc-lookahead 5 -x264-params sync-lookahead=0 -pix_fmt yuv420p)

echo "sound bench, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"

if wants 1; then
  echo
  echo "1. 1920x1080@30 for ${seconds} s: CPU seconds (user+system) and RSS, without and with sound"
  printf '  %-26s %9s %9s %9s\n' "" "CPU s" "RSS MB" "dropped"
  declare -A c
  for audio in none test; do
    "$rec" start --session snd --source test:1920x1080@30 --preset default --audio "$audio" \
      --output "$work/s-$audio.mp4" --force >/dev/null
    pid=$(cat "$XDG_RUNTIME_DIR/rec/snd/pid")
    start=$(cpu "$pid"); sleep "$seconds"; end=$(cpu "$pid")
    rss=$(awk '/^VmRSS:/ { print $2 * 1024 }' "/proc/$pid/status")
    dropped=$("$rec" status --session snd --json | python3 bench/session-json.py dropped_late)
    "$rec" stop --session snd >/dev/null
    c[rec-$audio]=$(calc %f "$end - $start")
    printf '  %-26s %9.2f %9.1f %9d\n' "rec session, audio $audio" "${c[rec-$audio]}" "$(calc %f "$rss / 1e6")" "$dropped"
  done
  for audio in none sine; do
    sound=(); [[ $audio == sine ]] && sound=(-re -f lavfi -i "sine=frequency=440:sample_rate=48000" -c:a aac -b:a 160k -ac 2)
    /usr/bin/time -f '%U %S %M' -o "$work/t" ffmpeg -v error -y -re -f lavfi -i testsrc2=size=1920x1080:rate=30 \
      "${sound[@]}" "${x264[@]}" -t "$seconds" "$work/f-$audio.mp4"
    read -r u s m <"$work/t"
    c[ff-$audio]=$(calc %f "$u + $s")
    printf '  %-26s %9.2f %9.1f %9s\n' "ffmpeg -re, audio $audio" "${c[ff-$audio]}" "$(calc %f "$m * 1024 / 1e6")" "-"
  done
  echo "  sound costs rec $(calc %+.1f "(${c[rec-test]} / ${c[rec-none]} - 1) * 100") % CPU" \
    "(ffmpeg $(calc %+.1f "(${c[ff-sine]} / ${c[ff-none]} - 1) * 100") %); target <= +5 %"
  echo "  ratio rec / ffmpeg: without sound $(calc %.2f "${c[rec-none]} / ${c[ff-none]}")x, with $(calc %.2f "${c[rec-test]} / ${c[ff-sine]}")x"
fi

if wants 2; then
  echo
  total=$((minutes * 60))
  echo "2. ${minutes}-minute stand-in session, sound clock 0.1 % fast: worst |click - flash|"
  "$rec" start --session snd --source test:320x240@30 --audio test:skew=0.001 --buffer "$((minutes + 2))m" \
    --output "$work/sync.mp4" --force >/dev/null
  sleep "$((total + 3))"
  "$rec" status --session snd
  mid=$((total / 2))
  for clip in "start 10 30" "middle $((mid - 10)) $((mid + 10))" "end $((total - 25)) $((total - 5))"; do
    read -r name from to <<<"$clip"
    "$rec" save --session snd --from "${from}s" --to "${to}s" -o "$work/clip-$name.mkv" >/dev/null
    echo "  clip from the ring at the $name (${from}-${to} s):"
    python3 bench/syncprobe.py "$work/clip-$name.mkv" | sed 's/^/    /'
  done
  "$rec" stop --session snd >/dev/null
  echo "  the recording file:"
  python3 bench/syncprobe.py "$work/sync.mp4" | sed 's/^/    /'
fi
