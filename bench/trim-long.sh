#!/usr/bin/env bash
# Long cuts in constant memory: rec trim against `ffmpeg -ss A -to B -i IN -map 0 -c copy OUT` on a
# 20-minute 1920x1080 30 fps H.264 + AAC file (8 Mb/s, keyframe every 2 s), cuts of 5 and 17
# minutes starting between keyframes. Prints wall time and peak memory (wait4's ru_maxrss, via
# /usr/bin/time) of each, rec over ffmpeg as ratios, and for the exact cut the frames it
# re-encoded and what each cost (rec's time minus ffmpeg's, per frame).
# Targets: memory <= 1.2x ffmpeg's and flat as the clip grows in every mode; --edit-list <= 1.0x
# ffmpeg's time; the exact cut <= 1.5x on the 17-minute cut.
# The source is made cheaply: 60 s encoded once at x264 ultrafast, concatenated 20 times by the
# concat demuxer with -c copy (continuous timestamps).
# Each rec row is compared with ffmpeg's cut into the same container.
# Run by hand: bench/trim-long.sh [runs]   (default 1; the best of runs is kept)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-1}
swift build -c release --product rec-trim >/dev/null && swift build -c release --product rec >/dev/null
rec=$(swift build -c release --show-bin-path)/rec
work=${TRIM_LONG_WORK:-$(mktemp -d)}
[[ -n ${TRIM_LONG_WORK:-} ]] || trap 'rm -rf "$work"' EXIT

if [[ ! -s $work/in.mp4 ]]; then
  ffmpeg -v error -y -f lavfi -i "testsrc2=size=1920x1080:rate=30" -f lavfi -i "sine=frequency=440:sample_rate=48000" \
    -t 60 -c:v libx264 -preset ultrafast -b:v 8M -maxrate 8M -bufsize 16M -g 60 -keyint_min 60 -sc_threshold 0 \
    -pix_fmt yuv420p -c:a aac -b:a 128k "$work/minute.mp4"
  for _ in $(seq 20); do echo "file '$work/minute.mp4'"; done >"$work/list.txt"
  ffmpeg -v error -y -f concat -safe 0 -i "$work/list.txt" -map 0 -c copy "$work/in.mp4"
fi

# "seconds peak-KiB" of the best (fastest) of $runs runs of a command.
measure() {
  local out=$1; shift
  for _ in $(seq "$runs"); do
    rm -f "$out"
    /usr/bin/time -f "%e %M" -o "$work/time.txt" "$@" >/dev/null 2>&1
    tail -1 "$work/time.txt"
  done | sort -g | head -1
}

printf '%-8s %-22s %9s %10s %9s %10s %10s %12s\n' cut tool "time (s)" "rec/ffmpeg" "peak MiB" "rec/ffmpeg" reencoded "ms/frame"
for cut in "5:61.5:361.5" "17:61.5:1081.5"; do
  IFS=: read -r minutes from to <<<"$cut"
  declare -A ft fm
  for ext in mp4 mkv; do
    read -r "ft[$ext]" "fm[$ext]" <<<"$(measure "$work/ref.$ext" ffmpeg -v error -y -ss "$from" -to "$to" -i "$work/in.mp4" -map 0 -c copy "$work/ref.$ext")"
    printf '%-8s %-22s %9.2f %10s %9d %10s %10s %12s\n' "${minutes} min" "ffmpeg -c copy .$ext" "${ft[$ext]}" - $((fm[$ext] / 1024)) - - -
  done
  for mode in "exact .mp4:mp4:" "exact .mkv:mkv:" "--edit-list .mp4:mp4:--edit-list" "--keyframe .mp4:mp4:--keyframe"; do
    IFS=: read -r name ext flag <<<"$mode"
    # shellcheck disable=SC2086 # $flag is empty or one word
    read -r rt rm_ <<<"$(measure "$work/out.$ext" "$rec" trim "$work/in.mp4" --from "${from}s" --to "${to}s" -o "$work/out.$ext" --force $flag)"
    # shellcheck disable=SC2086
    n=$("$rec" trim "$work/in.mp4" --from "${from}s" --to "${to}s" -o "$work/dry.$ext" --dry-run --json $flag |
      sed -n 's/.*"reencoded":\([0-9]*\).*/\1/p')
    per=-
    [[ ${n:-0} -gt 0 ]] && per=$(awk -v r="$rt" -v f="${ft[$ext]}" -v n="$n" 'BEGIN { printf "%.1f", (r - f) * 1000 / n }')
    printf '%-8s %-22s %9.2f %10.2f %9d %10.2f %10s %12s\n' "${minutes} min" "rec $name" "$rt" \
      "$(awk -v a="$rt" -v b="${ft[$ext]}" 'BEGIN { print a / b }')" $((rm_ / 1024)) \
      "$(awk -v a="$rm_" -v b="${fm[$ext]}" 'BEGIN { print a / b }')" "${n:-?}" "$per"
  done
done
