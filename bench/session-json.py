#!/usr/bin/env python3
"""Print fields of one JSON object read from stdin, space-separated, for bench/session.sh.

Usage: rec status --json | bench/session-json.py frames dropped_late ring_bytes
A missing or null field prints as "-"; a nested field is written a.b (e.g. saved.from).
"""
import json
import sys


def field(obj, name):
    for part in name.split("."):
        if not isinstance(obj, dict) or obj.get(part) is None:
            return "-"
        obj = obj[part]
    return str(obj)


def main():
    text = sys.stdin.read()
    try:
        obj = json.loads(text)
    except ValueError:
        print(" ".join("-" for _ in sys.argv[1:]))
        return
    print(" ".join(field(obj, name) for name in sys.argv[1:]))


if __name__ == "__main__":
    main()
