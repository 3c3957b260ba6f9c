#!/usr/bin/env bash
# Builds the example programs (Examples/, a package of its own that depends on rec by path and
# imports only `Rec`) and runs each one on the stand-in camera, checking what it prints and writes.
# scripts/test.sh runs it after the tests; it needs ffmpeg/ffprobe and, for network-camera,
# gst-rtsp-server (Tests/Support/rtsp/rtsp-server.py), all installed by scripts/setup.sh.
#
#   scripts/examples.sh
set -euo pipefail
cd "$(dirname "$0")/.."
[[ -d /opt/swift/usr/bin ]] && export PATH="/opt/swift/usr/bin:$PATH"
started=$SECONDS
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

fail() {
  echo "examples: $*" >&2
  exit 1
}

# Runs an example, its stdout and stderr into $work/NAME.out (shown if it fails).
run() {
  local name=$1
  shift
  echo "examples: $name" >&2
  local status=0
  "$bin/$name" "$@" >"$work/$name.out" 2>&1 || status=$?
  ((status == 0)) || { cat "$work/$name.out" >&2; fail "$name exited with status $status"; }
}

# The number of frames ffprobe decodes from a file's video stream.
decoded_frames() {
  ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames -of csv=p=0 "$1"
}

# Each frame's mean luma, one a line, as FFmpeg's signalstats measures it.
luma_means() {
  ffmpeg -v error -i "$1" -vf signalstats,metadata=print:key=lavfi.signalstats.YAVG:file=- -an -f null - \
    | sed -n 's/^lavfi.signalstats.YAVG=//p'
}

swift build --package-path Examples
bin=$(swift build --package-path Examples --show-bin-path)
echo "examples: built in $((SECONDS - started)) s" >&2

# grab-frames, in real time: frames 0 to 19, times increasing, a brightness each.
run grab-frames --source test:320x240@30 --frames 20
awk '/^frame [0-9]+ at [0-9.]+ s, brightness [0-9.]+$/ { if ($2 != n || (n > 0 && $4 <= last)) bad = 1; n++; last = $4 }
     END { exit !(n == 20 && !bad) }' "$work/grab-frames.out" \
  || { cat "$work/grab-frames.out" >&2; fail "grab-frames did not print frames 0 to 19 with increasing times"; }

# filter-record: the negative has every frame of the original, and each frame's mean luma is 255
# minus the original's (within 1, for the two encodings; measured within 0.1).
run filter-record "$work/negative.mp4" --source test:320x240@30 --seconds 2 --original "$work/original.mp4" --fastest
for file in original negative; do
  [[ $(decoded_frames "$work/$file.mp4") == 60 ]] || fail "$file.mp4 has $(decoded_frames "$work/$file.mp4") frames, not 60"
done
paste <(luma_means "$work/original.mp4") <(luma_means "$work/negative.mp4") \
  | awk '{ n++; d = $1 + $2 - 255; if (d < -1 || d > 1) { print "frame " n-1 ": luma " $1 " and " $2; bad = 1 } }
         END { exit !(n == 60 && !bad) }' >&2 \
  || fail "negative.mp4 is not the original's negative"

# replay-buffer: Enter piped at once is taken once the buffer holds 2 s; the clip is the 4 s around
# the press, frame-exact: 120 frames, starting on the requested start.
# With the stand-in sound (a test tone), which the clip carries over the same 4 s.
echo | run replay-buffer "$work/clip.mp4" --source test:320x240@30 --audio test --around 2
[[ $(decoded_frames "$work/clip.mp4") == 120 ]] || fail "clip.mp4 has $(decoded_frames "$work/clip.mp4") frames, not 120"
sound=$(ffprobe -v error -select_streams a:0 -show_entries stream=codec_name,duration -of csv=p=0 "$work/clip.mp4")
awk -F, '$1 == "aac" && $2 > 3.95 && $2 < 4.05 { ok = 1 } END { exit !ok }' <<<"$sound" || fail "clip.mp4's sound is '$sound', not 4 s of AAC"
grep -Eq '^  120 frames, ([0-9:.]+)–[0-9:.]+ of requested \1–' "$work/replay-buffer.out" \
  || { cat "$work/replay-buffer.out" >&2; fail "the clip does not start on the requested start"; }
first=$(ffprobe -v error -select_streams v:0 -show_entries frame=best_effort_timestamp_time -read_intervals %+#1 -of default=nw=1:nk=1 "$work/clip.mp4")
[[ $first == 0.000000 ]] || fail "clip.mp4's first frame is at $first s, not 0"

# still-photo: a JPEG of the source's size.
run still-photo "$work/still.jpg" --source test:640x360@30
size=$(ffprobe -v error -show_entries stream=width,height -of csv=p=0:s=x "$work/still.jpg")
[[ $size == 640x360 ]] || fail "still.jpg is $size, not 640x360"

# readme: the README's "Use it from Swift" program, in a folder of its own (it writes clip.mp4 and
# still.jpg where it runs): frames printed, a clip of exactly 1 s to 3 s (60 frames), a photo.
mkdir "$work/readme"
(cd "$work/readme" && run readme)
grep -q '^frame 30 captured at' "$work/readme.out" || { cat "$work/readme.out" >&2; fail "readme printed no frames"; }
[[ $(decoded_frames "$work/readme/clip.mp4") == 60 ]] || fail "the README's clip has $(decoded_frames "$work/readme/clip.mp4") frames, not 60"
[[ $(ffprobe -v error -show_entries stream=width -of csv=p=0 "$work/readme/still.jpg") == 1280 ]] || fail "the README's still.jpg does not decode"

# network-camera: gst-rtsp-server on loopback, asking for a password, which must not be printed.
exec {server}< <(exec /usr/bin/python3 Tests/Support/rtsp/rtsp-server.py --size 320x180 --user viewer --password Secret-42 --parent $$)
read -r -u "$server" ready url || fail "rtsp-server.py did not start"
[[ $ready == READY ]] || fail "rtsp-server.py said '$ready $url'"
run network-camera "rtsp://viewer:Secret-42@${url#rtsp://}/h264" "$work/camera.mp4" --seconds 3
! grep -q Secret-42 "$work/network-camera.out" || fail "network-camera printed the password"
recorded=$(sed -n 's/^  \([0-9]*\) frames in .*/\1/p' "$work/network-camera.out")
[[ -n $recorded && $(decoded_frames "$work/camera.mp4") == "$recorded" ]] \
  || fail "camera.mp4 has $(decoded_frames "$work/camera.mp4") frames; the summary says '$recorded'"
# 3 s at 30 fps; a network camera's frame times sit off the 1/30 s grid, so the end may take one more.
((recorded == 90 || recorded == 91)) || fail "camera.mp4 has $recorded frames, not 90 or 91 (3 s at 30 fps)"
# With a wrong password the error names the camera, not the password.
if "$bin/network-camera" "rtsp://viewer:Wrong-42@${url#rtsp://}/h264" "$work/refused.mp4" --seconds 1 >"$work/refused.out" 2>&1; then
  fail "network-camera recorded with a wrong password"
fi
! grep -q Wrong-42 "$work/refused.out" || { cat "$work/refused.out" >&2; fail "network-camera printed the wrong password"; }

echo "examples: all 6 passed in $((SECONDS - started)) s" >&2
