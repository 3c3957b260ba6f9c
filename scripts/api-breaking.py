#!/usr/bin/env python3
"""Judges the breaking changes swift-api-digester found against the last release (scripts/api-check.sh).

    api-breaking.py REPORT RELEASED VERSION CHANGELOG

REPORT is `swift-api-digester -diagnose-sdk`'s output, RELEASED the newest version in api/releases/,
VERSION RecCLI.version. No change: pass. Changes: SemVer says which version may make them (before
1.0 a new minor, from 1.0 a new major), and CHANGELOG must have that version's section naming each
under "### Breaking"; else it fails and says what to write. Exit 0 when it passes, 1 when not.
"""
import os
import re
import sys


def semver(text, what):
    match = re.fullmatch(r"(\d+)\.(\d+)\.(\d+)", text)
    if not match:
        sys.exit(f"api-check: {what} '{text}' is not MAJOR.MINOR.PATCH")
    return tuple(int(n) for n in match.groups())


def name(change):
    """The declaration a change is about: "Func CaptureSession.stop() has been removed" names the second word."""
    words = change.split()
    return words[1] if len(words) > 1 else change


def section(lines, version):
    """The lines of CHANGELOG's section for `version` ("## 0.2.0" or "## [0.2.0]", a " - DATE" after it may follow), or None."""
    heading = re.compile(r"##\s+\[?" + re.escape(version) + r"\]?(\s+-\s+.*)?\s*$")
    start = next((i for i, line in enumerate(lines) if heading.match(line)), None)
    if start is None:
        return None
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    return lines[start + 1:end]


def breaking_part(lines):
    """The text under "### Breaking" in a section, or None."""
    start = next((i for i, line in enumerate(lines) if re.match(r"###\s+Breaking\s*$", line)), None)
    if start is None:
        return None
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("### ")), len(lines))
    return "\n".join(lines[start + 1:end])


def main(report, released, version, changelog):
    source = f"api/releases/{released}.json"
    last, now = semver(released, "the newest release in api/releases/"), semver(version, "RecCLI.version")
    if now < last:
        print(f"api-check: RecCLI.version is {version}, older than the last release {released} ({source})", file=sys.stderr)
        return 1
    # One line per change, under headers such as /* Removed Decls */.
    with open(report) as file:
        changes = [line.strip() for line in file if line.strip() and not line.startswith("/*")]
    if not changes:
        print(f"api-check: nothing in module Rec breaks release {released}'s API ({source})")
        return 0
    print(f"api-check: module Rec breaks release {released}'s API ({source}) in {len(changes)} place(s):", file=sys.stderr)
    for change in changes:
        print(f"  {change}", file=sys.stderr)

    bumped = now[0] > last[0] or (last[0] == 0 and now[1] > last[1])
    target = version if bumped else ".".join(map(str, (last[0] + 1, 0, 0) if last[0] >= 1 else (0, last[1] + 1, 0)))
    todo = []
    if not bumped:
        kind = "a new minor version (before 1.0)" if last[0] == 0 else "a new major version"
        todo.append(f"set RecCLI.version in Sources/RecCLI/RecCLI.swift to {target} (it is {version}): "
                    f"after release {released}, a breaking change needs {kind}")
    lines = open(changelog).read().splitlines() if os.path.exists(changelog) else []
    body = section(lines, target)
    listed = breaking_part(body) if body is not None else None
    missing = [change for change in changes if listed is None or name(change) not in listed]
    if body is None:
        todo.append(f"make '## Unreleased' in {changelog} the section of {target}, '## {target} - unreleased' "
                    f"(docs/RELEASING.md), with a '### Breaking' part naming each change above")
    elif listed is None:
        todo.append(f"add a '### Breaking' part to {changelog}'s '## {target}' section naming each change above")
    elif missing:
        todo.append(f"name each of these under '### Breaking' in {changelog}'s '## {target}' section: "
                    + ", ".join(name(change) for change in missing))
    if not todo:
        print(f"api-check: these are release {target}'s breaking changes, and {changelog} lists them under '### Breaking'")
        return 0
    print("api-check: a breaking change must be a decision that users are told of; to make it one:", file=sys.stderr)
    for number, step in enumerate(todo, 1):
        print(f"  {number}. {step}", file=sys.stderr)
    if missing:
        print(f"  For example, under '## {target}', '### Breaking' (and say what to use instead):", file=sys.stderr)
        for change in missing:
            print("    - `" + name(change) + "`" + change.split(name(change), 1)[1], file=sys.stderr)
    print("  If the change is not meant, put the declaration back as it was.", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
