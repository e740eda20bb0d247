#!/usr/bin/env bash
# The whole test suite: installs what is missing, runs `swift test` (every module, including the
# official vectors vendored in Tests/Vectors), then the interop and CLI checks in Interop/.
# Needs nothing beside the clone.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh

mkdir -p .build
echo "== swift build =="
if ! swift build --build-tests > .build/swift-build.log 2>&1; then
  grep -E "error|warning" .build/swift-build.log | head -40
  echo "swift build failed (full log: .build/swift-build.log)" >&2
  exit 1
fi
echo "== swift test =="
set +e
swift test --skip-build > .build/swift-test.log 2>&1
status=$?
set -e
grep -E "✘|Test run with|Executed [0-9]+ test|skipped" .build/swift-test.log | tail -40 || true
if [ "$status" -ne 0 ]; then
  echo "swift test failed (full log: .build/swift-test.log)" >&2
  exit 1
fi

echo "== documentation (DocC) =="
# The embedder's documentation must build without warnings (Sources/Kith/Kith.docc).
if ! swift package generate-documentation --target Kith --warnings-as-errors --output-path .build/Kith.doccarchive > .build/docs.log 2>&1; then
  tail -20 .build/docs.log
  echo "documentation build failed (full log: .build/docs.log)" >&2
  exit 1
fi
echo "documentation built without warnings: .build/Kith.doccarchive"

echo "== interop and CLI checks =="
Interop/run.sh
