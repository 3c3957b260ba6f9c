#!/usr/bin/env bash
# Issue 21's many-cameras targets beside the ffmpeg CLI in one run: N rec sessions (1, 4, 16), each
# recording one 1280x720 30 fps RTSP camera (H.264 + AAC) in copy mode into the ring and an MP4,
# against N `ffmpeg -rtsp_transport tcp -i URL -c copy` into fragmented MP4, both running at once over
# the same window: total CPU, frames lost, private memory per camera against its ring, the box's
# total PSS, then a `rec save --last 10s` from each camera under load. A third process per camera is
# the ffmpeg CLI doing rec's work: the same file in 0.4 s fragments (rec's crash-safety promise) and
# a 60 s replay ring as 10 s MP4 segments in tmpfs, overwritten in turn (how Frigate keeps its
# cache); its CPU is the second ratio, and it is ended before memory is read. See bench/README.md.
#
#   bench/cameras.sh [seconds (60)] [counts (1,4,16)]
#   CAMERAS_WORK=/some/dir keeps the generated camera file between runs; CAMERAS_WARM=S sets the warm-up.
set -euo pipefail
seconds=${1:-60}
counts=${2:-1,4,16}
# The window starts once the 60 s ring has filled and trims (a ring still filling touches a fresh
# page for every packet it keeps: kernel time ffmpeg, which keeps nothing, never spends).
warm=${CAMERAS_WARM:-75}
source "$(dirname "$0")/common.sh"
[[ -z ${CAMERAS_WORK:-} ]] || { mkdir -p "$CAMERAS_WORK"; rm -rf "$work"; work=$CAMERAS_WORK; export XDG_RUNTIME_DIR=$work/run; mkdir -p -m 700 "$XDG_RUNTIME_DIR"; }
pids=() sessions=()
cleanup() {
  for s in "${sessions[@]}"; do "$rec" stop --session "$s" >/dev/null 2>&1 || true; done
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  rm -rf "/dev/shm/rec-cameras-bench-$$"
  if [[ -n ${CAMERAS_WORK:-} ]]; then rm -rf "$work"/n* "$work/run"; else rm -rf "$work"; fi
}
trap cleanup EXIT

