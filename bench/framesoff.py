#!/usr/bin/env python3
"""How far a cut's presented frames are from the exact ones.

Usage: framesoff.py SOURCE.framemd5 CLIP.framemd5 FIRST END

FIRST and END are source frame indices (in presentation order): the exact clip is frames
FIRST..END-1. Both files come from `ffmpeg -fps_mode passthrough -f framemd5`, so each line is one
presented frame. Each clip frame is found in the source by its hash; a frame that matches no source
frame (re-encoded) takes its place from its nearest matched neighbour. Prints one line:

  presented=N start_extra=N start_missing=N end_extra=N end_missing=N inner=N unmatched=N off=N

start_extra/end_extra count presented frames before FIRST / at or after END; start_missing/end_missing
count frames of FIRST..END-1 not presented, before the first / after the last one that is; inner
counts those missing in between plus frames presented twice; off is the sum of these five.
"""
import sys


def hashes(path):
    """The hash of each presented frame of stream 0, in file order."""
    out = []
    with open(path) as f:
        for line in f:
            if line.startswith("#"):
                continue
            fields = [x.strip() for x in line.split(",")]
            if len(fields) >= 6 and fields[0] == "0":
                out.append(fields[5])
    return out


def source_indices(source, clip):
    """The source index of each clip frame, and how many frames matched no source frame."""
    where = {}
    for i, h in enumerate(source):
        where.setdefault(h, i)
    found = [where.get(h) for h in clip]
    known = [i for i, v in enumerate(found) if v is not None]
    if not known:
        sys.exit("no frame of the clip matches the source; is it the same video?")
    result = []
    for i, v in enumerate(found):
        if v is None:
            nearest = min(known, key=lambda k: abs(k - i))
            v = found[nearest] + (i - nearest)
        result.append(v)
    return result, found.count(None)


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    source, clip = hashes(sys.argv[1]), hashes(sys.argv[2])
    first, end = int(sys.argv[3]), int(sys.argv[4])
    if not clip:
        print("presented=0 start_extra=0 start_missing=0 end_extra=0 end_missing=0 inner=0 "
              f"unmatched=0 off={end - first}")
        return
    idx, unmatched = source_indices(source, clip)
    presented = set(idx)
    inside = sorted(i for i in presented if first <= i < end)
    missing = [i for i in range(first, end) if i not in presented]
    lo, hi = (inside[0], inside[-1]) if inside else (end, end)
    counts = {
        "presented": len(idx),
        "start_extra": sum(1 for i in idx if i < first),
        "start_missing": sum(1 for i in missing if i < lo),
        "end_extra": sum(1 for i in idx if i >= end),
        "end_missing": sum(1 for i in missing if i > hi),
        "inner": sum(1 for i in missing if lo < i < hi) + len(idx) - len(presented),
        "unmatched": unmatched,
    }
    counts["off"] = sum(counts[k] for k in ("start_extra", "start_missing", "end_extra", "end_missing", "inner"))
    print(" ".join(f"{k}={v}" for k, v in counts.items()))


if __name__ == "__main__":
    main()
