#!/usr/bin/env python3
"""Where processes' CPU goes, by thread name, for bench/review.sh.

  proc-threads.py snapshot PID...             JSON on stdout: each process's utime+stime in seconds
                                              (/proc/PID/stat, clock ticks; it keeps ended threads'
                                              time) and each live thread's name and exact CPU time
                                              (/proc/PID/task/TID/schedstat: per-thread ticks would
                                              round a connection thread's few ms down to nothing)
  proc-threads.py diff BEFORE AFTER SECONDS [PID...]
                                              % of a core per thread name, summed over the processes
                                              (or the PIDs given); "(ended threads, rounding)" is the
                                              process's own count (which keeps ended threads' time)
                                              less its live threads'
"""
import json
import os
import sys


HZ = os.sysconf("SC_CLK_TCK")


def ticks(path):
    """(name, utime + stime in seconds) from a stat file."""
    with open(path) as f:
        text = f.read()
    name = text[text.index("(") + 1:text.rindex(")")]
    fields = text[text.rindex(")") + 2:].split()
    return name, (int(fields[11]) + int(fields[12])) / HZ   # utime, stime: fields 14 and 15 of stat


def thread(pid, tid):
    """(name, CPU seconds) of one thread, exact."""
    with open(f"/proc/{pid}/task/{tid}/comm") as f:
        name = f.read().strip()
    with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
        return name, int(f.read().split()[0]) / 1e9


def snapshot(pids):
    out = {}
    for pid in pids:
        try:
            _, total = ticks(f"/proc/{pid}/stat")
        except OSError:
            continue
        threads = {}
        for tid in os.listdir(f"/proc/{pid}/task"):
            try:
                threads[tid] = thread(pid, tid)
            except OSError:
                pass
        out[pid] = {"total": total, "threads": threads}
    return out


def diff(before, after, seconds, only):
    by_name, born, ended_names = {}, {}, {}
    for pid, a in after.items():
        if only and pid not in only:
            continue
        b = before.get(pid, {"total": 0, "threads": {}})
        for tid, (name, _) in a["threads"].items():
            if tid not in b["threads"]:
                born[name] = born.get(name, 0) + 1
        for tid, (name, _) in b["threads"].items():
            if tid not in a["threads"]:
                ended_names[name] = ended_names.get(name, 0) + 1
        live = 0
        for tid, (name, t) in a["threads"].items():
            d = t - b["threads"].get(tid, (name, 0))[1]
            by_name[name] = by_name.get(name, 0) + d
            live += d
        ended = (a["total"] - b["total"]) - live
        by_name["(ended threads, rounding)"] = by_name.get("(ended threads, rounding)", 0) + ended
    for name, d in sorted(by_name.items(), key=lambda x: -x[1]):
        if abs(d / seconds) >= 0.0005:
            print(f"    {name:<26} {d / seconds * 100:6.2f} % of a core")
    if born or ended_names:
        print("    threads started during the window (live at its end): " + (", ".join(f"{n} {c}" for n, c in born.items()) or "none")
              + "; threads live at its start that ended: " + (", ".join(f"{n} {c}" for n, c in ended_names.items()) or "none"))


if sys.argv[1] == "snapshot":
    print(json.dumps(snapshot(sys.argv[2:])))
else:
    with open(sys.argv[2]) as f:
        before = json.load(f)
    with open(sys.argv[3]) as f:
        after = json.load(f)
    diff(before, after, float(sys.argv[4]), set(sys.argv[5:]))
