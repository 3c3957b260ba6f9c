#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine and runs rec's whole test suite and the example programs
# (scripts/examples.sh), then installs and removes rec (scripts/ci-install.sh) as a user would.
#
#   scripts/test.sh              the default run (the test phase took 8.5–10.5 minutes on 2 cores, README)
#   scripts/test.sh --soak       the same, plus the real-time soaks (a ten-minute session; REC_SOAK=1)
#   scripts/test.sh ARGS...      only `swift test "${rec_build[@]}" --skip-build ARGS...` (e.g. --filter RingState)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/build-config.sh
if [[ ${1:-} == --soak ]]; then
  export REC_SOAK=1
  shift
fi
scripts/setup.sh
scripts/fetch-sample-media.sh
swift build "${rec_build[@]}" --build-tests
if (($#)); then
  swift test "${rec_build[@]}" --skip-build "$@"
  exit
fi
# The Swift library's documentation and public API (docs/LIBRARY.md, "Docs and API baseline"; a
# break of the last release's API, docs/RELEASING.md): a few seconds, run first so an undocumented
# declaration or an unrecorded API change fails fast.
scripts/docs.sh
scripts/api-check.sh
started=$SECONDS
# The kill tests measure how much a SIGKILL loses against the wall clock; they run on their own,
# after the rest, so the other suites' encoders and players do not load the machine under them.
# The Swift API's tests are async: in a process of their own, since Swift Testing ran the
# blocking tests on the same two pool threads an async test needs to resume on (a session the
# test started would record on while it waits for one). Suites marked `.blocking` now run on
# threads of the tests' own (Tests/Support/Pool), but the API's tests stay apart as they were.
# Every run goes to the end, so a failure in one does not hide another's result.
# The camera corpus (issue 39) runs its stand-in cameras (19 by default) and sessions at once: on its own,
# so that its load does not slow every other suite (the whole phase took 15 min with it inside).
status=0
swift test "${rec_build[@]}" --skip-build --skip KillTests --skip RecAPITests --skip CameraCorpusTests || status=$?
swift test "${rec_build[@]}" --skip-build --filter CameraCorpusTests || status=$?
swift test "${rec_build[@]}" --skip-build --filter RecAPITests || status=$?
swift test "${rec_build[@]}" --skip-build --filter KillTests || status=$?
echo "test: the test phase took $(((SECONDS - started) / 60)) min $(((SECONDS - started) % 60)) s" >&2
((status == 0)) || exit "$status"
# The example programs (Examples/), built against the library as a package of a user's would be,
# each run on the stand-in camera with its output checked.
scripts/examples.sh
# The whole suite also checks rec as users install it: install.sh, the .deb, man, completions.
scripts/ci-install.sh
