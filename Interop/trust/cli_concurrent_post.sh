#!/usr/bin/env bash
# Two `kith post` loops as two real processes on one home (issue 11 item 5): the exported feed
# verifies, has every sequence once (no fork, no gap) and the right count.
set -euo pipefail
source "$(cd "$(dirname "$0")/.." && pwd)/cli_common.sh"
per=${KITH_CONCURRENT_POSTS:-25}
"$kith" --home "$work/a" init --name Alice > /dev/null
base=$("$kith" --home "$work/a" feed export | wc -l)  # init may publish a profile
writer() { for i in $(seq 1 "$per"); do "$kith" --home "$work/a" post --audience "$2" "writer $1 post $i" > /dev/null; done; }
writer 1 contacts & one=$!
writer 2 self & two=$!
wait "$one" || fail "writer 1 failed"
wait "$two" || fail "writer 2 failed"
key=$("$kith" --home "$work/a" id --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["identity_key"])')
"$kith" --home "$work/a" feed export > "$work/feed.jsonl"
"$kith" feed verify --key "$key" "$work/feed.jsonl" > /dev/null || fail "the exported feed does not verify"
count=$(wc -l < "$work/feed.jsonl")
[ "$count" -eq $((base + 2 * per)) ] || fail "expected $((base + 2 * per)) entries, found $count"
python3 - "$work/feed.jsonl" "$count" <<'PY' || fail "sequences are not 0..n-1 in order"
import json, sys
seqs = [json.loads(line)["sequence"] for line in open(sys.argv[1])]
sys.exit(0 if seqs == list(range(int(sys.argv[2]))) else 1)
PY
echo "two concurrent writers: $count entries, sequences 0..$((count - 1)), feed verifies"
