#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine and runs rec's whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
[[ -d /opt/swift/usr/bin ]] && export PATH="/opt/swift/usr/bin:$PATH"
scripts/setup.sh
swift build --build-tests
swift test --skip-build "$@"
