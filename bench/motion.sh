#!/usr/bin/env bash
# Issue 40: what motion detection costs per camera, beside the ffmpeg CLI doing the same decode and
# scale. For each case (720p30 main stream, 1080p30 main stream, 640x360 30 fps sub-stream) and each
# count N of cameras (1, 4, 16), in turn, each phase on a fresh RTSP server with N mounts of the
# case's camera file (bench/rtsp-file-server.py: packetizing only, nothing encoded while it runs):
#   plain   N rec sessions copying the cameras (the network default, --preset copy) into a 10 s ring,
#           no file (`rec start --source URL --buffer 10s --no-file`);
#   motion  the same with --motion: every packet decoded on the motion thread (one thread, no loop
#           filter, no non-reference pictures, flags2 +fast), 5 pictures a second scaled to 100
#           rows gray and judged; its thread's own CPU is `extra.motion_cpu` in `rec status --json`;
#   ffmpeg  N `ffmpeg -rtsp_transport tcp -i URL -an -vf fps=5,scale=-1:100,format=gray -f null -`,
#           the issue's command (its decoder as the CLI sets it up: frame threads, full decode);
#   same    the same CLI with rec's decoder settings (-threads 1 -skip_loop_filter all -skip_frame
#           noref -flags2 +fast), to tell the decoder's settings from the rest;
#   base    (MOTION_BASE=DIR, a package built at an earlier commit, e.g. 3676d07, before motion)
#           plain's sessions run with DIR/.build/release/rec: "a session without motion costs
#           nothing more than before".
# CPU is each process's exact CPU time (common.sh's cpu_us: every thread's schedstat) over the same
# window of $1 seconds after $MOTION_WARM (5) of warm-up, as % of one core per camera. Pictures a
# second per camera: rec's `motion_analysed`, ffmpeg's output frames (-progress); 5 expected. When
# the box cannot decode N cameras in real time, rec's motion thread leaves packets out (counted in
# `motion_skipped`) and ffmpeg falls behind: the pictures columns say so, and the machine's busy
# share (/proc/stat, of all its cores, other users included) is printed beside each phase.
#
#   bench/motion.sh [seconds (15)] [counts (1,4,16)] [cases (720,1080,sub)]
#   MOTION_WORK=DIR keeps the camera files; MOTION_WARM=S; MOTION_PHASES=plain,motion,ffmpeg,same[,base]
#   MOTION_REC=DIR runs plain and motion with DIR/.build/release/rec (another build of the package;
#   its commit and any uncommitted change to Sources/ are printed)
set -euo pipefail
seconds=${1:-15}
counts=${2:-1,4,16}
cases=${3:-720,1080,sub}
warm=${MOTION_WARM:-5}
phases=${MOTION_PHASES:-plain,motion,ffmpeg,same}
source "$(dirname "$0")/common.sh"
if [[ -n ${MOTION_REC:-} ]]; then
  rec=$MOTION_REC/.build/release/rec
  [[ -x $rec ]] || { echo "motion.sh: no $rec; build it there with swift build -c release --product rec-engine --product rec" >&2; exit 64; }
fi
if [[ -n ${MOTION_BASE:-} ]]; then
  base_rec=$MOTION_BASE/.build/release/rec
  [[ -x $base_rec ]] || { echo "motion.sh: no $base_rec; build it there with swift build -c release --product rec-engine --product rec" >&2; exit 64; }
  [[ ,$phases, == *,base,* ]] || phases+=,base
