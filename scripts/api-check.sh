#!/usr/bin/env bash
# Checks the public API of the Swift library (module Rec) against the baseline in api/Rec.txt.
#
#   scripts/api-check.sh            fails, printing what changed, if the public API is not the baseline's
#   scripts/api-check.sh --update   rewrites api/Rec.txt from the current API
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
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/rec-module.sh
baseline=api/Rec.txt
swift build "${rec_build[@]}" --target Rec >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
swift-api-digester -dump-sdk -module Rec "${rec_module_flags[@]}" -avoid-location -avoid-tool-args -o "$work/Rec.json"
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
if ! diff -u --label "$baseline (baseline)" --label "module Rec (now)" "$baseline" "$work/Rec.txt"; then
  echo "api-check: the public API of module Rec is not $baseline's (above: - baseline, + now)." >&2
  echo "api-check: if the change is meant, run scripts/api-check.sh --update and commit $baseline with it." >&2
  exit 1
fi
echo "api-check: the public API of module Rec is $baseline's ($(wc -l <"$baseline") declarations)"
