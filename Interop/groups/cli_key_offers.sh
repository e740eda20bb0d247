#!/usr/bin/env bash
# Automatic KeyPackage offers end to end (docs/GROUPS.md, "Automatic offers"): Alice and Bob are contacts, one real
# TCP sync session over loopback, then Alice adds Bob to a group with no `kith group keys share`; the status
# (`kith group keys --json`) and the off switch (`kith group keys auto off`: nothing offered, waiting offers withdrawn).
set -euo pipefail
source "$(dirname "$0")/../cli_common.sh"

alice_and_bob

# field HOME KEY: the status JSON's value of KEY for the one contact (or of the top-level KEY with no contact).
held() { "$kith" group keys --home "$work/$1" --json | "$PYTHON" -c 'import json,sys; print(json.load(sys.stdin)["contacts"][0]["held"])'; }
offered() { "$kith" group keys --home "$work/$1" --json | "$PYTHON" -c 'import json,sys; print(json.load(sys.stdin)["contacts"][0]["automatic_offer_outstanding"])'; }

[ "$("$kith" group keys auto --home "$work/b")" = "Automatic KeyPackage offers: on" ] || fail "offers are not on by default"
[ "$(held a)" = "0" ] || fail "Alice holds a KeyPackage of Bob before any sync"
sync_ab
[ "$(held a)" = "1" ] || fail "Alice holds no KeyPackage of Bob after one sync"
[ "$(offered b)" = "True" ] || fail "Bob's status shows no automatic offer to Alice"

"$kith" group create --home "$work/a" trip > /dev/null
added=$("$kith" group add --home "$work/a" trip Bob --json)
[[ "$added" == *'"epoch":1'* ]] || fail "not at epoch 1 after the add: $added"
sync_ab
shown=$("$kith" groups --home "$work/b" --json)
[[ "$shown" == *'"status":"active"'* ]] || fail "Bob did not join after the second sync: $shown"

# Off: the automatic offer waiting at Alice's side is withdrawn; a session offers nothing.
auto=$("$kith" group keys auto --home "$work/a" off --json)
[ "$auto" = '{"automatic_offers":false,"withdrawn":1}' ] || fail "turning offers off printed: $auto"
[ "$(offered a)" = "False" ] || fail "Alice's offer to Bob was not withdrawn"
[ "$(held b)" = "1" ] || fail "Bob should still hold Alice's (withdrawn) KeyPackage"
"$kith" group keys auto --home "$work/b" off > /dev/null
"$kith" group create --home "$work/a" later > /dev/null
sync_ab
set +e; out=$("$kith" group add --home "$work/a" later Bob 2>&1); code=$?; set -e
[ "$code" -eq 2 ] || fail "with Bob's offers off and his offer used, the add should fail (exit 2), got $code ($out)"
echo "key offers: addable after one TCP sync without keys share, status per contact, off switch withdraws and stops offers"
