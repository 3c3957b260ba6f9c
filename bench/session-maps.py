#!/usr/bin/env python3
"""Where a process's resident memory is, from /proc/PID/smaps, for bench/session-memory.sh.

Usage: bench/session-maps.py [--anon] PID
Prints one line, in MB (10^6 bytes) of RSS: mapped files (shared libraries), glibc malloc's
per-thread arenas (anonymous mappings that start on a 64 MiB boundary, as glibc aligns its heaps),
the main [heap], and the other anonymous mappings (large allocations malloc served with mmap,
such as whole video frames, and thread stacks). With --anon, the same for private anonymous pages
only (what RssAnon counts: in "files", the library pages a process wrote to, such as relocated data),
to a tenth of a MB.
"""
import re
import sys

HEADER = re.compile(r"^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \S+\s*(.*)$")


def classify(start, name):
    if name.startswith("/"):
        return "files"
    if name == "[heap]":
        return "heap"
    if name == "" and start % (64 * 1024 * 1024) == 0:
        return "arenas"
    if name == "":
        return "other anon"
    return "other"


def main():
    anon = sys.argv[1] == "--anon"
    key, digits = ("Anonymous:", 1) if anon else ("Rss:", 0)
    totals, counts, current = {}, {}, None
    with open(f"/proc/{sys.argv[-1]}/smaps") as smaps:
        for line in smaps:
            header = HEADER.match(line)
            if header:
                current = classify(int(header.group(1), 16), header.group(3))
                counts[current] = counts.get(current, 0) + 1
            elif line.startswith(key) and current:
                totals[current] = totals.get(current, 0) + int(line.split()[1])
    order = ["files", "arenas", "heap", "other anon", "other"]
    print(", ".join(f"{k} {totals.get(k, 0) * 1024 / 1e6:.{digits}f}" + (f" (x{counts[k]})" if k == "arenas" else "")
                    for k in order if k in counts))


if __name__ == "__main__":
    main()
