#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine, builds rec, records five seconds from the built-in stand-in
# camera, and shows what it made.
set -euo pipefail
cd "$(dirname "$0")/.."
[[ -d /opt/swift/usr/bin ]] && export PATH="/opt/swift/usr/bin:$PATH"
scripts/setup.sh
swift build -c release --product rec-engine && swift build -c release --product rec-trim && swift build -c release --product rec
rec=$(swift build -c release --show-bin-path)/rec
out=${1:-demo.mp4}
"$rec" record --source test:1280x720@30 --duration 5s -o "$out" --force
echo
echo "What rec made ($out), as ffprobe sees it:"
ffprobe -v error -show_entries format=duration,size:stream=codec_name,width,height,avg_frame_rate,nb_frames \
  -of default=noprint_wrappers=1 "$out"