hz=$(getconf CLK_TCK)
load() { cut -d' ' -f1-3 /proc/loadavg; }
faults() { awk '{ print $10 }' "/proc/$1/stat"; } # minor page faults
kb() { awk -v k="$2:" '$1 == k { print $2 }' "/proc/$1/${3:-status}"; } # a field of /proc/PID/status (or smaps_rollup), kB
mb() { calc %.1f "$1 / 1e6"; }
field() { python3 bench/session-json.py "$@"; }
# Ticks per thread name, summed over the processes given: "name ticks" lines (a thread's name may hold spaces).
threads() { for p in "$@"; do cat /proc/"$p"/task/*/stat 2>/dev/null; done |
  sed -E 's/^[0-9]+ \((.*)\) [A-Za-z] (.*)$/\1\t\2/' | awk -F'\t' '{ split($2, a, " "); t[$1] += a[11] + a[12] }
  END { for (k in t) print k "\t" t[k] }' | LC_ALL=C sort; }
# Pictures lost, found by content rather than by time: a gap in a file's picture times is not
# always a lost picture. A session joining a camera has its pictures re-timed once the first RTCP
# sender report arrives (libavformat moves a stream by how far apart the streams' first packets were
# on the camera's clock: the AAC priming's 21 ms here, 9 s once when the server still seeked at each
# PLAY; bench/README.md). So each recorded picture is found in the camera's own minute by its
# packet's MD5 (a copied picture is the file's bytes; keyframes, which carry SPS and PPS in-band
# after RTP, match none and are skipped), and between two pictures found, the camera's pictures
# that the file lacks are counted (a step back, a picture sent again, is counted apart).
# `lost FILE` prints "pictures lost repeated".
packets() { ffmpeg -v error -i "$1" -map 0:v:0 -c copy -f framemd5 - | awk -F', *' '!/^#/ { print $6 }'; }
lost() { packets "$1" | awk 'NR == FNR { at[$1] = FNR - 1; n = FNR; next }
  { i++; if ($1 in at) { if (pi) { d = (at[$1] - ps - (i - pi)) % n; if (d < 0) d += n; if (d > n / 2) r += n - d; else m += d }
    ps = at[$1]; pi = i } }
  END { print i + 0, m + 0, r + 0 }' "$work/camera.md5" -; }
# Steps in a file's picture times beyond 1.5 frames at 30 fps: "count largest_s" (re-timing, not loss).
steps() { ffprobe -v error -select_streams v -show_entries packet=pts_time -of csv=p=0 "$1" | grep -v N/A | sort -g |
  awk '{ if (NR > 1) { g = $1 - p; if (g > 1.5 / 30) c++; if (g > w) w = g } p = $1 } END { printf "%d %.3f\n", c, w }'; }
vframes() { ffprobe -v error -select_streams v -count_packets -show_entries stream=nb_read_packets -of csv=p=0 "$1"; }
summary=()
# row NAME MEASURED TARGET OK (OK: an awk condition, or "info")
row() { summary+=("$(printf '%-52s %24s %30s  %s' "$1" "$2" "$3" "$([[ $4 == info ]] && echo info || awk "BEGIN { print ($4) ? \"PASS\" : \"MISS\" }")")"); }

echo "cameras bench (issue 21), $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD)," \
  "$(nproc) cores, $(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)"
echo "load average at start $(load)"

# The camera (common.sh's camera_file), long enough to outlast a phase.
minutes=$(( (warm + seconds + 150) / 60 + 1 ))
camera=$(camera_file "$work" "$minutes")
[[ -s $work/camera.md5 ]] || packets "$work/minute.mp4" >"$work/camera.md5" # the camera's pictures, one minute

# phase N: a fresh server with N cameras; N rec sessions and N ffmpeg CLIs, one of each per camera.
phase() {
  local n=$1 d=$work/n$1 k url server server_fd
  mkdir -p "$d"
  # Each process reads a mount of its own, three per camera: a later client of a shared mount
  # costs more than the first (measured with three ffmpeg CLIs on one mount: +6 % for the second,
  # +11 % for the third), and rec, started last, paid that before.
  camera_server "$camera" $((3 * n)); pids+=("$server")
  local -a rp fp sp
  for k in $(seq "$n"); do
    ffmpeg -nostdin -v error -y -rtsp_transport tcp -i "$url/cam$((3 * k - 1))" -c copy -f mp4 \
      -movflags frag_keyframe+empty_moov+default_base_moof -progress "$d/ff$k.progress" "$d/ff$k.mp4" 2>"$d/ff$k.err" &
    fp[k]=$!; pids+=("$!")
    mkdir -p "/dev/shm/rec-cameras-bench-$$/cam$k"
    ffmpeg -nostdin -v error -y -rtsp_transport tcp -i "$url/cam$((3 * k))" -map 0 -c copy -f mp4 \
      -movflags frag_keyframe+empty_moov+default_base_moof -frag_duration 400000 "$d/same$k.mp4" \
      -map 0 -c copy -f segment -segment_time 10 -segment_wrap 7 -segment_format mp4 -reset_timestamps 1 \
      "/dev/shm/rec-cameras-bench-$$/cam$k/%d.mp4" 2>"$d/same$k.err" &
    sp[k]=$!; pids+=("$!")
    "$rec" start --session "cam$k" --source "$url/cam$((3 * k - 2))" --buffer 60s -o "$d/rec$k.mp4" --force >/dev/null
    sessions+=("cam$k"); rp[k]=$(cat "$XDG_RUNTIME_DIR/rec/cam$k/pid")
  done
  echo
  echo "N = $n: $n cameras at $url/cam1.. (each process its own mount of the camera); rec start --source URL --buffer 60s -o FILE.mp4 (camera-copy) beside" \
    "ffmpeg -rtsp_transport tcp -i URL -c copy fragmented MP4; window of $seconds s after $warm s; load $(load)"
  sleep "$warm"
  ffframe() { grep '^frame=' "$1" | tail -1 | cut -d= -f2; }
  local -a w0 w1 f0 l0 c0 g0 h0 f1 l1 c1 g1 h1 m0 m1 n0 n1 j0 j1 ring anon pss pssf fanon fpss fpssf
  # Each process's CPU time right after its frame count, in the same order at both ends of the window.
  for k in $(seq "$n"); do
    w0[k]=$EPOCHREALTIME
    read -r f0[k] l0[k] < <("$rec" status --session "cam$k" --json | field frames dropped_late dropped_by_driver |
      awk '{ print $1, $2 + $3 }'); c0[k]=$(cpu_us "${rp[k]}"); m0[k]=$(faults "${rp[k]}"); n0[k]=$(faults "${fp[k]}")
    g0[k]=$(ffframe "$d/ff$k.progress"); h0[k]=$(cpu_us "${fp[k]}"); j0[k]=$(cpu_us "${sp[k]}")
  done
  local s0; s0=$(cpu_us "$server"); threads "${rp[@]}" >"$d/threads0"
  sleep "$seconds"
  for k in $(seq "$n"); do
    w1[k]=$EPOCHREALTIME
    read -r f1[k] l1[k] ring[k] < <("$rec" status --session "cam$k" --json | field frames dropped_late dropped_by_driver ring_bytes |
      awk '{ print $1, $2 + $3, $4 }'); c1[k]=$(cpu_us "${rp[k]}"); m1[k]=$(faults "${rp[k]}"); n1[k]=$(faults "${fp[k]}")
    g1[k]=$(ffframe "$d/ff$k.progress"); h1[k]=$(cpu_us "${fp[k]}"); j1[k]=$(cpu_us "${sp[k]}")
  done
  local s1; s1=$(cpu_us "$server"); threads "${rp[@]}" >"$d/threads1"
  # The CPU window is over: the processes doing rec's work go before memory is read, so that the
  # libraries' pages are shared as in the issue's comparison (rec and one ffmpeg per camera).
  for k in $(seq "$n"); do kill -TERM "${sp[k]}"; done
  for k in $(seq "$n"); do wait "${sp[k]}" || true; done
  for k in $(seq "$n"); do
    anon[k]=$(kb "${rp[k]}" RssAnon); pss[k]=$(kb "${rp[k]}" Pss smaps_rollup); pssf[k]=$(kb "${rp[k]}" Pss_File smaps_rollup)
    fanon[k]=$(kb "${fp[k]}" RssAnon); fpss[k]=$(kb "${fp[k]}" Pss smaps_rollup); fpssf[k]=$(kb "${fp[k]}" Pss_File smaps_rollup)
  done
  local spss; spss=$(kb "$server" Pss smaps_rollup)
  echo "  at the window's end: load $(load); cam1's RssAnon by kind (MB): rec $(python3 bench/session-maps.py --anon "${rp[1]}");" \
    "ffmpeg $(python3 bench/session-maps.py --anon "${fp[1]}")"

  local rflt=0 fflt=0 rc=0 fc=0 jc=0 rf=0 ff=0 drops=0 rshare="" fshare="" worst=-999999999999 wk=0 rpss=0 fpsst=0 rings=0 anonmax=0
  for k in $(seq "$n"); do
    rc=$((rc + c1[k] - c0[k])); fc=$((fc + h1[k] - h0[k])); jc=$((jc + j1[k] - j0[k])); rflt=$((rflt + m1[k] - m0[k])); fflt=$((fflt + n1[k] - n0[k]))
    local a=$((f1[k] - f0[k])) b=$((g1[k] - g0[k]))
    rf=$((rf + a)); ff=$((ff + b)); drops=$((drops + l1[k] - l0[k]))
    # Each camera's window runs from its first read to its second (a round of reads takes a while).
    local e; e=$(calc %.1f "($(tr -d . <<<"${w1[k]}") - $(tr -d . <<<"${w0[k]}")) / 1e6 * 30")
    rshare+=" $(calc %.4f "$a / $e")"; fshare+=" $(calc %.4f "$b / $e")"
    local over=$((anon[k] * 1024 - ring[k] - 15000000))
    ((over > worst)) && { worst=$over; wk=$k; }
    ((anon[k] > anonmax)) && anonmax=${anon[k]}
    rpss=$((rpss + pss[k])); fpsst=$((fpsst + fpss[k])); rings=$((rings + ring[k]))
  done
  minof() { tr ' ' '\n' | sed '/^$/d' | sort -g | head -1; }
  local rmin fmin; rmin=$(minof <<<"$rshare"); fmin=$(minof <<<"$fshare")
  local rcs fcs ratio; rcs=$(calc %.2f "$rc / 1e6"); fcs=$(calc %.2f "$fc / 1e6"); ratio=$(calc %.3f "$rc / $fc")
  local jcs same; jcs=$(calc %.2f "$jc / 1e6"); same=$(calc %.3f "$rc / $jc")
  printf '  %-34s %9s %12s %18s %14s %12s\n' "" "CPU s" "% core/cam" "frames (min/30fps)" "RssAnon MB/cam" "PSS MB total"
  printf '  %-34s %9s %12s %18s %14s %12s\n' "rec sessions" "$rcs" "$(calc %.2f "$rc / 1e6 / ($rf / 30) * 100")" \
    "$rf ($rmin)" "$(calc %.1f "($(IFS=+; echo "${anon[*]}")) * 1024 / $n / 1e6")" "$(calc %.1f "$rpss * 1024 / 1e6")"
  printf '  %-34s %9s %12s %18s %14s %12s\n' "ffmpeg -c copy" "$fcs" "$(calc %.2f "$fc / 1e6 / ($ff / 30) * 100")" \
    "$ff ($fmin)" "$(calc %.1f "($(IFS=+; echo "${fanon[*]}")) * 1024 / $n / 1e6")" "$(calc %.1f "$fpsst * 1024 / 1e6")"
  printf '  %-34s %9s %12s\n' "ffmpeg doing rec's work (ring, 0.4 s)" "$jcs" "$(calc %.2f "$jc / 1e6 / ($ff / 30) * 100")"
  printf '  %-34s %9s %12s %18s %14s %12s\n' "rtsp-file-server ($((3 * n)) mounts)" "$(calc %.2f "($s1 - $s0) / 1e6")" \
    "$(calc %.2f "($s1 - $s0) / 1e6 / ($rf / 30) * 100")" "" "" "$(calc %.1f "$spss * 1024 / 1e6")"
  echo "  rec's threads over the window, all sessions (CPU s): $(LC_ALL=C join -t$'\t' "$d/threads0" "$d/threads1" |
    awk -F'\t' -v hz="$hz" '{ printf "%s%s %.2f", (NR > 1 ? ", " : ""), $1, ($3 - $2) / hz }')"
  echo "  PSS of mapped files in the totals: rec $(calc %.1f "($(IFS=+; echo "${pssf[*]}")) * 1024 / 1e6") MB," \
    "ffmpeg $(calc %.1f "($(IFS=+; echo "${fpssf[*]}")) * 1024 / 1e6") MB (the rest is private: RssAnon)"
  echo "  frames in each camera's window (about $seconds s plus a round of reads) against 30 fps: rec$rshare; ffmpeg$fshare"
  echo "  minor page faults per camera per second: rec $(calc %.1f "$rflt / $n / $seconds"), ffmpeg $(calc %.1f "$fflt / $n / $seconds")"
  echo "  rec dropped $drops (dropped_late + dropped_by_driver)"
  echo "  rings $(mb "$rings") MB in all; worst camera cam$wk: RssAnon $(mb $((anon[wk] * 1024))) MB against its ring" \
    "$(mb "${ring[wk]}") + 15 MB ($(calc %+.1f "$worst / 1e6") MB)"

  # Saves under load: one at a time from each camera, then one `--all`; the clip should hold 300 frames.
  local times="" clipframes="" t start
  for k in $(seq "$n"); do
    start=$(date +%s.%N)
    "$rec" save --session "cam$k" --last 10s -o "$d/clip$k.mp4" >/dev/null
    t=$(calc %.2f "$(date +%s.%N) - $start"); times+=" $t"; clipframes+=" $(vframes "$d/clip$k.mp4")"
  done
  start=$(date +%s.%N); mkdir -p "$d/all"
  "$rec" save --all --last 10s -o "$d/all/" >/dev/null
  local tall; tall=$(calc %.2f "$(date +%s.%N) - $start")
  local allframes; allframes=$(for f in "$d"/all/*; do vframes "$f"; done | paste -sd' ')
  echo "  rec save --last 10s, one camera at a time: s$times; clip frames$clipframes"
  echo "  rec save --all --last 10s: $tall s for $n clips; clip frames $allframes; load $(load)"

  for k in $(seq "$n"); do "$rec" stop --session "cam$k" >/dev/null; kill -TERM "${fp[k]}"; done
  for k in $(seq "$n"); do wait "${fp[k]}" || true; done
  sessions=()
  kill "$server"; exec {server_fd}<&-
  local rlost=0 flost=0 rrep=0 frep=0 rfr="" ffr="" rsteps=0 fsteps=0 rbig=0 fbig=0 fr miss rep c w
  for k in $(seq "$n"); do
    read -r fr miss rep < <(lost "$d/rec$k.mp4"); rlost=$((rlost + miss)); rrep=$((rrep + rep)); rfr+=" $fr"
    read -r c w < <(steps "$d/rec$k.mp4"); rsteps=$((rsteps + c)); rbig=$(calc %.3f "($w > $rbig) ? $w : $rbig")
    read -r fr miss rep < <(lost "$d/ff$k.mp4"); flost=$((flost + miss)); frep=$((frep + rep)); ffr+=" $fr"
    read -r c w < <(steps "$d/ff$k.mp4"); fsteps=$((fsteps + c)); fbig=$(calc %.3f "($w > $fbig) ? $w : $fbig")
  done
  echo "  files: rec frames$rfr, camera pictures lost $rlost (sent again $rrep); ffmpeg frames$ffr, lost $flost (sent again $frep)"
  echo "  steps over 1.5 frames between pictures' times (re-timed, not lost): rec $rsteps, largest $rbig s;" \
    "ffmpeg $fsteps, largest $fbig s"
  local clipsok; clipsok=$(echo "$clipframes $allframes" | awk '{ ok = 1; for (i = 1; i <= NF; i++) if ($i != 300) ok = 0; print ok }')
  local maxsave; maxsave=$(echo "$times $tall" | tr ' ' '\n' | sed '/^$/d' | sort -g | tail -1)
  row "N=$n total CPU, rec / ffmpeg ($rcs / $fcs s)" "${ratio}x" "<= 1.00x" "$ratio <= 1.0"
  row "N=$n total CPU, rec / ffmpeg doing rec's work ($rcs / $jcs s)" "${same}x" "<= 1.00x (proposed)" "$same <= 1.0"
  row "N=$n frames lost by rec (drops + pictures lost)" "$((drops + rlost))" "0" "$((drops + rlost)) == 0 && $rmin >= 0.99"
  row "N=$n largest step in rec's picture times" "$rbig s" "(ffmpeg's $fbig s)" info
  row "N=$n RssAnon - ring - 15 MB, worst camera" "$(calc %+.1f "$worst / 1e6") MB" "<= 0" "$worst <= 0"
  row "N=$n total PSS, rec / ffmpeg + rings" "$(mb $((rpss * 1024))) MB" "<= $(mb $((fpsst * 1024 + rings))) MB" "$rpss * 1024 <= $fpsst * 1024 + $rings"
  row "N=$n saves --last 10s: 300 frames each, slowest" "$maxsave s" "300 frames" "$clipsok"
}

for n in ${counts//,/ }; do phase "$n"; done

echo
printf '%-52s %24s %30s  %s\n' measure measured target result
printf '%s\n' "${summary[@]}"
echo "load average at end $(load)"
