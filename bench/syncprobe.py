#!/usr/bin/env python3
"""Sync of the stand-in picture and tone in a recording, measured with the ffmpeg CLI only.

The stand-in camera lights its second mark (bottom-left eighth of the picture) on the frame that
starts each whole second; the stand-in tone clicks (|x| > 0.5 after 0.5 s of quiet) at the same
instants. Prints, for the first, middle and last thirds of the file, the worst |click - flash| in
milliseconds, and how many pairs were found. The same method as Tests/RecCLITests/Sound/SoundProbe,
in the standard library only (no numpy), fast enough for an hour of sound.
usage: syncprobe.py FILE
"""
import array, re, subprocess, sys

path = sys.argv[1]
def run(args): return subprocess.run(args, capture_output=True, text=True, check=True)
w, h = map(int, run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height",
                     "-of", "csv=p=0", path]).stdout.strip().split(","))
mw, mh = max(2, w // 8 & ~1), max(2, h // 8 & ~1)
inset = max(1, min(mw, mh) // 6)
crop = f"crop={mw - 2 * inset}:{mh - 2 * inset}:{inset}:{h - mh + inset}"
out = subprocess.run(["ffmpeg", "-v", "info", "-copyts", "-i", path, "-map", "0:v:0", "-fps_mode", "passthrough",
                      "-vf", f"{crop},format=gray,signalstats,metadata=print:key=lavfi.signalstats.YAVG", "-f", "null", "-"],
                     capture_output=True, text=True).stderr
frames, t = [], None
for line in out.splitlines():
    m = re.search(r"pts_time:(-?[\d.]+)", line)
    if m: t = float(m.group(1))
    m = re.search(r"lavfi\.signalstats\.YAVG=([\d.]+)", line)
    if m and t is not None: frames.append((t, float(m.group(1)))); t = None
zero = frames[0][0]
flashes, lit = [], False
for t, y in frames:
    if y > 128 and not lit: flashes.append(t - zero)
    lit = y > 128
first = run(["ffprobe", "-v", "error", "-select_streams", "a:0", "-show_entries", "frame=pts_time",
             "-read_intervals", "%+#8", "-of", "csv=p=0", path]).stdout.split()  # the first packets may decode to nothing (priming)
astart = float(first[0]) - zero
raw = subprocess.run(["ffmpeg", "-v", "error", "-copyts", "-i", path, "-map", "0:a:0", "-ac", "1", "-f", "s16le", "-"],
                     capture_output=True, check=True).stdout
samples = array.array("h"); samples.frombytes(raw)
rate, level, block = 48000, int(0.5 * 32767), 4800
clicks, quiet_until = [], 0
i = 0
while i < len(samples):
    chunk = samples[i:i + block]
    if max(chunk) > level or -min(chunk) > level:
        for j, v in enumerate(chunk):
            k = i + j
            if abs(v) > level:
                if k >= quiet_until: clicks.append(astart + k / rate)
                quiet_until = k + int(0.5 * rate)
    i += block
pairs = []
for f in flashes:
    near = min(clicks, key=lambda c: abs(c - f), default=None)
    if near is not None and abs(near - f) < 0.5: pairs.append((f, near - f))
length = frames[-1][0] - zero
for name, lo, hi in [("start", 0, length / 3), ("middle", length / 3, 2 * length / 3), ("end", 2 * length / 3, length + 1)]:
    part = [abs(e) for s, e in pairs if lo <= s < hi]
    print(f"{name:6s} {len(part):6d} pairs  worst {max(part) * 1000 if part else float('nan'):7.2f} ms")
print(f"all    {len(pairs):6d} pairs of {len(flashes)} flashes, {len(clicks)} clicks; length {length:.1f} s")
