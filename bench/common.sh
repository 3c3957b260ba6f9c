# Sourced by the session benchmarks: goes to the package root, builds rec in release, and sets
# $rec, a temporary folder $work (the caller's EXIT trap deletes it) and a private
# XDG_RUNTIME_DIR inside it, so sessions never meet the user's own.
cd "$(dirname "${BASH_SOURCE[0]}")/.."
{ swift build -c release --product rec-engine && swift build -c release --product rec-trim && swift build -c release --product rec; } >/dev/null
rec=$(swift build -c release --show-bin-path)/rec
work=$(mktemp -d)
export XDG_RUNTIME_DIR=$work/run
mkdir -m 700 "$XDG_RUNTIME_DIR"
# calc FORMAT EXPRESSION: awk's arithmetic, printed with FORMAT.
calc() { awk "BEGIN { printf \"$1\", $2 }"; }
# A process's CPU time in microseconds, exact: the scheduler's count for each thread
# (/proc/PID/task/*/schedstat), not the 100 Hz ticks of /proc/PID/stat.
cpu_us() { cat /proc/"$1"/task/*/schedstat | awk '{ s += $1 } END { printf "%d", s / 1000 }'; }
# camera_server FILE MOUNTS: rtsp-file-server.py playing FILE as /cam1 .. /camMOUNTS (it ends with
# this shell), once it accepts clients. Sets $url (rtsp://127.0.0.1:PORT), $server (its pid) and
# $server_fd (its output, to close once it is killed); a caller's `local` of them is honoured.
camera_server() {
  exec {server_fd}< <(exec /usr/bin/python3 bench/rtsp-file-server.py "$1" --cameras "$2" --parent $$)
  server=$!
  read -r _ url <&"$server_fd"
}
# camera_file DIR MINUTES: prints the path of the cameras' stand-in, made in DIR once and kept:
# 60 s of testsrc2 1280x720 30 fps, x264 veryfast 3 Mb/s, an IDR every second, no B-frames (as
# most network cameras send), 128 kb/s AAC (DIR/minute.mp4), concatenated with -c copy to MINUTES.
camera_file() {
  local dir=$1 minutes=$2
  mkdir -p "$dir"
  if [[ ! -s $dir/camera-${minutes}m.mp4 ]]; then
    [[ -s $dir/minute.mp4 ]] || ffmpeg -v error -y -f lavfi -i "testsrc2=size=1280x720:rate=30" \
      -f lavfi -i "sine=frequency=440:sample_rate=48000" -t 60 -c:v libx264 -preset veryfast -b:v 3M -maxrate 3M \
      -bufsize 6M -g 30 -keyint_min 30 -sc_threshold 0 -bf 0 -pix_fmt yuv420p -c:a aac -b:a 128k "$dir/minute.mp4"
    for _ in $(seq "$minutes"); do echo "file '$dir/minute.mp4'"; done >"$dir/list.txt"
    ffmpeg -v error -y -f concat -safe 0 -i "$dir/list.txt" -c copy "$dir/camera-${minutes}m.mp4"
  fi
  echo "$dir/camera-${minutes}m.mp4"
}
