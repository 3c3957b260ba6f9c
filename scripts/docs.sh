#!/usr/bin/env bash
# Builds the documentation of the Swift library (module Rec) into .build/docs with the toolchain's
# own docc, and fails on any warning and on any public declaration without a doc comment.
#
#   scripts/docs.sh              build and check
#   scripts/docs.sh --preview    the same, then print how to look at it
#
# No SwiftPM plugin (swift-docc-plugin is an outside package, and none can be fetched here): the
# symbol graph is extracted from the built module (swift-symbolgraph-extract, as the plugin does,
# public declarations only) and handed to `docc convert` with the catalog Sources/Rec/Rec.docc.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/rec-module.sh
output=.build/docs
graphs=.build/docs-symbol-graph
swift build "${rec_build[@]}" --target Rec >/dev/null
rm -rf "$graphs" && mkdir -p "$graphs"
swift-symbolgraph-extract -module-name Rec "${rec_module_flags[@]}" -target "$(uname -m)-unknown-linux-gnu" \
  -minimum-access-level public -skip-synthesized-members -output-dir "$graphs"
# Every public declaration has a doc comment: its own, or the one of the protocol requirement it
# implements (`description` of CustomStringConvertible), which is what docc shows for it.
# Both checks run, so one run reports every problem.
status=0
python3 - "$graphs/Rec.symbols.json" "$PWD/" <<'EOF' || status=1
import json, sys
graph, root = json.load(open(sys.argv[1])), sys.argv[2]
missing = []
for symbol in graph["symbols"]:
    if symbol["accessLevel"] in ("public", "open") and not symbol.get("docComment", {}).get("lines"):
        where = symbol.get("location", {})
        path = where.get("uri", "?").removeprefix("file://").removeprefix(root)
        line = where.get("position", {}).get("line", -1) + 1
        missing.append(f"{path}:{line}: {'.'.join(symbol['pathComponents'])} ({symbol['kind']['displayName']})")
for text in sorted(missing):
    print(f"docs: no doc comment: {text}", file=sys.stderr)
if missing:
    sys.exit(f"docs: {len(missing)} public declarations of module Rec have no documentation; document each (///).")
EOF
rm -rf "$output"
# docc prints its diagnostics on stdout, with its progress: shown only when it fails.
if ! log=$(docc convert Sources/Rec/Rec.docc --additional-symbol-graph-dir "$graphs" --output-path "$output" \
             --fallback-display-name Rec --fallback-bundle-identifier rec.Rec --warnings-as-errors 2>&1); then
  echo "$log" >&2
  echo "docs: docc found problems (above; warnings count as errors): fix each" >&2
  status=1
fi
((status == 0)) || exit "$status"
echo "docs: built $output (module Rec, $(find "$output/data/documentation" -name '*.json' | wc -l) pages), no warnings"
if [[ ${1:-} == --preview ]]; then
  echo "docs: open it with a static server, e.g. (cd $output && python3 -m http.server 8000), then http://localhost:8000/documentation/rec"
fi
