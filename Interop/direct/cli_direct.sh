#!/usr/bin/env bash
# End-to-end with the CLI: two people exchange cards and one-time prekeys in person, exchange
# direct messages through their feeds (delivered newest first), a third identity cannot read them,
# a handover meant for someone else is refused, and after `kith rotate-keys` the conversation and
# the contacts posts continue under the same feed id.
set -euo pipefail
source "$(cd "$(dirname "$0")/.." && pwd)/cli_common.sh"

for who in a b c; do "$kith" init --home "$work/$who" > /dev/null; done
"$kith" contact add --home "$work/b" --name Alice "$("$kith" card --home "$work/a" --name Alice)" > /dev/null
"$kith" contact add --home "$work/a" --name Bob "$("$kith" card --home "$work/b" --name Bob)" > /dev/null
"$kith" contact add --home "$work/c" --name Alice "$("$kith" card --home "$work/a" --name Alice)" > /dev/null

# In person: Bob hands Alice 10 one-time prekeys; Carol cannot import a handover meant for Alice.
"$kith" prekeys export --home "$work/b" Alice --count 10 > "$work/handover.txt"
"$kith" prekeys import --home "$work/a" Bob "$work/handover.txt" > /dev/null
set +e; "$kith" prekeys import --home "$work/c" Alice "$work/handover.txt" > /dev/null 2>&1; code=$?; set -e
[ "$code" -eq 2 ] || fail "foreign handover: expected exit 2, got $code"
pools=$("$kith" prekeys --home "$work/a" --json)
[[ "$pools" == *'"held":10'* ]] || fail "Alice should hold 10 of Bob's prekeys: $pools"

"$kith" dm --home "$work/a" Bob "first direct message" > /dev/null
"$kith" dm --home "$work/a" Bob "second direct message" > /dev/null
"$kith" feed export --home "$work/a" > "$work/a.jsonl"
tac "$work/a.jsonl" > "$work/a-reversed.jsonl"
"$kith" feed import --home "$work/b" "$work/a-reversed.jsonl" > /dev/null
conversation=$("$kith" log --home "$work/b" --with Alice)
[[ "$conversation" == *"first direct message"*"second direct message"* ]] || fail "Bob cannot read the conversation: $conversation"
"$kith" feed import --home "$work/c" "$work/a.jsonl" > /dev/null
carol=$("$kith" log --home "$work/c")
[[ "$carol" != *"direct message"* ]] || fail "Carol read a direct message: $carol"

"$kith" dm --home "$work/b" Alice "reply from Bob" > /dev/null
"$kith" feed export --home "$work/b" > "$work/b.jsonl"
"$kith" feed import --home "$work/a" "$work/b.jsonl" > /dev/null
[[ "$("$kith" log --home "$work/a" --with Bob)" == *"reply from Bob"* ]] || fail "Alice cannot read Bob's reply"

# Alice rotates her keys: same feed id, new identity key; Bob keeps reading.
feed_before=$("$kith" id --home "$work/a" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["feed_id"])')
key_before=$("$kith" id --home "$work/a" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["identity_key"])')
"$kith" rotate-keys --home "$work/a" --reason device_migration > /dev/null
feed_after=$("$kith" id --home "$work/a" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["feed_id"])')
key_after=$("$kith" id --home "$work/a" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["identity_key"])')
[ "$feed_before" = "$feed_after" ] || fail "feed id changed on rotation"
[ "$key_before" != "$key_after" ] || fail "identity key did not change on rotation"
"$kith" post --home "$work/a" --audience contacts "posted with my new keys" > /dev/null
"$kith" dm --home "$work/a" Bob "direct after rotating" > /dev/null
"$kith" feed export --home "$work/a" > "$work/a2.jsonl"
"$kith" feed import --home "$work/b" "$work/a2.jsonl" > /dev/null
[[ "$("$kith" log --home "$work/b")" == *"posted with my new keys"* ]] || fail "Bob cannot read the post after rotation"
[[ "$("$kith" log --home "$work/b" --with Alice)" == *"direct after rotating"* ]] || fail "Bob cannot read the direct message after rotation"
rotations=$("$kith" contacts --home "$work/b" --json)
[[ "$rotations" == *'"verified":true'* ]] || fail "Bob did not verify the rotation: $rotations"
echo "direct messages and key rotation through the CLI: ok"
