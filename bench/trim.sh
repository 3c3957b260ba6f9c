#!/usr/bin/env bash
# Frame-exact cutting: rec trim against the ffmpeg CLI's usual fast cut (stream copy), on a
# 60 s 1920x1080 30 fps H.264 file (x264, keyframe every 2 s, 2 B-frames) in MP4 and in MKV.
# Each tool cuts 21.5 s to 39.5 s (the start deliberately between keyframes): exactly the 540
# source frames 645..1184. Prints the best wall time of N runs, rec's time over ffmpeg's (target:
# at most 0.50), the frames each output presents and how many are off at the start and the end
# (decoded with framemd5 and matched against the source's frames by hash; see framesoff.py).
# Run by hand: bench/trim.sh [runs]   (default 5)
# The long case (20-minute source, 5- and 17-minute cuts, wall time and peak memory):
#   bench/trim.sh long [runs]   (runs bench/trim-long.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ ${1:-} == long ]]; then shift; exec bench/trim-long.sh "$@"; fi
runs=${1:-5}
from=21.5 to=39.5 fps=30
first=$(awk -v t=$from -v r=$fps 'BEGIN { printf "%d", t * r + 0.5 }')
end=$(awk -v t=$to -v r=$fps 'BEGIN { printf "%d", t * r + 0.5 }')
{ swift build -c release --product rec-engine && swift build -c release --product rec-trim && swift build -c release --product rec; } >/dev/null
rec=$(swift build -c release --show-bin-path)/rec
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

best() { sort -g | head -1; }
# Wall seconds of one run of a command, its output thrown away.
time_it() {
  local s=$EPOCHREALTIME
  "$@" >/dev/null 2>&1
  awk -v s="$s" -v e="$EPOCHREALTIME" 'BEGIN { printf "%.3f\n", e - s }'
}
# The checksum of every frame a file presents, nothing dropped or repeated.
frame_sums() { ffmpeg -v error -y -i "$1" -map 0:v:0 -fps_mode passthrough -f framemd5 "$2"; }
# One field (key=value) of framesoff.py's report.
field() { tr ' ' '\n' <<<"$1" | sed -n "s/^$2=//p"; }
# An edge of the clip as "+extra" and/or "-missing" frames, or 0 when exact.
edge() {
  local e m
  e=$(field "$1" "$2_extra") m=$(field "$1" "$2_missing")
  if [[ $e == 0 && $m == 0 ]]; then echo 0; else echo "$([[ $e != 0 ]] && echo "+$e")$([[ $m != 0 ]] && echo "-$m")"; fi
}

# A detailed, moving picture; keyframes exactly every 60 frames (no scene-cut keyframes).
ffmpeg -v error -f lavfi -i "testsrc2=size=1920x1080:rate=$fps" -frames:v $((60 * fps)) \
  -c:v libx264 -preset superfast -crf 23 -g 60 -keyint_min 60 -sc_threshold 0 -bf 2 \
  -pix_fmt yuv420p "$work/in.mp4"
ffmpeg -v error -i "$work/in.mp4" -c copy "$work/in.mkv"
frame_sums "$work/in.mp4" "$work/in.md5"

printf '%-5s %-22s %9s %10s %10s %7s %5s %9s\n' \
  container tool "time (s)" "rec/tool" presented "start" "end" reencoded
for container in mp4 mkv; do
  input=$work/in.$container
  tools=(rec "ffmpeg -ss before -i" "ffmpeg -ss after -i")
  commands=(
    "$rec trim $input --from ${from}s --to ${to}s -o $work/out0.$container --force"
    "ffmpeg -v error -y -ss $from -to $to -i $input -map 0:v:0 -c copy $work/out1.$container"
    "ffmpeg -v error -y -i $input -ss $from -to $to -map 0:v:0 -c copy $work/out2.$container"
  )
  times=()
  for i in "${!tools[@]}"; do
    runs_of=()
    for _ in $(seq "$runs"); do
      # Every run writes a new file, the usual case: replacing one costs rec's rename an ext4 flush.
      rm -f "$work/out$i.$container"
      # shellcheck disable=SC2086 # the command line is split on purpose; no path has spaces
      runs_of+=("$(time_it ${commands[$i]})")
    done
    times+=("$(printf '%s\n' "${runs_of[@]}" | best)")
  done
  reencoded=$("$rec" trim "$input" --from ${from}s --to ${to}s --dry-run --json |
    sed -n 's/.*"reencoded":\([0-9]*\).*/\1/p')
  for i in "${!tools[@]}"; do
    frame_sums "$work/out$i.$container" "$work/out$i.$container.md5"
    off=$(python3 bench/framesoff.py "$work/in.md5" "$work/out$i.$container.md5" "$first" "$end")
    ratio=-
    if [[ $i == 0 ]]; then
      shown=$reencoded
      [[ $(field "$off" unmatched) == "$reencoded" ]] ||
        echo "  rec reports $reencoded frames re-encoded but $(field "$off" unmatched) match no source frame" >&2
    else
      shown=$(field "$off" unmatched)
      ratio=$(awk -v r="${times[0]}" -v t="${times[$i]}" 'BEGIN { printf "%.2f", r / t }')
    fi
    printf '%-5s %-22s %9.3f %10s %10d %7s %5s %9d\n' "$container" "${tools[$i]}" "${times[$i]}" "$ratio" \
      "$(field "$off" presented)" "$(edge "$off" start)" "$(edge "$off" end)" "$shown"
    inner=$(field "$off" inner)
    [[ $inner == 0 ]] || echo "  ${tools[$i]}: $inner frames duplicated or missing inside the clip" >&2
  done
done
echo "exact: $((end - first)) frames (source frames $first..$((end - 1))); start/end: +extra -missing frames; rec/tool: time ratio"
