#!/usr/bin/env bash
# Encode throughput: rec record --pace off against the ffmpeg CLI doing the same work — decode the
# same 1280x720 and 1920x1080 files and encode them with the default preset's settings (libx264
# veryfast, crf 23, keyframe every 30 frames, no B-frames, yuv420p, MP4) as fast as possible.
# Prints frames/s for both and the ratio (rec / ffmpeg; above 1.00 means rec is faster).
# Run by hand: bench/encode.sh [seconds-of-video] [runs]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-10}
runs=${2:-3}
{ swift build -c release --product rec-engine && swift build -c release --product rec-trim && swift build -c release --product rec; } >/dev/null
rec=$(swift build -c release --show-bin-path)/rec
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

best() { sort -n | head -1; }
time_it() { local s=$EPOCHREALTIME; "$@" >/dev/null 2>&1; awk -v s="$s" -v e="$EPOCHREALTIME" 'BEGIN { printf "%.3f\n", e - s }'; }

printf '%-10s %8s %12s %12s %8s %10s %10s\n' size frames "rec fps" "ffmpeg fps" ratio "rec MB" "ffmpeg MB"
for size in 1280x720 1920x1080; do
  input=$work/input-$size.mp4
  frames=$((seconds * 30))
  # A detailed, moving source, stored near-losslessly so decoding is real work for both.
  ffmpeg -v error -f lavfi -i "testsrc2=size=$size:rate=30" -frames:v $frames \
    -c:v libx264 -preset ultrafast -crf 12 -pix_fmt yuv420p "$input"
  rec_times=(); ff_times=()
  for _ in $(seq "$runs"); do
    rec_times+=("$(time_it "$rec" record --source "file:$input" --pace off --preset default -o "$work/rec.mp4" --force)")
    ff_times+=("$(time_it ffmpeg -v error -y -i "$input" -c:v libx264 -preset veryfast -crf 23 -g 30 -bf 0 -rc-lookahead 5 -x264-params sync-lookahead=0 \
      -pix_fmt yuv420p -movflags +faststart "$work/ffmpeg.mp4")")
  done
  got=$(ffprobe -v error -count_frames -select_streams v -show_entries stream=nb_read_frames -of csv=p=0 "$work/rec.mp4")
  [[ "$got" == "$frames" ]] || { echo "rec wrote $got frames, expected $frames" >&2; exit 1; }
  rt=$(printf '%s\n' "${rec_times[@]}" | best)
  ft=$(printf '%s\n' "${ff_times[@]}" | best)
  awk -v size="$size" -v n="$frames" -v r="$rt" -v f="$ft" -v rb="$(stat -c %s "$work/rec.mp4")" \
    -v fb="$(stat -c %s "$work/ffmpeg.mp4")" \
    'BEGIN { printf "%-10s %8d %12.1f %12.1f %7.2fx %10.1f %10.1f\n", size, n, n / r, n / f, f / r, rb / 1e6, fb / 1e6 }'
done
