#!/usr/bin/env bash
# Off-site copies (issue 23): what `--upload` adds to a 1080p30 session recording one-minute
# segments. Two sessions of the same length, one after the other, on the stand-in camera with
# the default preset: without --upload, then with --upload to a WebDAV server on loopback
# (`rclone serve webdav`, its CPU not counted: it stands for the far end). For each: the
# session's CPU (its own, and its reaped children's apart: every rclone run), the most resident
# memory of the session plus any rclone running at that moment (sampled every second), frames
# dropped; for the upload run also the copy lag (`upload_last_lag`: from a segment's finish to
# its verified copy under its final name) and whether every segment arrived whole.
# The remote is SFTP (Debian's sshd on loopback, started here with its own keys; rclone's SFTP
# backend, which checks an MD5) unless UPLOAD_REMOTE=webdav.
# Run by hand: bench/upload.sh [seconds of the upload session (300)] [size (1920x1080)]
#   UPLOAD_PLAIN_SECONDS=300 bench/upload.sh 3600    # the hour the issue asks for, a shorter plain run
set -euo pipefail
seconds=${1:-300}
size=${2:-1920x1080}
plain_seconds=${UPLOAD_PLAIN_SECONDS:-$seconds}
remote_kind=${UPLOAD_REMOTE:-sftp}
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
command -v rclone >/dev/null || { echo "upload.sh needs rclone (scripts/setup.sh installs it)" >&2; exit 1; }
server=""
cleanup() {
  for folder in "$XDG_RUNTIME_DIR"/rec/*/; do
    [[ -d "$folder" ]] && "$rec" stop --session "$(basename "$folder")" >/dev/null 2>&1 || true
  done
  [[ -n "$server" ]] && kill "$server" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
field() { python3 bench/session-json.py "$@"; }
ticks_all() { awk '{ print $14 + $15 + $16 + $17 }' "/proc/$1/stat"; }
ticks_children() { awk '{ print $16 + $17 }' "/proc/$1/stat"; }   # reaped children: every rclone run
# A field of /proc/PID/status in kB; 0 for a process gone or a zombie (which has no memory lines).
status_kb() { awk -v key="$2:" '$1 == key { v = $2 } END { print v + 0 }' "/proc/$1/status" 2>/dev/null || echo 0; }
rss_kb() { status_kb "$1" VmRSS; }
children_kb() { # a field summed over the session's children (each rclone run) and theirs
  local total=0 pid
  for pid in $(pgrep -P "$1") $(for c in $(pgrep -P "$1"); do pgrep -P "$c"; done); do
    total=$((total + $(status_kb "$pid" "$2")))
  done
  echo "$total"
}
hz=$(getconf CLK_TCK)

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
mkdir -p "$work/remote"
export RCLONE_CONFIG=$work/rclone.conf
far_root=$work/remote/   # the landing folder as the remote names it
if [[ $remote_kind == webdav ]]; then
  far_root=""
  rclone serve webdav "$work/remote" --addr "127.0.0.1:$port" --user rec --pass bench --log-level ERROR &
  server=$!
  printf '[far]\ntype = webdav\nurl = http://127.0.0.1:%s\nvendor = other\nuser = rec\npass = %s\n' \
    "$port" "$(rclone obscure bench)" >"$RCLONE_CONFIG"
else
  command -v /usr/sbin/sshd >/dev/null || { echo "upload.sh needs openssh-server (scripts/setup.sh installs it)" >&2; exit 1; }
  ssh-keygen -q -t ed25519 -N "" -f "$work/host_key"
  ssh-keygen -q -t ed25519 -N "" -f "$work/client_key"
  cp "$work/client_key.pub" "$work/authorized_keys"
  echo "[127.0.0.1]:$port $(cut -d' ' -f1-2 "$work/host_key.pub")" >"$work/known_hosts"
  mkdir -p /run/sshd
  user=$(id -un)
  # StrictModes off: the keys sit under /tmp, whose parents are world-writable.
  printf '%s\n' "ListenAddress 127.0.0.1" "Port $port" "HostKey $work/host_key" "PidFile none" \
    "AllowUsers $user" "AuthorizedKeysFile $work/authorized_keys" "PasswordAuthentication no" \
    "KbdInteractiveAuthentication no" "UsePAM no" "StrictModes no" "PermitRootLogin prohibit-password" \
    "Subsystem sftp internal-sftp" >"$work/sshd_config"
  /usr/sbin/sshd -D -e -f "$work/sshd_config" 2>"$work/sshd.log" &
  server=$!
  printf '[far]\ntype = sftp\nhost = 127.0.0.1\nport = %s\nuser = %s\nkey_file = %s\nknown_hosts_file = %s\n' \
    "$port" "$user" "$work/client_key" "$work/known_hosts" >"$RCLONE_CONFIG"
fi
until rclone lsd "far:$far_root" >/dev/null 2>&1; do sleep 0.2; done

echo "rec upload bench, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "sessions of ${plain_seconds} s (plain) and ${seconds} s (upload, to $remote_kind on loopback), test:${size}@30, default preset, --segment 1m"
printf '%-8s %9s %11s %10s %8s %10s %9s %8s %10s %7s\n' run "CPU %core" "rclone %" "ms/frame" "peak MB" "rclone MB" encoded dropped "copy lag s" arrived
for run in plain upload; do
  dir=$work/$run
  mkdir -p "$dir"
  extra=()
  length=$plain_seconds
  [[ $run == upload ]] && extra=(--upload "far:${far_root}cams") length=$seconds
  "$rec" start --session "$run" --source "test:${size}@30" --segment 1m -o "$dir/seg.mp4" "${extra[@]}" >/dev/null
  pid=$(cat "$XDG_RUNTIME_DIR/rec/$run/pid")
  t0=$(ticks_all "$pid")
  c0=$(ticks_children "$pid")
  f0=$("$rec" status --session "$run" --json | field frames)
  start=$EPOCHREALTIME
  peak=0 peak_children=0 peak_anon=0 lag_max=0
  for ((i = 0; i < length; i++)); do
    sleep 1
    children=$(children_kb "$pid" VmRSS)
    anon=$(children_kb "$pid" RssAnon)
    total=$(( $(rss_kb "$pid") + children ))
    ((total > peak)) && peak=$total
    ((children > peak_children)) && peak_children=$children
    ((anon > peak_anon)) && peak_anon=$anon
    if ((i % 300 == 299)); then   # progress, so a long run shows when frames were dropped
      progress=$("$rec" status --session "$run" --json | python3 -c 'import json,sys; s=json.load(sys.stdin); print(s.get("frames"), s.get("dropped_late", 0) + s.get("dropped_by_driver", 0))')
      echo "  $run at $((i + 1)) s: frames, dropped: $progress; load $(cut -d' ' -f1 /proc/loadavg)"
    fi
    if [[ $run == upload && $((i % 10)) == 9 ]]; then
      lag=$(status_json=$("$rec" status --session "$run" --json); echo "$status_json" | field extra.upload_last_lag)
      [[ "$lag" != "-" ]] && lag_max=$(awk -v a="$lag_max" -v b="$lag" 'BEGIN { print (b > a) ? b : a }')
    fi
  done
  t1=$(ticks_all "$pid")
  c1=$(ticks_children "$pid")
  elapsed=$(awk -v s="$start" -v e="$EPOCHREALTIME" 'BEGIN { print e - s }')
  json=$("$rec" status --session "$run" --json)
  f1=$(echo "$json" | field frames)
  dropped=$(echo "$json" | python3 -c 'import json,sys; s=json.load(sys.stdin); print(s.get("dropped_late", 0) + s.get("dropped_by_driver", 0))')
  "$rec" stop --session "$run" >/dev/null
  while kill -0 "$pid" 2>/dev/null; do sleep 0.2; done
  cpu=$(awk -v a="$t0" -v b="$t1" -v hz="$hz" -v s="$elapsed" 'BEGIN { printf "%.1f", 100 * (b - a) / hz / s }')
  copies=$(awk -v a="$c0" -v b="$c1" -v hz="$hz" -v s="$elapsed" 'BEGIN { printf "%.2f", 100 * (b - a) / hz / s }')
  encoded=$((f1 - f0 - dropped))
  per_frame=$(awk -v a="$t0" -v b="$t1" -v c0="$c0" -v c1="$c1" -v hz="$hz" -v n="$encoded" 'BEGIN { printf "%.2f", (n > 0 ? 1000 * ((b - a) - (c1 - c0)) / hz / n : 0) }')
  arrived="-"
  if [[ $run == upload ]]; then
    ok=0 total=0
    for f in "$dir"/seg-*.mp4; do
      total=$((total + 1))
      cmp -s "$f" "$work/remote/cams/$(basename "$f")" && ok=$((ok + 1))
    done
    arrived="$ok/$total"
  fi
  printf '%-8s %9s %11s %10s %8.1f %10.1f %9s %8s %10s %7s\n' "$run" "$cpu" "$copies" "$per_frame" \
    "$(awk -v k="$peak" 'BEGIN { print k / 1024 }')" "$(awk -v k="$peak_children" 'BEGIN { print k / 1024 }')" \
    "$encoded" "$dropped" "$([[ $run == upload ]] && echo "$lag_max" || echo -)" "$arrived"
  echo "$run $cpu $peak $copies $peak_children $peak_anon" >>"$work/rows"
done
read -r _ cpu_plain peak_plain _ _ < <(sed -n 1p "$work/rows")
read -r _ cpu_upload peak_upload copies rclone_peak rclone_anon < <(sed -n 2p "$work/rows")
echo
echo "ms/frame is the session's own CPU (rclone's taken out) per frame it encoded: compare it across"
echo "the runs rather than CPU %core, which follows how many frames a loaded machine let it encode."
awk -v c="$copies" 'BEGIN { printf "CPU the copies add (every rclone run, reaped): %.2f %% of a core (target <= 5): %s\n", c, c <= 5 ? "pass" : "FAIL" }'
# Judged on rclone's own RSS while it runs (what a copy adds at that moment); the difference of the
# two sessions' peaks is printed too, but it also holds how the two sessions' own memory differ.
# rclone's resident memory is mostly its 54 MB executable's pages (RssFile: clean page cache, shared
# by every run and dropped by the kernel under pressure); what a run takes for itself is RssAnon.
awk -v a="$peak_plain" -v b="$peak_upload" -v r="$rclone_peak" -v n="$rclone_anon" 'BEGIN { printf "memory a copy adds: rclone %.1f MB of its own (RssAnon) while it runs (target <= 20): %s; %.1f MB resident with its executable'"'"'s pages; the session + rclone peaked %.1f MB over the plain session\n", n / 1024, n / 1024 <= 20 ? "pass" : "FAIL", r / 1024, (b - a) / 1024 }'
