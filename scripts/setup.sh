#!/usr/bin/env bash
# One command for a fresh Debian 12 machine with Swift 6.3: installs what is missing, builds
# Kith and runs its main job, `kith demo`. Extra arguments go to `kith demo` (e.g. --home DIR).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
echo "Building kith (the first build fetches and compiles dependencies: a few minutes)..."
swift build --product kith 2>&1 | grep -E "error|warning: unre|Compiling|Build" | tail -3
exec .build/debug/kith demo "$@"
