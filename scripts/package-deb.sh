#!/usr/bin/env bash
# Builds rec_VERSION-1_ARCH.deb from this tree: the same files scripts/install.sh --prefix /usr
# puts in place (rec, rec-engine, rec-trim and the Swift runtime in /usr/lib/rec; man pages; completions;
# systemd units), stripped, with Depends on the FFmpeg, libv4l2 and libsystemd runtime libraries
# as dpkg-shlibdeps finds them, then checks it with lintian.
#   scripts/package-deb.sh [--configuration release|debug | --bin-path DIR] [--output DIR]
# Install it with: sudo apt install ./rec_*.deb
set -euo pipefail
configuration=release
bin=()
out=.build/deb
while (($#)); do
  case $1 in
    --configuration) configuration=${2:?--configuration needs release or debug}; shift 2 ;;
    --bin-path) bin=(--bin-path "${2:?--bin-path needs the folder of built binaries}"); shift 2 ;;
    --output) out=${2:?--output needs a folder}; shift 2 ;;
    -h|--help) echo "usage: scripts/package-deb.sh [--configuration release|debug | --bin-path DIR] [--output DIR]"; exit 0 ;;
    *) echo "package-deb: unknown argument '$1'" >&2; exit 64 ;;
  esac
done
cd "$(dirname "$0")/.."
maintainer="${DEBFULLNAME:-rec developers} <${DEBEMAIL:-rec-devel@users.noreply.github.com}>"
version=$(sed -n 's/.*static let version = "\(.*\)".*/\1/p' Sources/RecCLI/RecCLI.swift)-1
arch=$(dpkg --print-architecture)
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
root=$stage/root

DESTDIR=$root scripts/install.sh --prefix /usr --configuration "$configuration" "${bin[@]}"
rm "$root/usr/lib/rec/install-manifest"   # dpkg keeps its own list
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$root"/usr/lib/rec/rec "$root"/usr/lib/rec/rec-engine "$root"/usr/lib/rec/rec-trim "$root"/usr/lib/rec/*.so
chmod 644 "$root"/usr/lib/rec/*.so

doc=$root/usr/share/doc/rec
install -d "$doc"
cat > "$doc/copyright" <<COPYRIGHT
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: rec

Files: *
Copyright: 2026 the rec authors
License: rec-license

Files: usr/lib/rec/*.so
Copyright: 2014-2026 Apple Inc. and the Swift project authors
License: Apache-2.0-with-runtime-library-exception
 The Swift runtime, standard library and Foundation, copied from the Swift toolchain
 the package was built with, under the Apache License 2.0 with the Runtime Library Exception.

License: rec-license
 The license of rec has not been chosen yet; see the project's repository.
COPYRIGHT
printf 'rec (%s) unstable; urgency=medium\n\n  * Package built from the source tree by scripts/package-deb.sh.\n\n -- %s  %s\n' \
  "$version" "$maintainer" "$(date -R -d @"${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}")" > "$doc/changelog.Debian"
gzip -9n "$doc/changelog.Debian"

# Depends: what the executables and the bundled runtime link against, from dpkg's shlibs/symbols.
mkdir -p "$stage/src/debian"
printf 'Source: rec\n\nPackage: rec\nArchitecture: any\n' > "$stage/src/debian/control"
elfs=("$root"/usr/lib/rec/rec "$root"/usr/lib/rec/rec-engine "$root"/usr/lib/rec/rec-trim "$root"/usr/lib/rec/*.so)
depends=$(cd "$stage/src" && dpkg-shlibdeps -O -l"$root/usr/lib/rec" "${elfs[@]}" 2>"$stage/shlibdeps.log" | sed -n 's/^shlibs:Depends=//p') || {
  cat "$stage/shlibdeps.log" >&2; echo "package-deb: dpkg-shlibdeps failed" >&2; exit 1; }
# libavfilter and libavdevice are opened with dlopen when first needed (Media's SharedLibrary), so
# dpkg-shlibdeps cannot see them: the packages holding the ones built against are added by name.
for lib in libavfilter.so libavdevice.so; do
  # awk reads to the end rather than `exit` at the first match: ldconfig -p writes more than a
  # pipe holds once a desktop's libraries are installed (mutter's, issue 43), and an early exit
  # killed it with SIGPIPE, which pipefail made this script's exit status (141).
  file=$(ldconfig -p | awk -v l="$lib" '!found && index($1, l ".") == 1 { print $NF; found = 1 }')
  package=$(dpkg-query -S "$(readlink -f "$file")" | cut -d: -f1) || { echo "package-deb: no package holds $lib" >&2; exit 1; }
  depends+=", $package"
done

install -d "$root/DEBIAN"
cat > "$root/DEBIAN/control" <<CONTROL
Package: rec
Version: $version
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $(du -sk --exclude=DEBIAN "$root" | cut -f1)
Depends: $depends
Section: video
Priority: optional
Description: frame recorder and frame-exact clip trimmer for Linux cameras
 rec records V4L2 cameras, a built-in test pattern or files with FFmpeg into
 files that survive a crash, keeps the recent video in a ring buffer from which
 'rec save --last 30s' writes a frame-exact clip without stopping, and cuts
 frame-exact clips from any file. It comes with man pages, bash, zsh and fish
 completions, and systemd units (rec@.service for a user session).
CONTROL

mkdir -p "$out"
deb="$out/rec_${version}_${arch}.deb"
dpkg-deb --root-owner-group -Zgzip --build "$root" "$deb" >/dev/null
echo "built $deb" >&2
if command -v lintian >/dev/null; then
  lintian --fail-on error,warning --suppress-tags-from-file scripts/lintian-overrides.txt "$deb" >&2
fi
echo "$deb"
