#!/usr/bin/env bash
# Public sample media that Debian packages ship, made by other people's cameras and encoders, not
# by this project: for the cut tests (Tests/RecCLITests/RealMedia/PackageMediaTests) and the
# motion detector's real-video tests (Tests/MediaTests/MotionRealVideoTests: OpenCV's vtest.avi
# and tree.avi from opencv-doc). The packages are downloaded with apt-get (not installed: their
# dependencies are not wanted) and only the media files are unpacked, into .build/sample-media.
# Safe to run again: it downloads only when a file is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
out=.build/sample-media
# package path-in-package, one file a line.
want=("pampi usr/share/pampi/presentations/data/pampi-help/tour.mp4"
      "hollywood usr/share/hollywood/soundwave.mp4"
      "janus-demos usr/share/janus/demos/surround/ChID-BLITS-EBU.mp4"
      "opencv-doc usr/share/doc/opencv-doc/examples/data/vtest.avi"
      "opencv-doc usr/share/doc/opencv-doc/examples/data/tree.avi")
missing=()
for row in "${want[@]}"; do
  read -r package path <<<"$row"
  [[ -s "$out/$(basename "$path")" ]] || missing+=("$package")
done
((${#missing[@]})) || exit 0
mkdir -p "$out"
tmp=$(mktemp -d)
chmod 777 "$tmp"  # apt-get downloads as the _apt user where it may write
trap 'rm -rf "$tmp"' EXIT
packages=$(printf '%s\n' "${missing[@]}" | sort -u)
# shellcheck disable=SC2086  # one word a package
(cd "$tmp" && apt-get download -qq $packages >/dev/null) ||
  { echo "fetch-sample-media: apt-get download failed; run 'apt-get update' and try again" >&2; exit 1; }
for row in "${want[@]}"; do
  read -r package path <<<"$row"
  [[ -s "$out/$(basename "$path")" ]] && continue
  # Only the one file out of the package (opencv-doc is mostly HTML).
  dpkg-deb --fsys-tarfile "$tmp/${package}"_*.deb | tar -x -C "$tmp" "./$path"
  cp "$tmp/$path" "$out/"
done
echo "fetch-sample-media: $(ls "$out" | tr '\n' ' ')" >&2
