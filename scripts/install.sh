#!/usr/bin/env bash
# Installs rec: rec, rec-engine and rec-trim together in PREFIX/lib/rec with the Swift runtime libraries
# they need (so the toolchain may go), PREFIX/bin/rec, the man pages and shell completions
# generated from the command declarations, and the systemd units. DESTDIR is honoured. It writes
# PREFIX/lib/rec/install-manifest, which scripts/uninstall.sh reads to remove exactly these files.
#   scripts/install.sh [--prefix DIR] [--configuration release|debug] [--bin-path DIR]
# --bin-path installs the executables already built in DIR instead of building (the --host tests
# install the build they run as another user's rec; a build there would wait on their own lock).
set -euo pipefail
prefix=/usr/local
configuration=release
bin=
usage() { echo "usage: scripts/install.sh [--prefix DIR] [--configuration release|debug] [--bin-path DIR]  (DESTDIR honoured)"; }
while (($#)); do
  case $1 in
    --prefix) prefix=${2:?--prefix needs a folder}; shift 2 ;;
    --prefix=*) prefix=${1#*=}; shift ;;
    --configuration) configuration=${2:?--configuration needs release or debug}; shift 2 ;;
    --bin-path) bin=${2:?--bin-path needs the folder holding rec, rec-engine and rec-trim}; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "install: unknown argument '$1'" >&2; usage >&2; exit 64 ;;
  esac
done
[[ $prefix == /* ]] || { echo "install: --prefix must be an absolute path, not '$prefix'" >&2; exit 64; }
cd "$(dirname "$0")/.."
[[ -d /opt/swift/usr/bin ]] && export PATH="/opt/swift/usr/bin:$PATH"
if [[ -z $bin ]]; then
  swift build -c "$configuration" --product rec-engine >&2
  swift build -c "$configuration" --product rec-trim >&2
  swift build -c "$configuration" --product rec >&2
  bin=$(swift build -c "$configuration" --show-bin-path)
fi
for exe in rec rec-engine rec-trim; do
  [[ -x $bin/$exe ]] || { echo "install: no $exe in $bin; build it first (swift build)" >&2; exit 1; }
done
swiftlib=$(dirname "$(readlink -f "$(command -v swiftc)")")/../lib/swift/linux
swiftlib=$(readlink -f "$swiftlib")

root="${DESTDIR:-}$prefix"
manifest=()
made_dirs=()
dir() {  # creates a folder, remembering the ones that did not exist
  local d=$1 missing=()
  while [[ ! -d $root$d && $d != / && -n $d ]]; do missing=("$d" "${missing[@]}"); d=$(dirname "$d"); done
  mkdir -p "$root$1"
  made_dirs+=("${missing[@]}")
}
put() {  # put MODE SOURCE DEST
  dir "$(dirname "$3")"
  install -m "$1" "$2" "$root$3"
  manifest+=("$3")
}

put 755 "$bin/rec" /lib/rec/rec
put 755 "$bin/rec-engine" /lib/rec/rec-engine
put 755 "$bin/rec-trim" /lib/rec/rec-trim
# Only $ORIGIN, not the toolchain's folder: the installed rec uses the runtime installed with it.
chrpath -r '$ORIGIN' "$root/lib/rec/rec" "$root/lib/rec/rec-engine" "$root/lib/rec/rec-trim" >/dev/null
# The Swift runtime (ldd lists it transitively): found next to the executables through $ORIGIN.
for lib in $(ldd "$bin/rec" "$bin/rec-engine" "$bin/rec-trim" | awk -v d="$swiftlib/" 'index($3, d) == 1 { print $3 }' | sort -u); do
  put 644 "$lib" "/lib/rec/$(basename "$lib")"
done
dir /bin
ln -sfn ../lib/rec/rec "$root/bin/rec"
manifest+=(/bin/rec)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$bin/rec-engine" --generate-manual "$work/man"
for page in "$work"/man/*.1; do
  gzip -9n "$page"
  put 644 "$page.gz" "/share/man/man1/$(basename "$page").gz"
done
"$bin/rec-engine" --generate-completion-script bash > "$work/rec.bash"
"$bin/rec-engine" --generate-completion-script zsh > "$work/_rec"
"$bin/rec-engine" --generate-completion-script fish > "$work/rec.fish"
put 644 "$work/rec.bash" /share/bash-completion/completions/rec
put 644 "$work/_rec" /share/zsh/vendor-completions/_rec
put 644 "$work/rec.fish" /share/fish/vendor_completions.d/rec.fish
for unit in dist/systemd/*.service; do
  sed "s|@BINDIR@|$prefix/bin|g" "$unit" > "$work/$(basename "$unit")"
done
put 644 "$work/rec@.service" /lib/systemd/user/rec@.service
put 644 "$work/rec-system@.service" /lib/systemd/system/rec-system@.service
put 644 dist/sysusers.d/rec.conf /lib/sysusers.d/rec.conf

{
  echo "# Written by scripts/install.sh --prefix $prefix; scripts/uninstall.sh removes these."
  for f in "${manifest[@]}"; do echo "file $prefix$f"; done
  echo "file $prefix/lib/rec/install-manifest"
  for d in "${made_dirs[@]}"; do echo "dir $prefix$d"; done
} > "$root/lib/rec/install-manifest"
echo "installed rec into ${DESTDIR:-}$prefix (${#manifest[@]} files); remove with scripts/uninstall.sh --prefix $prefix" >&2
