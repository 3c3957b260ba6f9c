#!/usr/bin/env bash
# Builds the example programs (Examples/, a package of its own that depends on rec by path and
# imports only `Rec`) and runs each one on the stand-in camera, a video made here or a loopback
# network camera, checking what it prints and writes. scripts/test.sh runs it after the tests; it
# needs ffmpeg/ffprobe and, for network-camera, network-stills and error-kinds, gst-rtsp-server
# (Tests/Support/rtsp/rtsp-server.py), all installed by scripts/setup.sh.
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
  luma_means_of "$1" null
}

# The same of a part of each frame: a filter such as crop=W:H:X:Y picks it.
luma_means_of() {
  ffmpeg -v error -i "$1" -vf "$2,signalstats,metadata=print:key=lavfi.signalstats.YAVG:file=-" -an -f null - \
    | sed -n 's/^lavfi.signalstats.YAVG=//p'
}

# The docs' Swift samples, into the doc-samples program (Examples/README.md, "Samples that compile").
scripts/doc-samples.sh
status=0
swift build --package-path Examples 2>&1 | tee "$work/build.log" || status=$?
# A sample's diagnostics name its doc file and line (#sourceLocation); the wrapper's, the generated file.
samples=$(grep -E '^/[^:]*(\.md|/Samples\.generated\.swift):[0-9]+:[0-9]+: (warning|error):' "$work/build.log" | sort -u || true)
if [[ -n $samples ]]; then
  while IFS=: read -r file line _ kind message; do
    if [[ $file == *.md ]]; then   # the block: how many ```swift fences the file has up to that line
      where="${file#"$PWD/"} block $(awk -v end="$line" 'NR <= end && /^[[:space:]]*```swift[[:space:]]*$/ { n++ } END { print n + 0 }' "$file"), line $line"
    else                           # in a sample's wrapper: the comment above its function names it
      where="$(awk -v end="$line" 'NR <= end && /^\/\/ .*, block [0-9]+ \(line/ { c = substr($0, 4) } END { print c }' "$file") (generated line $line)"
    fi
    echo "examples: $where:$kind:$message" >&2
  done <<<"$samples"
  fail "the docs' Swift samples do not compile cleanly (scripts/doc-samples.sh)"
fi
((status == 0)) || fail "swift build --package-path Examples failed"
bin=$(swift build --package-path Examples --show-bin-path)
echo "examples: built in $((SECONDS - started)) s" >&2

# grab-frames, in real time: frames 0 to 19, times increasing, a brightness each, and the number
# the stand-in camera drew into each (Frame.standInNumber) the frame's own.
run grab-frames --source test:320x240@30 --frames 20
awk '/^frame [0-9]+ at [0-9.]+ s, brightness [0-9.]+, drawn number [0-9]+$/ { if ($2 != n || $10 != n || (n > 0 && $4 <= last)) bad = 1; n++; last = $4 }
     END { exit !(n == 20 && !bad) }' "$work/grab-frames.out" \
  || { cat "$work/grab-frames.out" >&2; fail "grab-frames did not print frames 0 to 19 with increasing times and their drawn numbers"; }

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

# network-stills: the same camera recorded for 4 s with a still at 1, 2 and 3 s of its clock: each
# still a 320x180 JPEG, the recording every frame (120, or 121 as above).
mkdir "$work/stills"
run network-stills "rtsp://viewer:Secret-42@${url#rtsp://}/h264" "$work/stills.mp4" "$work/stills" --seconds 4
! grep -q Secret-42 "$work/network-stills.out" || fail "network-stills printed the password"
grep -q '^connecting to rtsp://\*\*\*@127\.0\.0\.1:[0-9]*/h264$' "$work/network-stills.out" \
  || { cat "$work/network-stills.out" >&2; fail "network-stills did not print the camera's URL without its credentials"; }
for n in 1 2 3; do
  size=$(ffprobe -v error -show_entries stream=codec_name,width,height -of csv=p=0 "$work/stills/still-$n.jpg" 2>&1) || size=none
  [[ $size == mjpeg,320,180 ]] || fail "still-$n.jpg is '$size', not a 320x180 JPEG"
  # The camera draws each frame's number in 16 blocks of 8x8 at the top left, least bit first
  # (rtsp-server.py): the still must show the frame at the time it reports.
  drawn=$(ffmpeg -v error -i "$work/stills/still-$n.jpg" -f rawvideo -pix_fmt gray - | od -An -v -tu1 -w320 \
    | awk 'NR == 5 { for (i = 15; i >= 0; i--) n = n * 2 + ($(8 * i + 5) > 125); print n }')
  time=$(sed -n "s/^still $n: .* of the frame at \([0-9.]*\) seconds.*/\1/p" "$work/network-stills.out")
  awk -v drawn="$drawn" -v time="$time" 'BEGIN { exit !(time != "" && drawn == int(time * 30 + 0.5)) }' \
    || fail "still-$n.jpg shows frame $drawn, not the frame at '$time' s"
done
# Each of the newest frame when a frame's time reached the second: that one, or the one before it
# when the photo came before the frame reached the replay buffer (measured: 1.000011, 2.000011, 2.966667).
awk '/^still [0-9]+: / { n++; t = $8; if ($2 != n ":" || $3 != "320x180" || t < n - 0.05 || t > n + 0.05) bad = 1 }
     END { exit !(n == 3 && !bad) }' "$work/network-stills.out" \
  || { cat "$work/network-stills.out" >&2; fail "network-stills did not take its stills at 1, 2 and 3 s"; }
