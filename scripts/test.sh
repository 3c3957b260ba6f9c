#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine and runs rec's whole test suite, then installs and removes rec
# (scripts/ci-install.sh) as a user would.
set -euo pipefail
cd "$(dirname "$0")/.."
[[ -d /opt/swift/usr/bin ]] && export PATH="/opt/swift/usr/bin:$PATH"
scripts/setup.sh
scripts/fetch-sample-media.sh
swift build --build-tests
if (($#)); then
  swift test --skip-build "$@"
else
  # The kill tests measure how much a SIGKILL loses against the wall clock; they run on their own,
  # after the rest, so the other suites' encoders and players do not load the machine under them.
  swift test --skip-build --skip KillTests
  swift test --skip-build --filter KillTests
fi
# The whole suite also checks rec as users install it: install.sh, the .deb, man, completions.
(($#)) || scripts/ci-install.sh
