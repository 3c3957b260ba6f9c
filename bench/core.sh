#!/usr/bin/env bash
# Issue 20's figures for the core, each beside the ffmpeg CLI in the same run, as ratios with
# their targets:
#   a. a real-time 1080p30 session: file source (paced), default preset, 60 s ring, recording to
#      an MP4 file; against `ffmpeg -re` doing the same decode (as many decoder threads as rec's
#      file source), the same x264 settings (the default preset plus the recording's look-ahead
#      cap) and the same fragmented MP4 (rec's movflags and 0.1 s frag_duration). CPU per frame
#      <= 1.00x ffmpeg's; peak RSS (VmHWM) <= ffmpeg's + 1.1 x ring bytes + 30 MB.
#   b. the same session with 5 viewers of /live.mp4 (curl) and one publisher: once to an
#      `ffmpeg -listen 1` RTMP receiver on loopback, once to an `ffmpeg -i srt://…?mode=listener`
#      SRT receiver (MPEG-TS); CPU per frame <= 1.05x the bare session's. Also the 5 viewers
#      alone (info, no target).
#   c. cuts of a 20-minute 1080p file: the 17-minute --edit-list cut's wall time <= 1.05x
#      `ffmpeg -ss -to -i -map 0 -c copy` (best of RUNS, run in turn); the exact cut's peak memory
#      <= 1.2x ffmpeg decoding and re-encoding the same frames with the splice settings rec uses
#      (ReencodeSettings.splice), at 5 and 17 minutes, and flat: 17 min <= 1.05x 5 min.
# CPU is user + system seconds of the whole process (all threads, /proc/PID/stat) over the same
# window, divided by the frames it encoded in it, so a lag on a shared machine changes neither
# side's figure; frames dropped are printed. MB = 10^6 bytes.
# Run by hand: bench/core.sh [seconds per session window (75)] [parts (a,b,c)] [runs for c (3)]
#   CORE_ROUNDS=N runs the sessions N times in turn (bare, ffmpeg, rtmp, srt, viewers), CPU summed
#   over them.
#   CORE_WORK=/some/dir keeps the generated inputs between runs.
set -euo pipefail
seconds=${1:-75}
parts=${2:-a,b,c}
runs=${3:-3}
warm=5
source "$(dirname "$0")/common.sh"
[[ -z ${CORE_WORK:-} ]] || { mkdir -p "$CORE_WORK"; rm -rf "$work"; work=$CORE_WORK; export XDG_RUNTIME_DIR=$work/run; mkdir -p -m 700 "$XDG_RUNTIME_DIR"; }
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for s in bare rtmp srt viewers; do "$rec" stop --session "$s" >/dev/null 2>&1 || true; done
  if [[ -n ${CORE_WORK:-} ]]; then rm -rf "$work"/*.out.* "$work"/rec-*.mp4 "$work"/ff-*.mp4 "$work/run"; else rm -rf "$work"; fi
}
trap cleanup EXIT

hz=$(getconf CLK_TCK)
load() { cut -d' ' -f1-3 /proc/loadavg; }
wants() { [[ ",$parts," == *",$1,"* ]]; }
ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
kb() { awk -v k="$2:" '$1 == k { print $2 }' "/proc/$1/status"; } # a /proc/PID/status field, kB
field() { python3 bench/session-json.py "$@"; }
status() { "$rec" status --session "$1" --json; }
median() { sort -g | awk '{ a[NR] = $1 } END { print (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2) }'; }
# The x264 options line a file's SEI carries, minus the version.
settings() { strings "$1" | grep -o 'x264 - core.*' | head -1 | sed 's/.*options: //'; }
summary=()
# row NAME MEASURED TARGET OK (OK: an awk condition on numbers, or "info" for a row with no target)
row() { summary+=("$(printf '%-50s %22s %26s  %s' "$1" "$2" "$3" "$([[ $4 == info ]] && echo info || awk "BEGIN { print ($4) ? \"PASS\" : \"MISS\" }")")"); }

echo "core bench (issue 20), $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD)," \
  "$(nproc) cores, $(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)"
echo "load average at start $(load)"

# The inputs: 60 s of testsrc2 1920x1080 30 fps at x264 ultrafast 8 Mb/s (a keyframe every 2 s)
# with 128 kb/s AAC, concatenated with -c copy: 20 minutes for the cuts (as trim-long.sh), and the
# pictures alone, long enough to outlast a session, for the sessions.
minutes=$(( (warm + seconds + 30) / 60 + 1 ))
if [[ ! -s $work/minute.mp4 ]]; then
  ffmpeg -v error -y -f lavfi -i "testsrc2=size=1920x1080:rate=30" -f lavfi -i "sine=frequency=440:sample_rate=48000" \
    -t 60 -c:v libx264 -preset ultrafast -b:v 8M -maxrate 8M -bufsize 16M -g 60 -keyint_min 60 -sc_threshold 0 \
    -pix_fmt yuv420p -c:a aac -b:a 128k "$work/minute.mp4"
fi
concat() { # concat MINUTES OUT [ffmpeg output options]
  local n=$1 out=$2; shift 2
  [[ -s $out ]] && return
  for _ in $(seq "$n"); do echo "file '$work/minute.mp4'"; done >"$work/list.txt"
  ffmpeg -v error -y -f concat -safe 0 -i "$work/list.txt" "$@" -c copy "$out"
}

# --- a, b: sessions ------------------------------------------------------------------------------
# Recordings cap x264's look-ahead (EncoderLatency); the default preset is veryfast, crf 23, a
# keyframe every second (30 frames), no B-frames, yuv420p, threads auto; a recording's MP4 is
# fragmented at keyframes and every 0.1 s (ContainerFormat.crashSafeOptions).
x264=(-c:v libx264 -preset veryfast -crf 23 -g 30 -bf 0 -rc-lookahead 5 -x264-params sync-lookahead=0 -pix_fmt yuv420p)
frag=(-movflags frag_keyframe+empty_moov+default_base_moof -frag_duration 100000)
dthreads=$(( $(nproc) / 2 > 1 ? $(nproc) / 2 : 1 )) # FileSource.decoderThreads

# session NAME [rec start options]: starts it, waits $warm s, measures over $seconds s, stops it.
# Sets cpu (s), frames (encoded in the window), drops, hwm/rss (kB), ring (bytes), span (s).
session() {
  local name=$1; shift
  "$rec" start --session "$name" --source "file:$work/session-${minutes}m.mp4" --preset default --buffer 60s \
    --output "$work/rec-$name.mp4" "$@" >/dev/null
  local pid; pid=$(cat "$XDG_RUNTIME_DIR/rec/$name/pid")
  [[ $name == bare ]] || watch "$name"
  sleep "$warm"
  local c0 f0 l0 d0 c1 f1 l1 d1
  # The CPU ticks right after each status reply, so both windows end within a few ms of each other.
  read -r f0 l0 d0 < <(status "$name" | field frames dropped_late dropped_by_driver); c0=$(ticks "$pid")
  sleep "$seconds"
  read -r f1 l1 d1 ring span < <(status "$name" | field frames dropped_late dropped_by_driver ring_bytes ring_span); c1=$(ticks "$pid")
  hwm=$(kb "$pid" VmHWM); rss=$(kb "$pid" VmRSS)
  maps=$(python3 bench/session-maps.py "$pid")
  [[ $name == bare ]] || loaded_status=$(status "$name")
  "$rec" stop --session "$name" >/dev/null
  cpu=$(calc %.2f "($c1 - $c0) / $hz")
  drops=$(( (l1 - l0) + (d1 - d0) ))
  frames=$(( f1 - f0 - drops ))
}
printsession() { # label
  printf '  %-40s %8.2f %7d %9.2f %8d %9.1f %9.1f   %s\n' "$1" "$cpu" "$frames" "$(calc %f "$cpu / $frames * 1000")" \
    "$drops" "$(calc %f "$hwm * 1024 / 1e6")" "$(calc %f "$rss * 1024 / 1e6")" "$maps"
}
header() { printf '  %-40s %8s %7s %9s %8s %9s %9s   %s\n' "" "CPU s" frames "ms/frame" dropped "peak MB" "RSS MB" "RSS by kind (MB)"; }

ffsession() { # ffmpeg for as long, measured over the same window of its life; frames from its -progress
  ffmpeg -nostdin -v error -y -threads "$dthreads" -re -i "$work/session-${minutes}m.mp4" -t $((warm + seconds + 3)) -map 0:v \
    "${x264[@]}" "${frag[@]}" -stats_period 0.1 -progress "$work/progress" "$work/ff-session.mp4" &
  local ff=$! f0 c0 f1 c1; pids+=("$ff")
  sleep "$warm"
  ffframe() { grep '^frame=' "$work/progress" | tail -1 | cut -d= -f2; }
  f0=$(ffframe); c0=$(ticks "$ff")
  sleep "$seconds"
  f1=$(ffframe); c1=$(ticks "$ff"); hwm=$(kb "$ff" VmHWM); rss=$(kb "$ff" VmRSS)
  maps=$(python3 bench/session-maps.py "$ff")
  wait "$ff"
  cpu=$(calc %.2f "($c1 - $c0) / $hz"); frames=$((f1 - f0)); drops=0
}
watch() { # NAME: five viewers of a loaded session, as soon as it has started (session() calls this)
  local url token base
  url=$("$rec" view --session "$1" --no-open); token=${url#*token=}; base=${url%%\?*}
  for _ in 1 2 3 4 5; do curl -s -H "X-Rec-Token: $token" "${base}live.mp4" -o /dev/null & pids+=("$!"); done
}
# Sums over the rounds (CORE_ROUNDS, default 1), which run bare, ffmpeg, rtmp, srt, viewers in turn
# so that each sees about the same machine: "cpu frames drops" per kind; memory is judged in every round.
# A file source waits for a slow encoder rather than dropping frames (waitsWithoutLoss), so a lag
# shows as a window with fewer frames than real time (< 98 % of 30 fps): "cpu frames drops behind".
declare -A sum=([bare]="0 0 0 0" [ffmpeg]="0 0 0 0" [rtmp]="0 0 0 0" [srt]="0 0 0 0" [viewers]="0 0 0 0")
add() { read -r c f d b <<<"${sum[$1]}"; ((frames * 100 >= seconds * 30 * 98)) || b=$((b + 1))
  sum[$1]="$(calc %.2f "$c + $cpu") $((f + frames)) $((d + drops)) $b"; }
per() { read -r c f _ <<<"${sum[$1]}"; calc %f "$c / $f"; } # CPU seconds per encoded frame
rss_ok=1; rss_worst=""; nview_all=""
if wants a || wants b; then
  concat "$minutes" "$work/session-${minutes}m.mp4" -map 0:v
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  sport=$(python3 -c 'import socket; s = socket.socket(type=socket.SOCK_DGRAM); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  for round in $(seq "${CORE_ROUNDS:-1}"); do
    echo
    echo "round $round: 1080p30 session, file source paced, default preset, --buffer 60s, recording to MP4;" \
      "window of ${seconds} s after ${warm} s; load $(load)"
    header
    session bare --force
    printsession "a. rec session"; add bare
    bare_ring=$ring
    echo "  ring ${span} s, $(calc %.1f "$ring / 1e6") MB; load $(load)"
    if wants a; then
      bare_hwm=$hwm; bare_span=$span
      ffsession
      printsession "a. ffmpeg -re, same decode+encode+frag"; add ffmpeg
      limit=$(calc %.0f "$hwm * 1024 + 1.1 * $bare_ring + 30e6")
      over=$(calc %.1f "($bare_hwm * 1024 - $limit) / 1e6")
      echo "  rec peak $(calc %.1f "$bare_hwm * 1024 / 1e6") MB against ffmpeg's $(calc %.1f "$hwm * 1024 / 1e6") + 1.1 ring" \
        "+ 30 = $(calc %.1f "$limit / 1e6") MB: $over MB over; load $(load)"
      awk "BEGIN { exit !($over <= 0 && $bare_span >= 59) }" || rss_ok=0
      rss_worst=$(printf '%s\n%s\n' "$rss_worst" "$over $(calc %.1f "$bare_hwm * 1024 / 1e6") $(calc %.1f "$limit / 1e6")" | sed '/^$/d' | sort -gr | head -1)
      if [[ "$(settings "$work/rec-bare.mp4")" != "$(settings "$work/ff-session.mp4")" ]]; then
        echo "  x264 settings DIFFER:"; echo "    rec:    $(settings "$work/rec-bare.mp4")"; echo "    ffmpeg: $(settings "$work/ff-session.mp4")"
      elif ((round == 1)); then
        echo "  x264 settings identical: $(settings "$work/rec-bare.mp4" | tr ' ' '\n' |
          grep -E '^(threads|lookahead_threads|rc_lookahead|bframes|keyint|crf)=' | paste -sd' ')"
      fi
    fi
    if wants b; then
      # b: the same with 5 viewers of /live.mp4 and one publisher, to ffmpeg listening for RTMP,
      # then for SRT (MPEG-TS; the receiver listens, rec calls); then the viewers alone.
      loaded() { # NAME LABEL [rec start options]
        local name=$1 label=$2; shift 2
        session "$name" --force --http 0 "$@"
        printsession "b. rec, $label"; add "$name"
        read -r nview skipped pstate pbytes < <(echo "$loaded_status" | field extra.live_viewers extra.live_skipped extra.publish_state extra.publish_bytes)
        nview_all+=" $nview"
        echo "  viewers $nview, live fragments skipped $skipped, publisher $pstate ($(calc %.1f "${pbytes/-/0} / 1e6") MB sent); load $(load)"
      }
      ffmpeg -nostdin -v error -listen 1 -i "rtmp://127.0.0.1:$port/live/cam" -c copy -f null - 2>"$work/listener.err" &
      pids+=("$!")
      loaded rtmp "5 viewers + RTMP publisher" --publish "rtmp://127.0.0.1:$port/live/cam"
      ffmpeg -nostdin -v error -i "srt://127.0.0.1:$sport?mode=listener" -c copy -f null - 2>"$work/srt-listener.err" &
      pids+=("$!")
      loaded srt "5 viewers + SRT publisher" --publish "srt://127.0.0.1:$sport?mode=caller"
      loaded viewers "5 viewers, no publisher"
    fi
  done
  dropnote() { local n=0 b=0; for k in "$@"; do n=$((n + $(cut -d' ' -f3 <<<"${sum[$k]}"))); b=$((b + $(cut -d' ' -f4 <<<"${sum[$k]}"))); done
    ((n == 0)) || printf ' (%d frames dropped: not real time)' "$n"; ((b == 0)) || printf ' (%d windows behind real time)' "$b"; }
  if wants a; then
    ratio=$(calc %.3f "$(per bare) / $(per ffmpeg)")
    row "a. session CPU per frame / ffmpeg's$(dropnote bare ffmpeg)" "${ratio}x" "<= 1.00x" "$ratio <= 1.0"
    read -r over peak limit <<<"$rss_worst"
    row "a. session peak RSS, worst round ($over MB over)" "$peak MB" "<= ffmpeg + 1.1 ring + 30 = $limit" "$rss_ok"
  fi
  if wants b; then
    fives=$(awk '{ ok = 1; for (i = 1; i <= NF; i++) if ($i != 5) ok = 0; print ok }' <<<"$nview_all")
    for k in rtmp:"5 viewers + RTMP publisher" srt:"5 viewers + SRT publisher"; do
      ratio=$(calc %.3f "$(per "${k%%:*}") / $(per bare)")
      row "b. CPU/frame, ${k#*:} / bare$(dropnote bare "${k%%:*}")" "${ratio}x" "<= 1.05x" "$ratio <= 1.05 && $fives"
    done
    ratio=$(calc %.3f "$(per viewers) / $(per bare)")
    row "b. CPU/frame, 5 viewers alone / bare (info)$(dropnote bare viewers)" "${ratio}x" "" info
  fi
fi

# --- c: cuts -------------------------------------------------------------------------------------
# "seconds peak-kB" of one command; every run starts with no earlier clip on disk and no dirty pages.
timed() {
  rm -f "$work"/*.out.*; sync
  /usr/bin/time -f '%e %M' -o "$work/time.txt" "$@" >/dev/null 2>"$work/err.txt" ||
    { echo "failed: $* ($(tail -c 300 "$work/err.txt"))" >&2; exit 1; }
  tail -1 "$work/time.txt"
}
if wants c; then
  concat 20 "$work/in.mp4" -map 0
  cat "$work/in.mp4" >/dev/null # in the page cache before the first timed run, as for the later ones
  echo
  echo "c. cuts of a 20-minute 1920x1080 30 fps H.264 + AAC file (8 Mb/s, keyframe every 2 s) from 61.5 s;" \
    "best of $runs for time, median for memory; load $(load)"
  read -r profile level < <(ffprobe -v error -select_streams v -show_entries stream=profile,level -of csv=p=0 "$work/in.mp4" | tr ',' ' ' |
    awk '{ l = $NF; print tolower($(NF - 1)), int(l / 10) "." l % 10 }')
  # ReencodeSettings.splice for an H.264 source cut by `rec trim`: libx264 veryfast, crf 16, no
  # B-frames, no look-ahead, one thread, SPS id 1, the source's profile and level; one decoder thread.
  splice=(-c:v libx264 -preset veryfast -crf 16 -bf 0 -g 100000 -threads 1 -rc-lookahead 0 -x264-params sps-id=1
    -profile:v "$profile" -level "$level" -pix_fmt yuv420p)
  printf '  %-44s %8s %8s %12s\n' "" "best s" "MB" "runs (s MB)"
  for cut in "5:361.5" "17:1081.5"; do
    IFS=: read -r m to <<<"$cut"
    n=$("$rec" trim "$work/in.mp4" --from 61.5s --to "${to}s" -o "$work/dry.mp4" --dry-run --json | field reencoded)
    : >"$work/ff_copy.txt"; : >"$work/rec_el.txt"; : >"$work/ff_enc.txt"; : >"$work/rec_exact.txt"
    for _ in $(seq "$runs"); do
      timed ffmpeg -v error -y -ss 61.5 -to "$to" -i "$work/in.mp4" -map 0 -c copy "$work/ff.out.mp4" >>"$work/ff_copy.txt"
      timed "$rec" trim "$work/in.mp4" --from 61.5s --to "${to}s" -o "$work/rec.out.mp4" --edit-list >>"$work/rec_el.txt"
      timed ffmpeg -v error -y -threads 1 -ss 61.5 -i "$work/in.mp4" -map 0:v -frames:v "$n" "${splice[@]}" "$work/enc.out.mp4" >>"$work/ff_enc.txt"
      timed "$rec" trim "$work/in.mp4" --from 61.5s --to "${to}s" -o "$work/rec.out.mp4" >>"$work/rec_exact.txt"
    done
    for f in ff_copy rec_el ff_enc rec_exact; do
      read -r "t_$f" < <(cut -d' ' -f1 "$work/$f.txt" | sort -g | head -1)
      read -r "m_$f" < <(cut -d' ' -f2 "$work/$f.txt" | median)
    done
    declare "exact_$m=${m_rec_exact}" "enc_$m=${m_ff_enc}"
    show() { printf '  %-44s %8.2f %8.1f   %s\n' "$1" "$2" "$(calc %f "$3 * 1024 / 1e6")" \
      "$(awk '{ printf "%s%.2f %.0f", (NR > 1 ? ", " : ""), $1, $2 * 1024 / 1e6 }' "$work/$4.txt")"; }
    show "$m min: ffmpeg -ss -to -i -map 0 -c copy" "$t_ff_copy" "$m_ff_copy" ff_copy
    show "$m min: rec trim --edit-list" "$t_rec_el" "$m_rec_el" rec_el
    show "$m min: ffmpeg decode + re-encode $n frames" "$t_ff_enc" "$m_ff_enc" ff_enc
    show "$m min: rec trim (exact, re-encodes $n)" "$t_rec_exact" "$m_rec_exact" rec_exact
    ratio=$(calc %.3f "$t_rec_el / $t_ff_copy")
    [[ $m == 17 ]] && row "c. 17 min --edit-list time / ffmpeg -c copy" "${ratio}x" "<= 1.05x" "$ratio <= 1.05"
    [[ $m == 5 ]] && row "c.  5 min --edit-list time / ffmpeg -c copy (info)" "${ratio}x" "" info
    ratio=$(calc %.3f "$m_rec_exact / $m_ff_enc")
    row "c. $m min exact cut peak / ffmpeg re-encoding $n" "${ratio}x" "<= 1.20x" "$ratio <= 1.2"
  done
  growth=$(calc %.3f "$exact_17 / $exact_5")
  row "c. exact cut peak, 17 min / 5 min (flat)" "${growth}x" "<= 1.05x" "$growth <= 1.05"
  echo "  splice settings given to ffmpeg: ${splice[*]}; load $(load)"
fi

echo
printf '%-50s %22s %26s  %s\n' measure measured target result
printf '%s\n' "${summary[@]}"
echo "load average at end $(load)"
