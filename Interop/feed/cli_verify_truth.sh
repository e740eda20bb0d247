#!/usr/bin/env bash
# `kith feed verify` and `kith feed import` tell the truth (issue 11, items 8-11): verify fails
# unless at least one entry is authenticated with the key and rejects lines of other feeds;
# import --key imports that feed only; blank lines are skipped by both; a flood of bad lines
# prints at most 100 rejections and a summary; a huge file is read in flat memory.
set -euo pipefail
source "$(cd "$(dirname "$0")/.." && pwd)/cli_common.sh"
expect_exit() {  # expect_exit CODE command...
  local want=$1; shift
  set +e; "$@" > "$work/out" 2> "$work/err"; local got=$?; set -e
  [ "$got" -eq "$want" ] || { cat "$work/out" "$work/err" >&2; fail "expected exit $want, got $got: $*"; }
}
field() { "$kith" --home "$work/$1" id --json | python3 -c "import json,sys; print(json.load(sys.stdin)['$2'])"; }

for who in a b c; do "$kith" --home "$work/$who" init --name "$who" > /dev/null; done
for i in 1 2 3; do "$kith" --home "$work/a" post --audience contacts "post $i" > /dev/null; done
"$kith" --home "$work/c" post --audience contacts "c's post" > /dev/null
akey=$(field a identity_key); ckey=$(field c identity_key); cfeed=$(field c feed_id)
"$kith" --home "$work/a" feed export > "$work/a.jsonl"
"$kith" --home "$work/c" feed export > "$work/c.jsonl"
count=$(wc -l < "$work/a.jsonl")

# 8. Nothing authenticated is not valid: an empty file, a lone later-version line.
: > "$work/empty.jsonl"
expect_exit 1 "$kith" feed verify --key "$akey" "$work/empty.jsonl"
grep -q "no entry is signed by this key" "$work/out" || fail "empty file: no clear verdict"
echo '{"version":2}' > "$work/v2.jsonl"
expect_exit 1 "$kith" feed verify --key "$akey" "$work/v2.jsonl"
# ... and a valid export followed by another feed's line (later version, or a real entry) is rejected.
{ cat "$work/a.jsonl"; echo "{\"feed_id\":\"$cfeed\",\"sequence\":9,\"version\":2}"; } > "$work/mixed.jsonl"
expect_exit 1 "$kith" feed verify --key "$akey" "$work/mixed.jsonl"
grep -q "line $((count + 1)): sequence 9: feed_id_mismatch" "$work/out" || fail "another feed's later-version line not rejected"
cat "$work/a.jsonl" "$work/c.jsonl" > "$work/two.jsonl"
expect_exit 1 "$kith" feed verify --key "$akey" "$work/two.jsonl"
grep -q "feed_id_mismatch" "$work/out" || fail "another feed's entry not rejected"
expect_exit 0 "$kith" feed verify --key "$akey" "$work/a.jsonl"

# 9. import --key K imports K's feed only.
expect_exit 1 "$kith" --home "$work/b" feed import --key "$ckey" "$work/a.jsonl"
grep -q "feed_id_mismatch" "$work/err" || fail "import --key C accepted A's lines"
"$kith" --home "$work/b" log --json | grep -q "post 1" && fail "A's entries were stored by an import restricted to C"
expect_exit 1 "$kith" --home "$work/b" feed import --key "$akey" --json "$work/two.jsonl"
python3 - "$work/out" "$count" <<'PY' || fail "mixed import counts wrong"
import json, sys
report = json.load(open(sys.argv[1]))
assert report["stored"] == int(sys.argv[2]), report
assert report["rejected"] >= 1 and set(report["rejections_by_code"]) == {"feed_id_mismatch"}, report
PY

# 10. Blank lines: one rule for verify and import (skipped).
{ echo; cat "$work/a.jsonl"; echo; echo; } > "$work/blank.jsonl"
expect_exit 0 "$kith" feed verify --key "$akey" "$work/blank.jsonl"
expect_exit 0 "$kith" --home "$work/b" feed import --key "$akey" "$work/blank.jsonl"
# ... and a flood of bad lines prints 100 of them and a summary.
python3 -c 'import sys; sys.stdout.write("{\n" * 5000)' > "$work/junk.jsonl"
expect_exit 1 "$kith" feed verify --key "$akey" "$work/junk.jsonl"
[ "$(grep -c '^line ' "$work/out")" -eq 100 ] || fail "verify did not stop at 100 rejection lines"
grep -q "4900 more rejected lines not shown" "$work/out" || fail "no summary of the omitted rejections"
expect_exit 1 "$kith" --home "$work/b" feed import --key "$akey" "$work/junk.jsonl"
[ "$(grep -c '^line ' "$work/err")" -eq 100 ] || fail "import did not stop at 100 rejection lines"

# 7. A rotated feed: a stranger learns it cannot check past the rotation; a contact (or the
#    author) verifies it whole with --as-contact, and import agrees.
"$kith" --home "$work/a" card > "$work/a.card"; "$kith" --home "$work/b" card > "$work/b.card"
"$kith" --home "$work/a" contact add "$(cat "$work/b.card")" --name B > /dev/null
"$kith" --home "$work/b" contact add "$(cat "$work/a.card")" --name A > /dev/null
"$kith" --home "$work/a" rotate-keys > /dev/null
"$kith" --home "$work/a" post --audience contacts "after the rotation" > /dev/null
"$kith" --home "$work/a" feed export > "$work/rotated.jsonl"
expect_exit 1 "$kith" feed verify --key "$akey" "$work/rotated.jsonl"
grep -q "rotated_key_unknown" "$work/out" || fail "a stranger's verdict on a rotated feed is not rotated_key_unknown"
expect_exit 0 "$kith" --home "$work/b" feed verify --as-contact --key "$akey" "$work/rotated.jsonl"
expect_exit 0 "$kith" --home "$work/a" feed verify --as-contact --key "$akey" "$work/rotated.jsonl"
expect_exit 0 "$kith" --home "$work/b" feed import "$work/rotated.jsonl"

# 11. A 50 MB file of newlines is read in flat memory (well under the 2.25 GB seen before).
python3 -c 'import sys; sys.stdout.write("\n" * (50 << 20))' > "$work/newlines.jsonl"
if command -v /usr/bin/time > /dev/null; then
  set +e; /usr/bin/time -f "%M" -o "$work/rss" "$kith" feed verify --key "$akey" "$work/newlines.jsonl" > /dev/null 2>&1; set -e
  rss=$(tail -n 1 "$work/rss")
  [ "$rss" -lt 131072 ] || fail "verify of 50 MB of newlines peaked at $rss KB"
fi
echo "verify and import tell the truth: exit codes, feed restriction, blank lines, bounded output and memory"
