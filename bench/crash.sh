#!/usr/bin/env bash
# What the tighter crash promise (kill -9 loses at most 0.5 s) costs. rec records with fragments
# that end every 0.1 s and an encoder look-ahead capped to 0.15 s of frames (EncoderLatency); this
# compares it with the same recording at x264's own look-ahead (a preset that sets rc-lookahead
# itself, which rec leaves alone) and with the ffmpeg CLI doing both encodes, as ratios:
#   - CPU seconds (user + system) and output size of a 1080p file encode (--pace off);
#   - the fragment overhead while recording: moof bytes in a killed (still fragmented) MP4, and
#     Matroska cluster headers in a killed MKV, per second of 1080p30.
# Run by hand: bench/crash.sh [seconds-of-video] [runs]
set -euo pipefail
seconds=${1:-20}
runs=${2:-3}
source "$(dirname "$0")/common.sh"
trap 'rm -rf "$work"' EXIT

# CPU seconds (user + sys) of a command, best of $runs.
cpu() {
  local best=""
  for _ in $(seq "$runs"); do
    /usr/bin/time -f "%U %S" -o "$work/t" "$@" >/dev/null 2>&1
    local t; t=$(awk '{ printf "%.2f", $1 + $2 }' "$work/t")
    if [[ -z "$best" ]] || awk -v a="$t" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$t; fi
  done
  echo "$best"
}
size() { stat -c %s "$1"; }

input=$work/input.mp4
ffmpeg -v error -f lavfi -i "testsrc2=size=1920x1080:rate=30" -frames:v $((seconds * 30)) \
  -c:v libx264 -preset ultrafast -crf 12 -pix_fmt yuv420p "$input"
mkdir -p "$work/presets"
cat > "$work/presets/uncapped.json" <<'JSON'
{ "description": "default with x264's own look-ahead", "base": "default",
  "options": { "rc-lookahead": "10", "x264-params": "sync-lookahead=-1" } }
JSON
export XDG_CONFIG_HOME=$work/config
mkdir -p "$XDG_CONFIG_HOME/rec" && cp -r "$work/presets" "$XDG_CONFIG_HOME/rec/"

ff=(ffmpeg -v error -y -i "$input" -c:v libx264 -preset veryfast -crf 23 -g 30 -bf 0 -pix_fmt yuv420p)
rec_capped=$(cpu "$rec" record --source "file:$input" --pace off --preset default -o "$work/capped.mp4" --force)
rec_uncapped=$(cpu "$rec" record --source "file:$input" --pace off --preset uncapped -o "$work/uncapped.mp4" --force)
ff_capped=$(cpu "${ff[@]}" -rc-lookahead 5 -x264-params sync-lookahead=0 "$work/ff-capped.mp4")
ff_uncapped=$(cpu "${ff[@]}" "$work/ff-uncapped.mp4")

echo "1080p30, ${seconds} s, libx264 veryfast crf 23, best of $runs (CPU s = user + sys)"
printf '%-34s %8s %10s %8s %10s\n' "" "CPU s" "MB" "vs ffmpeg" ""
printf '%-34s %8s %10.2f %8s\n' "rec, look-ahead 5 (recordings)" "$rec_capped" "$(awk -v b="$(size "$work/capped.mp4")" 'BEGIN{print b/1e6}')" \
  "$(awk -v a="$rec_capped" -v b="$ff_capped" 'BEGIN{printf "%.2fx", a/b}')"
printf '%-34s %8s %10.2f %8s\n' "rec, x264's look-ahead 10" "$rec_uncapped" "$(awk -v b="$(size "$work/uncapped.mp4")" 'BEGIN{print b/1e6}')" \
  "$(awk -v a="$rec_uncapped" -v b="$ff_uncapped" 'BEGIN{printf "%.2fx", a/b}')"
printf '%-34s %8s %10.2f\n' "ffmpeg, -rc-lookahead 5" "$ff_capped" "$(awk -v b="$(size "$work/ff-capped.mp4")" 'BEGIN{print b/1e6}')"
printf '%-34s %8s %10.2f\n' "ffmpeg, x264's look-ahead" "$ff_uncapped" "$(awk -v b="$(size "$work/ff-uncapped.mp4")" 'BEGIN{print b/1e6}')"
awk -v a="$(size "$work/capped.mp4")" -v b="$(size "$work/uncapped.mp4")" -v c="$rec_capped" -v d="$rec_uncapped" \
  'BEGIN { printf "cost of the cap: size %+.1f%%, CPU %+.1f%%\n", (a / b - 1) * 100, (c / d - 1) * 100 }'

# Fragment overhead while recording: kill -9 a real-time 1080p30 recording after 6 s and count.
for ext in mp4 mkv; do
  "$rec" record --source test:1920x1080@30 -o "$work/killed.$ext" --force >/dev/null 2>&1 &
  pid=$!
  sleep 6
  kill -9 "$pid"; wait "$pid" 2>/dev/null || true
  python3 - "$work/killed.$ext" "$ext" <<'PY'
import struct, sys
path, ext = sys.argv[1], sys.argv[2]
data = open(path, 'rb').read()
if ext == 'mp4':
    pos, moof, count = 0, 0, 0
    while pos + 8 <= len(data):
        size, kind = struct.unpack('>I4s', data[pos:pos + 8])
        if size < 8: break
        if kind == b'moof': moof += size; count += 1
        pos += size
    print(f"killed MP4: {len(data)/1e6:.2f} MB, {count} fragments, moof {moof} bytes = {100*moof/len(data):.2f}% of the file")
else:
    # Cluster element id 0x1F43B675; each costs its id, size and Timestamp element (~12-16 bytes).
    count = data.count(b'\x1f\x43\xb6\x75')
    print(f"killed MKV: {len(data)/1e6:.2f} MB, {count} clusters, headers ~{count*16} bytes = {100*count*16/len(data):.3f}% of the file")
PY
done
