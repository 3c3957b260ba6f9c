#!/usr/bin/env bash
# Public sample media that Debian packages ship, for the cut tests (Tests/RecCLITests/RealMedia/
# PackageMediaTests): made by other people's encoders, not by this project. The packages are
# downloaded with apt-get (not installed: their dependencies are not wanted) and only the media
# files are kept, in .build/sample-media. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."
out=.build/sample-media
want=(usr/share/pampi/presentations/data/pampi-help/tour.mp4
      usr/share/hollywood/soundwave.mp4
      usr/share/janus/demos/surround/ChID-BLITS-EBU.mp4)
have=1
for f in "${want[@]}"; do [[ -s "$out/$(basename "$f")" ]] || have=0; done
((have)) && exit 0
mkdir -p "$out"
tmp=$(mktemp -d)
chmod 777 "$tmp"  # apt-get downloads as the _apt user where it may write
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && apt-get download -qq pampi hollywood janus-demos >/dev/null) ||
  { echo "fetch-sample-media: apt-get download failed; run 'apt-get update' and try again" >&2; exit 1; }
for deb in "$tmp"/*.deb; do dpkg-deb -x "$deb" "$tmp/x"; done
for f in "${want[@]}"; do cp "$tmp/x/$f" "$out/"; done
echo "fetch-sample-media: $(ls "$out" | tr '\n' ' ')" >&2
