#!/usr/bin/env bash
# Makes the Swift samples of the docs compile: takes every ```swift block of docs/LIBRARY.md,
# README.md, Sources/Rec/Rec.docc/*.md and the doc comments of Sources/Rec/API/*.swift (which
# DocC shows with the symbols) and writes it into
# Examples/Sources/doc-samples/Samples.generated.swift (git-ignored), one `func` a block, which the
# Examples build then compiles against the real API. scripts/examples.sh runs it before it builds
# and fails on any warning or error the samples give, naming the doc file and block.
#
# Left out: manifests (a block holding `PackageDescription`) and the program under LIBRARY.md's
# "A program", which must equal Examples/Sources/readme/main.swift (after its first comment line)
# and the README's Swift block under "Use it from Swift": it is built and run as `readme`.
#
# Each other block is the body of an `async throws` function whose parameters are what fragments
# use without declaring (`session`, `configuration`, `frame`, `url`); the body sits in an inner
# `do { }`, so a block that declares one of those names shadows the parameter. Its `import` lines
# are hoisted to the file's top (blank lines stay in their place), and `#sourceLocation` points
# each line at its doc file, so the compiler's diagnostics name the doc file and line.
#
#   scripts/doc-samples.sh
set -euo pipefail
cd "$(dirname "$0")/.."

python3 - "$PWD" <<'EOF'
import glob, os, re, sys

root = sys.argv[1]
docs = ["docs/LIBRARY.md", "README.md"] + sorted(glob.glob("Sources/Rec/Rec.docc/*.md"))
program = ("docs/LIBRARY.md", "## A program")      # the readme program, and where it is shown
shown_too = ("README.md", "## Use it from Swift")


def blocks(path):
    """Each ```swift block of a Markdown file: (number, first line of code, lines, heading above it)."""
    lines = open(path, encoding="utf-8").read().split("\n")
    found, heading, fenced, i, n = [], "", False, 0, 0
    while i < len(lines):
        stripped = lines[i].strip()
        if stripped.startswith("#") and not fenced:
            heading = stripped
        if stripped.startswith("```") and stripped != "```swift":
            fenced = not fenced                      # another language's block: its '#' lines are no headings
        if stripped == "```swift":
            n += 1
            end = i + 1
            while end < len(lines) and lines[end].strip() != "```":
                end += 1
            if end == len(lines):
                sys.exit(f"doc-samples: {path}:{i + 1}: block {n} is not closed")
            found.append((n, i + 2, lines[i + 1:end], heading))
            i = end
        i += 1
    return found


def comment_blocks(path):
    """Each ```swift block of the `///` doc comments of a Swift file, as `blocks` gives them."""
    lines = open(path, encoding="utf-8").read().split("\n")
    found, i, n = [], 0, 0
    while i < len(lines):
        if lines[i].strip() == "/// ```swift":
            n += 1
            end = i + 1
            while end < len(lines) and lines[end].strip() != "/// ```":
                if not lines[end].strip().startswith("///"):
                    sys.exit(f"doc-samples: {path}:{i + 1}: block {n} is not closed in its comment")
                end += 1
            code = [re.sub(r"^\s*/// ?", "", l) for l in lines[i + 1:end]]
            found.append((n, i + 2, code, ""))
            i = end
        i += 1
    return found


def first_under(path, heading):
    for block in blocks(path):
        if block[3] == heading:
            return block
    sys.exit(f"doc-samples: {path} has no ```swift block under '{heading}'")


# The readme program: one text in three places.
readme = open("Examples/Sources/readme/main.swift", encoding="utf-8").read().split("\n")[1:]
readme = "\n".join(readme).rstrip("\n")
for path, heading in (program, shown_too):
    text = "\n".join(first_under(path, heading)[2]).rstrip("\n")
    if text != readme:
        sys.exit(f"doc-samples: the ```swift block under '{heading}' in {path} is not Examples/Sources/readme/main.swift "
                 "(after its first comment line); make them the same")
skipped = {(p, first_under(p, h)[0]) for p, h in (program, shown_too)}

imports = {"import Foundation", "import Rec"}
functions, names = [], []
sources = sorted(glob.glob("Sources/Rec/API/*.swift"))
for path in docs + sources:
    for n, line, code, _ in (comment_blocks(path) if path.endswith(".swift") else blocks(path)):
        if (path, n) in skipped or any("PackageDescription" in l for l in code):
            continue
        body = []
        for l in code:
            if re.match(r"^\s*import\s+\w+\s*$", l):
                imports.add(l.strip())
                l = ""
            body.append(l)
        name = "sample_" + re.sub(r"\W", "_", os.path.splitext(os.path.basename(path))[0]) + f"_{n}"
        names.append(f"{path} block {n} (line {line - 1})")
        functions.append(
            f"// {path}, block {n} (line {line - 1})\n"
            f"func {name}(session: CaptureSession, configuration: inout CaptureSession.Configuration, frame: Frame, url: URL) async throws {{\n"
            f"    do {{\n"
            f'#sourceLocation(file: "{os.path.join(root, path)}", line: {line})\n'
            + "\n".join(body) + "\n"
            "#sourceLocation()\n"
            "    }\n"
            "}\n")

out = "Examples/Sources/doc-samples/Samples.generated.swift"
with open(out, "w", encoding="utf-8") as f:
    f.write("// Generated by scripts/doc-samples.sh from the ```swift blocks of the docs; do not edit (git-ignored,\n"
            "// rewritten before every build by scripts/examples.sh).\n")
    f.write("\n".join(sorted(imports)) + "\n\n")
    f.write("\n".join(functions))
print(f"doc-samples: {len(functions)} samples into {out} ({', '.join(names)}); the readme program checked in {program[0]} and {shown_too[0]}",
      file=sys.stderr)
EOF
