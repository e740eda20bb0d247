#!/usr/bin/env bash
# Builds the package with its tests (log in .build/swift-build.log), for scripts/test.sh and scripts/stress-tests.sh;
# on failure prints the first errors and warnings and exits 1.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .build
echo "== swift build =="
if ! swift build --build-tests > .build/swift-build.log 2>&1; then
  grep -E "error|warning" .build/swift-build.log | head -40
  echo "swift build failed (full log: .build/swift-build.log)" >&2
  exit 1
fi