[[ ! -e $work/stills/still-4.jpg ]] || fail "network-stills took a still at 4 s, after the recording's end"
recorded=$(sed -n 's/^  \([0-9]*\) frames in .*/\1/p' "$work/network-stills.out")
[[ -n $recorded && $(decoded_frames "$work/stills.mp4") == "$recorded" ]] \
  || fail "stills.mp4 has $(decoded_frames "$work/stills.mp4") frames; the summary says '$recorded'"
((recorded == 120 || recorded == 121)) || fail "stills.mp4 has $recorded frames, not 120 or 121 (4 s at 30 fps)"

# error-kinds: each case's kind, as the program switched on it; the password never printed.
mkdir "$work/errors"
run error-kinds "rtsp://viewer:Secret-42@${url#rtsp://}/h264" "$work/errors"
for kind in invalidRequest alreadyExists notWritable unsupported refused unreachable unauthorized notFound sessionEnded rangeNotHeld diskFull; do
  grep -q "^$kind: kind $kind\b" "$work/error-kinds.out" || { cat "$work/error-kinds.out" >&2; fail "error-kinds: $kind did not come out as kind $kind"; }
done
# The 1 s buffer holds the last 1 to 2 s of 3 s, from a keyframe on (whole seconds, the default preset's).
# `held` is what a save is served from, as the message says it: the buffer's last 1 to 2 s (from
# just after the last picture let go, up to a frame before the first one kept) up to 3 s.
grep -Eq '^rangeNotHeld: kind rangeNotHeld, held (0\.9[0-9]*|1\.[0-9]*|2\.0) seconds\.\.<3\.0[0-9]* seconds' "$work/error-kinds.out" \
  || { cat "$work/error-kinds.out" >&2; fail "error-kinds: rangeNotHeld did not say what the buffer holds"; }
! grep -Eq 'Secret-42|Wrong-42' "$work/error-kinds.out" || fail "error-kinds printed a password"


# motion-clip: a test video, 3 s of a still picture, then a white box moving 4 px a frame for 2 s
# (frames 90 to 149 each differ from the one before), then still again: lossless, so the still
# frames are identical. The clip is 1 s before the first moving frame to 2 s after it: 90 frames,
# of which the first 30 are still and each of the next 60 differs from the one before.
ffmpeg -v error -f lavfi -i color=c=black:s=320x240:r=30:d=8 -f lavfi -i color=c=white:s=64x64:r=30:d=8 \
  -filter_complex "[0][1]overlay=x='16+4*clip(round(t*30)-89,0,60)':y=88:eval=frame,format=yuv420p" -c:v ffv1 "$work/motion.mkv"
run motion-clip "$work/motion-clip.mp4" --source "file:$work/motion.mkv"
grep -q '^motion at frame 90, 3.0 seconds$' "$work/motion-clip.out" \
  || { cat "$work/motion-clip.out" >&2; fail "motion-clip did not find the motion at frame 90 (3 s)"; }
[[ $(decoded_frames "$work/motion-clip.mp4") == 90 ]] || fail "motion-clip.mp4 has $(decoded_frames "$work/motion-clip.mp4") frames, not 90"
# Each frame's mean luma difference from the one before (tblend's first output is frames 1 and 0):
# 0 while still, 1.46 (a 4x64 strip each side of the box) while it moves.
ffmpeg -v error -i "$work/motion-clip.mp4" -vf tblend=all_mode=difference,signalstats,metadata=print:key=lavfi.signalstats.YAVG:file=- -an -f null - \
  | sed -n 's/^lavfi.signalstats.YAVG=//p' \
  | awk '{ n++; if ((n < 30 && $1 > 0.2) || (n >= 30 && $1 < 1)) { print "frame " n ": " $1 " from the one before"; bad = 1 } }
         END { exit !(n == 89 && !bad) }' >&2 \
  || fail "motion-clip.mp4 does not show 30 still frames, then 60 moving ones"

# timelapse: 60 drawn frames at n/30 s: the sky (the top three quarters) at luma 16 + 3n, and in
# the bottom eighth a bar of luma 251 - sky, (n + 1)/60 of the width (each within 1.5 as encoded;
# measured within 0.4), at their exact times (within 0.5 ms, the file's 1/30 s grid).
run timelapse "$work/timelapse.mp4"
[[ $(decoded_frames "$work/timelapse.mp4") == 60 ]] || fail "timelapse.mp4 has $(decoded_frames "$work/timelapse.mp4") frames, not 60"
paste <(luma_means_of "$work/timelapse.mp4" crop=iw:ih*3/4:0:0) <(luma_means_of "$work/timelapse.mp4" crop=iw:22:0:158) \
      <(ffprobe -v error -select_streams v:0 -show_entries frame=best_effort_timestamp_time -of csv=p=0 "$work/timelapse.mp4" | grep -o '^[0-9.]\+') \
  | awk '{ sky = 16 + 3 * n; f = int(320 * (n + 1) / 60) / 320; bar = sky * (1 - f) + (251 - sky) * f
           if ($1 < sky - 1.5 || $1 > sky + 1.5 || $2 < bar - 1.5 || $2 > bar + 1.5 || $3 < n / 30 - 0.0005 || $3 > n / 30 + 0.0005) {
             print "frame " n ": sky " $1 " (not " sky "), bar row " $2 " (not " bar "), at " $3 " s"; bad = 1 }
           n++ }
         END { exit !(n == 60 && !bad) }' >&2 \
  || fail "timelapse.mp4's frames are not the drawn ones at their times"

echo "examples: all 10 passed in $((SECONDS - started)) s" >&2
