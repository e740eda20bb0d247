#!/usr/bin/env bash
# The whole `swift test` suite three times in a row with CPU hogs beside it (issue 25, item 12): a suite that passes
# only on a quiet machine fails here. Builds once, then runs `swift test --skip-build` KITH_STRESS_RUNS times (default
# 3) while KITH_STRESS_HOGS busy loops (default: one per core, at least 2) compete for the cores; the hogs are stopped
# on exit, whatever happens. Exits non-zero when any run failed, naming the tests that failed in each run.
# Logs: .build/stress-test-N.log.
set -euo pipefail
cd "$(dirname "$0")/.."

runs="${KITH_STRESS_RUNS:-3}"
cores="$(nproc 2>/dev/null || echo 2)"
hogs="${KITH_STRESS_HOGS:-$(( cores < 2 ? 2 : cores ))}"

scripts/build-tests.sh

hog_pids=()
stop_hogs() {
  # Only the processes this script started, by their ids.
  for pid in "${hog_pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${hog_pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  hog_pids=()
}
trap stop_hogs EXIT INT TERM

for _ in $(seq 1 "$hogs"); do
  yes > /dev/null &
  hog_pids+=("$!")
done
echo "== $runs runs of swift test beside $hogs CPU hogs =="

failed_runs=0
for run in $(seq 1 "$runs"); do
  log=".build/stress-test-$run.log"
  set +e
  # The same watchdog as scripts/test.sh: a run that makes no progress for 20 minutes is stopped.
  timeout --signal=KILL 1200 swift test --skip-build > "$log" 2>&1
  status=$?
  set -e
  summary="$(grep -E "Test run with|Executed [0-9]+ test" "$log" | tail -2 | tr '\n' ' ')"
  if [ "$status" -eq 0 ]; then
    echo "run $run: passed  $summary"
    continue
  fi
  failed_runs=$(( failed_runs + 1 ))
  echo "run $run: FAILED (exit $status)  $summary (full log: $log)"
  # Swift Testing marks failed tests with ✘, XCTest says "Test Case '…' failed".
  grep -E "✘ Test .* failed|Test Case '.*' failed" "$log" | sed 's/^/    /' | sort -u | head -60 || true
  if [ "$status" -eq 137 ]; then
    echo "    stopped by the 20-minute watchdog; tests started and not finished:"
    python3 - "$log" <<'PY' || true
import re, sys
log = open(sys.argv[1], errors="replace").read()
started = re.findall(r"◇ Test (.+?) started\.", log)
finished = set(re.findall(r"[✔✘] Test (.+?) (?:passed|failed|recorded|with)", log))
print("\n".join("      " + name for name in started if name not in finished))
PY
  fi
done

stop_hogs
if [ "$failed_runs" -ne 0 ]; then
  echo "$failed_runs of $runs runs failed under load" >&2
  exit 1
fi
echo "all $runs runs passed under load"
