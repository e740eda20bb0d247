#!/usr/bin/env bash
# Runs libFuzzer on one fuzz target (or every target) for a number of seconds:
#   scripts/fuzz.sh TARGET SECONDS        e.g. scripts/fuzz.sh mls-message 600
#   scripts/fuzz.sh all SECONDS           each target in turn, SECONDS each
#   scripts/fuzz.sh list                  the targets
# Builds `kith-fuzz` with -sanitize=fuzzer,address in .build-fuzz (the first build takes 10-20 minutes
# on 2 cores; later ones are incremental), seeds a working corpus from Fuzz/Corpus/TARGET, and prints one
# line per target: `fuzz TARGET execs N exec_per_s N cov N ft N corpus N crashes N`. A crash or hang
# leaves its input in .build-fuzz/artifacts/TARGET/ and the script exits 1: add the input to
# Fuzz/Regressions/TARGET/ (the test suite replays it) once the bug is fixed.
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=.build-fuzz
if [ "${1:-}" = "" ] || { [ "$1" != "list" ] && [ "${2:-}" = "" ]; }; then
  sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
echo "building kith-fuzz with libFuzzer and AddressSanitizer (log: $scratch/build.log)" >&2
mkdir -p "$scratch"
if ! swift build --scratch-path "$scratch" --product kith-fuzz \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -DKITH_LIBFUZZER > "$scratch/build.log" 2>&1; then
  grep -E "error" "$scratch/build.log" | head -20 >&2
  echo "the fuzz build failed (full log: $scratch/build.log)" >&2
  exit 1
fi
binary="$(swift build --scratch-path "$scratch" --show-bin-path)/kith-fuzz"
if [ "$1" = "list" ]; then
  # The fuzzing build has no list mode; the target names live in the corpus folders.
  ls Fuzz/Corpus
  exit 0
fi
seconds="$2"
if [ "$1" = "all" ]; then targets=$(ls Fuzz/Corpus); else targets="$1"; fi
export ASAN_OPTIONS="detect_leaks=0:allocator_may_return_null=1:${ASAN_OPTIONS:-}"
status=0
for target in $targets; do
  corpus="$scratch/corpus/$target"
  artifacts="$scratch/artifacts/$target"
  mkdir -p "$corpus" "$artifacts"
  cp -n Fuzz/Corpus/"$target"/* "$corpus"/ 2>/dev/null || true
  log="$scratch/$target.log"
  set +e
  "$binary" "$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
    -artifact_prefix="$artifacts/" "$corpus" > "$log" 2>&1
  code=$?
  set -e
  execs=$(grep -E "^stat::number_of_executed_units" "$log" | awk '{print $2}' | tail -1)
  rate=$(grep -E "^stat::average_exec_per_sec" "$log" | awk '{print $2}' | tail -1)
  cov=$(grep -oE "cov: [0-9]+" "$log" | tail -1 | awk '{print $2}')
  ft=$(grep -oE "ft: [0-9]+" "$log" | tail -1 | awk '{print $2}')
  size=$(ls "$corpus" | wc -l)
  crashes=$(ls "$artifacts" | wc -l)
  echo "fuzz $target execs ${execs:-0} exec_per_s ${rate:-0} cov ${cov:-0} ft ${ft:-0} corpus $size crashes $crashes"
  if [ "$code" -ne 0 ] || [ "$crashes" -ne 0 ]; then
    echo "  $target: libFuzzer exited $code; inputs in $artifacts, log in $log" >&2
    grep -E "ERROR|Fatal error|fuzz property broken|deadly signal|timeout" "$log" | head -5 >&2 || true
    status=1
  fi
done
exit $status
