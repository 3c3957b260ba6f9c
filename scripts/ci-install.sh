#!/usr/bin/env bash
# CI: rec as users get it. Installs with scripts/install.sh into a temporary prefix and runs it
# from there; builds the .deb (from the build the tests used, scripts/build-config.sh, so no second build), installs
# it with apt-get, runs rec --version, man rec and bash completions, runs the user unit under a
# real systemd user manager when there is one, removes the package, and checks that both
# removals leave exactly the files that were there before. Needs root for the .deb part.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/build-config.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
step() { echo "ci-install: $* ($SECONDS s)" >&2; }
fail() { echo "ci-install: FAILED: $*" >&2; exit 1; }

# Drives bash's completion function as readline would: COMP_WORDS/COMP_CWORD in, COMPREPLY out.
complete_words() {  # complete_words SCRIPT WORD... ; prints the candidates, one a line
  local script=$1; shift
  bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _rec; printf "%s\n" "${COMPREPLY[@]}"' _ "$script" "$@"
}
check_completion() {  # check_completion SCRIPT EXPECTED WORD...
  local script=$1 expected=$2; shift 2
  complete_words "$script" "$@" | grep -qx -- "$expected" || fail "completing '$*' did not offer '$expected' (got: $(complete_words "$script" "$@" | tr '\n' ' '))"
}

step "install.sh into a temporary prefix"
prefix=$work/prefix
mkdir -p "$prefix"
(cd "$prefix" && find . | sort) > "$work/prefix-before"
scripts/install.sh --prefix "$prefix" --bin-path "$rec_bin" 2>"$work/install.log" || { cat "$work/install.log" >&2; fail "install.sh"; }
"$prefix/bin/rec" --version | grep -q '^rec ' || fail "the installed rec --version"
"$prefix/bin/rec" record --source test:160x120@30 --frames 15 --pace off -o "$work/installed.mkv" >/dev/null || fail "the installed rec record"
"$prefix/bin/rec" trim "$work/installed.mkv" --from 0.1s --to 0.3s -o "$work/installed-cut.mkv" >/dev/null || fail "the installed rec trim (rec-trim)"
PATH="$prefix/bin:$PATH" check_completion "$prefix/share/bash-completion/completions/rec" save rec sa
PATH="$prefix/bin:$PATH" check_completion "$prefix/share/bash-completion/completions/rec" --preset rec record --pre
PATH="$prefix/bin:$PATH" check_completion "$prefix/share/bash-completion/completions/rec" default rec record --preset de
man -l "$prefix/share/man/man1/rec-save.1.gz" 2>/dev/null | grep -q -- '--last' || fail "the installed rec-save(1)"
scripts/uninstall.sh --prefix "$prefix" 2>/dev/null
(cd "$prefix" && find . | sort) > "$work/prefix-after"
diff "$work/prefix-before" "$work/prefix-after" >&2 || fail "uninstall.sh left files behind (above)"

[[ $(id -u) -eq 0 ]] || { step "not root: skipping the .deb checks"; exit 0; }
step "package-deb.sh"
deb=$(scripts/package-deb.sh --bin-path "$rec_bin" --output "$work/deb" 2>"$work/deb.log" | tail -1) || { cat "$work/deb.log" >&2; fail "package-deb.sh"; }
if grep -E '^[EW]: ' "$work/deb.log" >&2; then fail "lintian found problems (above)"; fi
snapshot() { { find /usr /etc /var/lib/rec -xdev 2>/dev/null || true; } | grep -v -E '^/usr/lib/python3|^/etc/ld.so.cache$' | sort; }
snapshot > "$work/system-before"
step "apt-get install ./$(basename "$deb")"
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$deb" >"$work/apt.log" 2>&1 \
  || { dpkg -i "$deb" >>"$work/apt.log" 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -f -y -qq >>"$work/apt.log" 2>&1; } \
  || { cat "$work/apt.log" >&2; fail "installing the .deb"; }
[[ $(command -v rec) == /usr/bin/rec ]] || fail "rec is not /usr/bin/rec after installing the .deb"
rec --version | grep -q '^rec ' || fail "rec --version from the .deb"
rec record --source test:160x120@30 --frames 15 --pace off -o "$work/deb.mkv" >/dev/null || fail "rec record from the .deb"
rec trim "$work/deb.mkv" --from 0.1s --to 0.3s -o "$work/deb-cut.mkv" >/dev/null || fail "rec trim from the .deb (rec-trim)"
MANPAGER=cat man rec 2>/dev/null | grep -q 'rec - Record video frames' || fail "man rec"
check_completion /usr/share/bash-completion/completions/rec save rec sa
check_completion /usr/share/bash-completion/completions/rec --preset rec record --pre

if systemctl --user show-environment >/dev/null 2>&1; then
  step "systemd user manager present: running rec@citest.service"
  mkdir -p "$work/config/rec"
  echo '{"sessions": {"citest": {"source": "test:160x120@30", "buffer": "10s"}}}' > "$work/config/rec/config.json"
  systemctl --user set-environment XDG_CONFIG_HOME="$work/config"
  systemctl --user daemon-reload
  systemctl --user start rec@citest.service || { journalctl --user -u rec@citest -n 30 >&2; fail "rec@citest did not start"; }
  systemctl --user is-active -q rec@citest.service || fail "rec@citest is not active after start (Type=notify)"
  rec status --session citest >/dev/null || fail "rec status --session citest under systemd"
  systemctl --user stop rec@citest.service
  systemctl --user unset-environment XDG_CONFIG_HOME
  [[ $(systemctl --user show -p Result --value rec@citest.service) == success ]] || fail "rec@citest did not stop cleanly"
else
  step "no systemd user manager here: ServiceNotifyTests ran the unit's command line under a stand-in NOTIFY_SOCKET"
fi

step "apt-get purge rec"
DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq rec >"$work/apt.log" 2>&1 || { cat "$work/apt.log" >&2; fail "removing the .deb"; }
snapshot > "$work/system-after"
diff "$work/system-before" "$work/system-after" >&2 || fail "removing the .deb left files behind or took some (above)"
step "done"
