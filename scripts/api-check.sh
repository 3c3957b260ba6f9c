#!/usr/bin/env bash
# Checks the public API of the Swift library (module Rec): against the baseline in api/Rec.txt,
# and against the last release's, in api/releases/, for breaking changes.
#
#   scripts/api-check.sh            fails, printing what changed, if the public API is not the baseline's,
#                                   or if it breaks the last release's and the version and CHANGELOG.md do not say so
#   scripts/api-check.sh --update   rewrites api/Rec.txt from the current API
#   scripts/api-check.sh --release  writes api/releases/VERSION.json (VERSION: RecCLI.version) when cutting
#                                   that release (docs/RELEASING.md)
#
# Why: a program that depends on rec uses the module Rec and nothing else, so adding, removing or
# changing a public declaration changes what every such program may rely on. That must be a visible
# decision: the change to api/Rec.txt shows in the commit that makes it, and this check (run by
# scripts/test.sh) fails until someone makes it with --update.
#
# How: swift-api-digester dumps the built module's declarations (-dump-sdk); the dump is normalised
# to one line per public declaration (its kind, its demangled signature, which says async, the type
# it throws and its generic signature, and what the signature leaves out: default arguments,
# accessors, attributes, conformances), sorted by name, so a reordering in the sources is no change
# and a diff reads as the API. Package and implicit declarations are left out. Not
# `swift package diagnose-api-breaking-changes`: it builds the baseline commit in a second checkout
# (minutes, not seconds), and it reports only breaking changes, where an addition is a decision too.
# Not `swift-api-digester -diagnose-sdk` alone, for the same reason: it says nothing of additions.
#
# Breaking changes (issue 41, SemVer): the same dump is compared with the newest release's,
# api/releases/X.Y.Z.json (what --release wrote for tag vX.Y.Z), by `swift-api-digester
# -diagnose-sdk`, which lists what a program built against that release could no longer compile
# with (declarations removed, renamed or retyped, conformances lost...); package declarations are
# left out of both first. None: it passes. Some: scripts/api-breaking.py asks that RecCLI.version
# says so (before 1.0 a new minor version, from 1.0 a new major) and that CHANGELOG.md's section
# for that version names each under "### Breaking", and else says what to write. Every tag vX.Y.Z
# the clone has must have its dump; a CI clone may have no tags, and then api/releases/ is the list.
# Both checks run, so one run reports every problem. About 2 s after a build.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/rec-module.sh
baseline=api/Rec.txt
releases=api/releases
version=$(sed -n 's/.*static let version = "\(.*\)".*/\1/p' Sources/RecCLI/RecCLI.swift)
# The newest X.Y.Z of api/releases/X.Y.Z.json, or nothing.
newest_release() {
  if [[ -d $releases ]]; then find "$releases" -maxdepth 1 -name '*.json' -printf '%f\n' | sed 's/\.json$//' | sort -V | tail -n 1; fi
}
swift build "${rec_build[@]}" --target Rec >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
swift-api-digester -dump-sdk -module Rec "${rec_module_flags[@]}" -avoid-location -avoid-tool-args -o "$work/Rec.json"
if [[ ${1:-} == --release ]]; then
  newest=$(newest_release)
  if [[ -n $newest && $(printf '%s\n' "$newest" "$version" | sort -V | tail -n 1) == "$newest" ]]; then
    echo "api-check: RecCLI.version is $version and $releases/ holds $newest: set RecCLI.version to the release you are cutting" >&2
    exit 1
  fi
  mkdir -p "$releases"
  cp "$work/Rec.json" "$releases/$version.json"
  echo "api-check: wrote $releases/$version.json, the public API of release $version; commit it, then tag that commit v$version"
  exit
fi
python3 - "$work/Rec.json" >"$work/Rec.txt" <<'EOF'
import json, subprocess, sys

# The dump's own words for what a signature does not say.
ATTRIBUTES = {"Final": "final", "DiscardableResult": "@discardableResult"}
KINDS = {"Constructor": "init", "EnumElement": "case"}
decls = []

def walk(node, owner):
    for child in node.get("children", []):
        if child["kind"] in ("Import", "TypeNominal", "TypeFunc", "TypeNameAlias"):
            continue
        if child.get("isInternal") or child.get("implicit") or "mangledName" not in child:
            continue
        decls.append(child)
        walk(child, child)

