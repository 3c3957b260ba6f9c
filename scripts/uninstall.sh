#!/usr/bin/env bash
# Removes what scripts/install.sh installed under PREFIX, exactly the files in its manifest,
# and the folders it created once they are empty. DESTDIR is honoured.
#   scripts/uninstall.sh [--prefix DIR]
set -euo pipefail
prefix=/usr/local
while (($#)); do
  case $1 in
    --prefix) prefix=${2:?--prefix needs a folder}; shift 2 ;;
    --prefix=*) prefix=${1#*=}; shift ;;
    -h|--help) echo "usage: scripts/uninstall.sh [--prefix DIR]  (DESTDIR honoured)"; exit 0 ;;
    *) echo "uninstall: unknown argument '$1'; try --prefix DIR" >&2; exit 64 ;;
  esac
done
manifest="${DESTDIR:-}$prefix/lib/rec/install-manifest"
[[ -f $manifest ]] || { echo "uninstall: no $manifest; was rec installed with scripts/install.sh --prefix $prefix?" >&2; exit 1; }
mapfile -t files < <(awk '$1 == "file" { print $2 }' "$manifest")
mapfile -t dirs < <(awk '$1 == "dir" { print $2 }' "$manifest")
for f in "${files[@]}"; do rm -f "${DESTDIR:-}$f"; done
# Deepest first, and only if empty: a folder someone else put files in stays.
for ((i = ${#dirs[@]} - 1; i >= 0; i--)); do rmdir "${DESTDIR:-}${dirs[i]}" 2>/dev/null || true; done
rmdir "${DESTDIR:-}$prefix/lib/rec" 2>/dev/null || true
echo "removed rec from ${DESTDIR:-}$prefix (${#files[@]} files)" >&2
