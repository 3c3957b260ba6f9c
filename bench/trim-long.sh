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
# Each rec row is compared with ffmpeg's cut into the same container, run in turn with it.
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

# One timed run: "seconds peak-KiB". Every run starts alike: no clip of an earlier run on disk
# and no dirty pages waiting to be written back (sync), since writing 1 GB behind another 1 GB
# that the kernel is still flushing takes up to twice as long on this VM.
run() {
  rm -f "$work"/ref.* "$work"/out.*
  sync
  if ! /usr/bin/time -f "%e %M" -o "$work/time.txt" "$@" >/dev/null 2>"$work/err.txt"; then
    echo "failed: $* ($(tail -c 300 "$work/err.txt"))" >&2
    return 1
  fi
  tail -1 "$work/time.txt"
}

# The best (fastest) of $runs rounds for each of ffmpeg's cut and rec's, taken in turn (ffmpeg,
# rec, ffmpeg, rec, ...) so that both see the same state of the machine: "ft fm rt rm".
pair() {
  local ext=$1; shift
  local best_f="" best_r=""
  for _ in $(seq "$runs"); do
    local f r
    f=$(run ffmpeg -v error -y -ss "$from" -to "$to" -i "$work/in.mp4" -map 0 -c copy "$work/ref.$ext") || exit 1
    r=$(run "$@") || exit 1
    best_f=$(printf '%s\n%s\n' "$best_f" "$f" | sed '/^$/d' | sort -g | head -1)
    best_r=$(printf '%s\n%s\n' "$best_r" "$r" | sed '/^$/d' | sort -g | head -1)
  done
  echo "$best_f $best_r"
}

printf '%-8s %-22s %9s %9s %10s %9s %9s %10s %10s %12s\n' cut mode "ffmpeg s" "rec s" "rec/ffmpeg" "ffmpeg MiB" "rec MiB" "rec/ffmpeg" reencoded "ms/frame"
for cut in "5:61.5:361.5" "17:61.5:1081.5"; do
  IFS=: read -r minutes from to <<<"$cut"
  for mode in "exact .mp4:mp4:" "exact .mkv:mkv:" "--edit-list .mp4:mp4:--edit-list" "--keyframe .mp4:mp4:--keyframe"; do
    IFS=: read -r name ext flag <<<"$mode"
    # shellcheck disable=SC2086 # $flag is empty or one word
    read -r ft fm rt rm_ <<<"$(pair "$ext" "$rec" trim "$work/in.mp4" --from "${from}s" --to "${to}s" -o "$work/out.$ext" --force $flag)"
    # shellcheck disable=SC2086
    n=$("$rec" trim "$work/in.mp4" --from "${from}s" --to "${to}s" -o "$work/dry.$ext" --dry-run --json $flag |
      sed -n 's/.*"reencoded":\([0-9]*\).*/\1/p')
    per=-
    [[ ${n:-0} -gt 0 ]] && per=$(awk -v r="$rt" -v f="$ft" -v n="$n" 'BEGIN { printf "%.1f", (r - f) * 1000 / n }')
    printf '%-8s %-22s %9.2f %9.2f %10.2f %9d %9d %10.2f %10s %12s\n' "${minutes} min" "$name" "$ft" "$rt" \
      "$(awk -v a="$rt" -v b="$ft" 'BEGIN { print a / b }')" $((fm / 1024)) $((rm_ / 1024)) \
      "$(awk -v a="$rm_" -v b="$fm" 'BEGIN { print a / b }')" "${n:-?}" "$per"
  done
done