def tags(decl):
    out = [ATTRIBUTES[a] for a in decl.get("declAttributes", []) if a in ATTRIBUTES]
    if decl.get("funcSelfKind") == "Mutating":
        out.append("mutating")
    if decl["declKind"] in ("Func", "Constructor"):
        labels = decl["printedName"].split("(", 1)[1].rstrip(")").split(":")[:-1]
        params = decl.get("children", [])[1:]
        out += [f"{label or '_'}: = default" for label, p in zip(labels, params) if p.get("hasDefaultArg")]
        out += [f"{label or '_'}: {p['paramValueOwnership'].lower()}" for label, p in zip(labels, params)
                if p.get("paramValueOwnership")]
    if decl["declKind"] == "Var" and "accessors" in decl:
        out.append("{ " + " ".join(a["name"].lower() for a in decl["accessors"]) + " }")
    conformances = sorted(c["printedName"] for c in decl.get("conformances", []))
    if conformances:
        out.append(": " + ", ".join(conformances))
    return out

walk(json.load(open(sys.argv[1]))["ABIRoot"], None)
demangled = subprocess.run(["swift-demangle"], input="\n".join(d["mangledName"] for d in decls),
                           capture_output=True, text=True, check=True).stdout.splitlines()
def line(decl, signature):
    kind = KINDS.get(decl["declKind"], decl["declKind"].lower())
    if signature.startswith("static "):
        kind, signature = "static " + kind, signature.removeprefix("static ")
    if decl["declKind"] == "TypeAlias":
        signature += " = " + decl["children"][0]["printedName"]
    return signature, f"{kind} {signature}" + "".join(f"  {t}" for t in tags(decl))

# By name, so each type's members follow it.
lines = [text for _, text in sorted(line(d, signature) for d, signature in zip(decls, demangled))]
print("\n".join(lines))
EOF
if [[ ${1:-} == --update ]]; then
  cp "$work/Rec.txt" "$baseline"
  echo "api-check: wrote $baseline ($(wc -l <"$baseline") public declarations)"
  exit
fi
status=0
if diff -u --label "$baseline (baseline)" --label "module Rec (now)" "$baseline" "$work/Rec.txt"; then
  echo "api-check: the public API of module Rec is $baseline's ($(wc -l <"$baseline") declarations)"
else
  echo "api-check: the public API of module Rec is not $baseline's (above: - baseline, + now)." >&2
  echo "api-check: if the change is meant, run scripts/api-check.sh --update and commit $baseline with it." >&2
  status=1
fi

# Against the last release. Every release tag has its dump; the newest dump is the last release.
if git rev-parse --git-dir >/dev/null 2>&1; then
  for tag in $(git tag -l 'v*' | grep -E '^v[0-9]+\.[0-9]+\.[0-9]+$' || true); do
    if [[ ! -e $releases/${tag#v}.json ]]; then
      echo "api-check: tag $tag has no $releases/${tag#v}.json, the API it released (docs/RELEASING.md says how to dump it)" >&2
      status=1
    fi
  done
fi
released=$(newest_release)
if [[ -z $released ]]; then
  echo "api-check: no release in $releases/, so no breaking change to look for (docs/RELEASING.md)" >&2
  exit "$status"
fi
# Package declarations are in a dump (marked isInternal), but no program outside rec can use them.
public_only() {
  python3 - "$1" >"$2" <<'EOF'
import json, sys
def public(node):
    node["children"] = [c for c in node.get("children", []) if not c.get("isInternal")]
    for child in node["children"]:
        public(child)
dump = json.load(open(sys.argv[1]))
public(dump["ABIRoot"])
json.dump(dump, sys.stdout, indent=1)
EOF
}
public_only "$releases/$released.json" "$work/released.json"
public_only "$work/Rec.json" "$work/current.json"
swift-api-digester -diagnose-sdk -input-paths "$work/released.json" -input-paths "$work/current.json" -o "$work/breaking.txt"
python3 scripts/api-breaking.py "$work/breaking.txt" "$released" "$version" CHANGELOG.md || status=1
exit "$status"