fi
[[ -z ${MOTION_WORK:-} ]] || { mkdir -p "$MOTION_WORK"; rm -rf "$work"; work=$MOTION_WORK; export XDG_RUNTIME_DIR=$work/run; mkdir -p -m 700 "$XDG_RUNTIME_DIR"; }
pids=() sessions=() server="" server_fd=""
stop_all() {
  local s p
  for s in "${sessions[@]}"; do "${s%%|*}" stop --session "${s#*|}" >/dev/null 2>&1 || true; done
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  if [[ -n $server ]]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  [[ -z $server_fd ]] || exec {server_fd}<&-
  sessions=() pids=() server="" server_fd=""
}
cleanup() {
  stop_all
  if [[ -n ${MOTION_WORK:-} ]]; then rm -rf "$work"/run "$work"/*.progress; else rm -rf "$work"; fi
}
trap cleanup EXIT

load() { cut -d' ' -f1-3 /proc/loadavg; }
field() { python3 bench/session-json.py "$@"; }
# busy and total jiffies of the whole machine (all cores)
machine() { awk '/^cpu / { t = 0; for (i = 2; i <= 9; i++) t += $i; print t - $5 - $6, t }' /proc/stat; }

# camera NAME SIZE BITRATE: the case's camera file, made once: 20 s of testsrc2 at SIZE 30 fps, x264
# veryfast at BITRATE (maxrate the same, buffer twice), an IDR every second (GOP 30), no B-frames,
# yuv420p, with 128 kb/s AAC (rtsp-file-server.py serves a picture and a sound track), repeated
# with -c copy to cover the longest phase.
camera() {
  local name=$1 size=$2 rate=$3 file=$work/camera-$1.mp4 k
  local repeats=$(( (warm + seconds + 40) / 20 + 1 ))
  if [[ ! -s $file || $(ffprobe -v error -show_entries format=duration -of csv=p=0 "$file" | cut -d. -f1) -lt $((repeats * 20 - 1)) ]]; then
    ffmpeg -nostdin -v error -y -f lavfi -i "testsrc2=size=$size:rate=30" -f lavfi -i "sine=frequency=440:sample_rate=48000" -t 20 \
      -c:v libx264 -preset veryfast -b:v "$rate" -maxrate "$rate" -bufsize "$(( ${rate%k} * 2 ))k" -g 30 -keyint_min 30 -sc_threshold 0 -bf 0 \
      -pix_fmt yuv420p -c:a aac -b:a 128k "$work/piece-$name.mp4"
    for k in $(seq "$repeats"); do echo "file '$work/piece-$name.mp4'"; done >"$work/list-$name.txt"
    ffmpeg -nostdin -v error -y -f concat -safe 0 -i "$work/list-$name.txt" -c copy "$file"
  fi
  echo "$file"
}

# run PHASE N FILE: N processes of PHASE, one per mount of a fresh server playing FILE; sets
# cpu (% of a core per camera), pics (pictures a second per camera), mcpu (motion thread, %),
# skipped (motion_skipped per camera per second), got (packets a second per camera, rec), srv
# (the server's CPU, % of a core), busy (% of the machine).
run() {
  local phase=$1 n=$2 file=$3 k url
  camera_server "$file" "$n"
  local -a p s w0 w1 c0 c1 a0 a1 m0 m1 k0 k1 f0 f1
  for k in $(seq "$n"); do
    case $phase in
      plain | motion | base)
        local r=$rec extra=()
        [[ $phase == base ]] && r=$base_rec
        [[ $phase == motion ]] && extra=(--motion)
        "$r" start --session "m$k" --source "$url/cam$k" --buffer 10s --no-file "${extra[@]}" >/dev/null
        sessions+=("$r|m$k"); s[k]=$r; p[k]=$(cat "$XDG_RUNTIME_DIR/rec/m$k/pid") ;;
      ffmpeg | same)
        local dec=()
        [[ $phase == same ]] && dec=(-threads 1 -skip_loop_filter all -skip_frame noref -flags2 +fast)
        ffmpeg -nostdin -v error "${dec[@]}" -rtsp_transport tcp -i "$url/cam$k" -an -vf fps=5,scale=-1:100,format=gray \
          -f null -progress "$work/ff$k.progress" -stats_period 0.25 - 2>"$work/ff$k.err" &
        p[k]=$!; pids+=("$!") ;;
    esac
  done
  sleep "$warm"
  # Each process's counters just before its CPU time, in the same order at both ends.
  sample() { # sample INDEX: w c a m k f arrays' entries at the end given (0 or 1)
    local e=$1 i wv cv av mv kv fv
    for i in $(seq "$n"); do
      if [[ -n ${s[i]:-} ]]; then
        read -r fv av mv kv < <("${s[i]}" status --session "m$i" --json | field frames extra.motion_analysed extra.motion_cpu extra.motion_skipped)
      else
        fv=- av=$(grep '^frame=' "$work/ff$i.progress" 2>/dev/null | tail -1 | cut -d= -f2); av=${av:-0} mv=- kv=-
      fi
      cv=$(cpu_us "${p[i]}"); wv=$EPOCHREALTIME
      eval "w$e[i]=\${wv/./}; c$e[i]=\$cv; a$e[i]=\${av/-/0}; m$e[i]=\${mv/-/0}; k$e[i]=\${kv/-/0}; f$e[i]=\${fv/-/0}"
    done
  }
  local sv0 sv1 mb0 mt0 mb1 mt1
  read -r mb0 mt0 < <(machine); sv0=$(cpu_us "$server")
  sample 0
  sleep "$seconds"
  sample 1
  read -r mb1 mt1 < <(machine); sv1=$(cpu_us "$server")
  if [[ $phase == motion ]]; then
    local problem; problem=$("$rec" status --session m1 --json | field extra.motion_error)
    [[ $problem == - ]] || echo "  motion_error of m1: $problem"
  fi
  local cs=0 ps=0 ms=0 ks=0 gs=0 ws=0 i dw
  for i in $(seq "$n"); do
    dw=$((w1[i] - w0[i])) # microseconds
    cs=$(calc %f "$cs + (${c1[i]} - ${c0[i]}) / $dw")
    ps=$(calc %f "$ps + (${a1[i]} - ${a0[i]}) / ($dw / 1e6)")
    ms=$(calc %f "$ms + (${m1[i]} - ${m0[i]}) / ($dw / 1e6)")
    ks=$(calc %f "$ks + (${k1[i]} - ${k0[i]}) / ($dw / 1e6)")
    gs=$(calc %f "$gs + (${f1[i]} - ${f0[i]}) / ($dw / 1e6)")
    ws=$((ws + dw))
  done
  cpu=$(calc %.2f "$cs / $n * 100"); pics=$(calc %.2f "$ps / $n"); mcpu=$(calc %.2f "$ms / $n * 100")
  skipped=$(calc %.1f "$ks / $n"); got=$(calc %.1f "$gs / $n")
  srv=$(calc %.1f "($sv1 - $sv0) / ($ws / $n)  * 100"); busy=$(calc %.0f "($mb1 - $mb0) / ($mt1 - $mt0) * 100")
  for i in $(seq "$n"); do [[ -s $work/ff$i.err ]] && { echo "  ffmpeg $i said: $(head -c 300 "$work/ff$i.err")"; } ; done
  rm -f "$work"/ff*.progress "$work"/ff*.err
  stop_all
}

echo "motion bench (issue 40), $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD)," \
  "$(nproc) cores, $(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)"
echo "window $seconds s after $warm s of warm-up; phases $phases; load at start $(load)"
built() { echo "$1 at commit $(git -C "$2" rev-parse --short HEAD)$(git -C "$2" diff --quiet -- Sources || echo ", with uncommitted changes: $(git -C "$2" diff -U0 -- Sources | grep '^[-+][^-+]' | tr -s ' ' | paste -sd' ')")"; }
[[ -z ${MOTION_REC:-} ]] || echo "rec: $(built "$rec" "$MOTION_REC")"
[[ -z ${MOTION_BASE:-} ]] || echo "base: $(built "$base_rec" "$MOTION_BASE")"
declare -A sizes=([720]=1280x720 [1080]=1920x1080 [sub]=640x360) rates=([720]=3000k [1080]=6000k [sub]=768k)
declare -A names=([720]="720p30 main" [1080]="1080p30 main" [sub]="360p30 sub")
rows=()
for c in ${cases//,/ }; do
  [[ -n ${sizes[$c]:-} ]] || { echo "motion.sh: no case $c (720, 1080, sub)" >&2; exit 64; }
  file=$(camera "$c" "${sizes[$c]}" "${rates[$c]}")
  for n in ${counts//,/ }; do
    declare -A C=() P=() M=() K=() G=()
    for ph in ${phases//,/ }; do
      run "$ph" "$n" "$file"
      C[$ph]=$cpu P[$ph]=$pics M[$ph]=$mcpu K[$ph]=$skipped G[$ph]=$got
      printf '  %-13s N=%-2s %-6s %6s %% of a core/camera, %5s pictures/s, motion thread %5s %%, %5s packets/s in, %5s skipped/s; server %5s %%, machine busy %3s %%, load %s\n' \
        "${names[$c]}" "$n" "$ph" "$cpu" "$pics" "$mcpu" "$got" "$skipped" "$srv" "$busy" "$(load)"
    done
    v() { echo "${C[$1]:--}"; }
    diff=- ratio=- tratio=- sratio=-
    [[ -n ${C[plain]:-} && -n ${C[motion]:-} ]] && diff=$(calc %.2f "${C[motion]} - ${C[plain]}")
    [[ $diff != - && -n ${C[ffmpeg]:-} ]] && ratio=$(calc %.2f "$diff / ${C[ffmpeg]}")x
    [[ -n ${M[motion]:-} && -n ${C[ffmpeg]:-} ]] && tratio=$(calc %.2f "${M[motion]} / ${C[ffmpeg]}")x
    [[ $diff != - && -n ${C[same]:-} ]] && sratio=$(calc %.2f "$diff / ${C[same]}")x
    base=$(v base); [[ $base == - ]] || base+=" (plain $(v plain))"
    rows+=("| ${names[$c]} | $n | $(v plain) | $(v motion) | $diff | ${M[motion]:--} | ${P[motion]:--} / ${K[motion]:--} | $(v ffmpeg) | ${P[ffmpeg]:--} | $ratio | $tratio | $(v same) | $sratio | $base |")
    unset C P M K G
  done
done
echo
echo "% of one core per camera; pictures analysed a second per camera (5 expected); ratios: rec's motion cost / the ffmpeg CLI's"
echo "| case | N | rec, no motion | rec, --motion | motion cost | motion thread | rec pictures/s / packets skipped/s | ffmpeg CLI | ffmpeg pictures/s | cost / CLI | thread / CLI | CLI, rec's decoder settings | cost / it | no motion, base |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
printf '%s\n' "${rows[@]}"
echo "load average at end $(load)"
