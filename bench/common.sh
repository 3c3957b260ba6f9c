# Sourced by the session benchmarks: goes to the package root, builds rec in release, and sets
# $rec, a temporary folder $work (the caller's EXIT trap deletes it) and a private
# XDG_RUNTIME_DIR inside it, so sessions never meet the user's own.
cd "$(dirname "${BASH_SOURCE[0]}")/.."
{ swift build -c release --product rec-engine && swift build -c release --product rec-trim && swift build -c release --product rec; } >/dev/null
rec=$(swift build -c release --show-bin-path)/rec
work=$(mktemp -d)
export XDG_RUNTIME_DIR=$work/run
mkdir -m 700 "$XDG_RUNTIME_DIR"
