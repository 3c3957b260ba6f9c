#!/usr/bin/env bash
# What the live sessions' encoder settings cost (docs/LIVE.md, "Latency"): a session with --http
# encodes with one picture of look-ahead and x264's threads on slices (EncoderLatency.liveOptions),
# one without with a 5-picture look-ahead and frame threads (EncoderLatency.options); no look-ahead
# at all (a screen's, EncoderLatency.noDelayOptions) is shown beside them. The ffmpeg CLI encodes
# the same pictures each way with the default preset's settings (libx264 veryfast crf 23,
# a keyframe a second, no B-frames): file size, CPU time (user + system) and SSIM against the
# source, for the stand-in's testsrc2 at 1080p30 and two real recordings from the test media.
# Run by hand: bench/live-encoder.sh [seconds of each source (10)]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-10}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
media=.build/sample-media
echo "live encoder settings, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
declare -A sources=(
  [testsrc2-1080p30]="-f lavfi -i testsrc2=size=1920x1080:rate=30"
  [tour-1080p24]="-stream_loop -1 -i $media/tour.mp4 -vf scale=1920:1080"
  [vtest-768x576]="-stream_loop -1 -i $media/vtest.avi"
)
printf '%-18s %-13s %10s %10s %8s\n' source settings "size (kB)" "CPU (s)" SSIM
for name in testsrc2-1080p30 tour-1080p24 vtest-768x576; do
  [[ $name == testsrc2* || -d $media ]] || continue
  read -r -a input <<<"${sources[$name]}"
  # The source once, lossless, so both encodes and the SSIM see the same pictures.
  ffmpeg -nostdin -v error -y "${input[@]}" -t "$seconds" -c:v ffv1 -pix_fmt yuv420p "$work/src.mkv"
  rate=$(ffprobe -v error -select_streams v:0 -show_entries stream=r_frame_rate -of csv=p=0 "$work/src.mkv")
  g=$(awk -v r="$rate" 'BEGIN { split(r, a, "/"); printf "%d", a[1] / a[2] + 0.5 }')
  for setting in "recording:rc-lookahead=5:sync-lookahead=0" "live:rc-lookahead=1:sync-lookahead=0:sliced-threads=1" \
                 "no-lookahead:rc-lookahead=0:sync-lookahead=0:sliced-threads=1"; do
    label=${setting%%:*} params=${setting#*:}
    /usr/bin/time -f '%U %S' -o "$work/time" ffmpeg -nostdin -v error -y -i "$work/src.mkv" -c:v libx264 -preset veryfast -crf 23 \
      -g "$g" -bf 0 -x264-params "$params" -pix_fmt yuv420p "$work/$label.mp4"
    cpu=$(awk '{ printf "%.2f", $1 + $2 }' "$work/time")
    size=$(( $(stat -c %s "$work/$label.mp4") / 1000 ))
    ssim=$(ffmpeg -nostdin -i "$work/$label.mp4" -i "$work/src.mkv" -lavfi ssim -f null - 2>&1 | sed -n 's/.*All:\([0-9.]*\).*/\1/p')
    printf '%-18s %-13s %10s %10s %8s\n' "$name" "$label" "$size" "$cpu" "$ssim"
  done
done
