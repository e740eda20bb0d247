#!/usr/bin/env bash
# Recovery through contacts end to end through the `kith` CLI (docs/CONTINUITY.md): Alice makes Bob and Carol her
# guardians (2 of 2), the shares reach them over their direct channels, a new device asks, each guardian releases
# only after the safety code matches, one release is not enough, both rebuild Alice's identity into a new home, and
# the request is single use. Loopback only (no network at all).
set -euo pipefail
source "$(cd "$(dirname "$0")/.." && pwd)/cli_common.sh"

alice_with_two_contacts
alice=$("$kith" id --home "$work/a" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["feed_id"])')

"$kith" recovery setup --home "$work/a" --threshold 2 Bob Carol > /dev/null || fail "setup failed"
"$kith" recovery status --home "$work/a" --json | python3 -c '
import json, sys
s = json.load(sys.stdin)
assert s["configured"] and s["threshold"] == 2 and len(s["guardians"]) == 2 and s["generation"] == 1, s' || fail "status"
sync_all
for who in b c; do
  "$kith" recovery held --home "$work/$who" --json | python3 -c '
import json, sys
held = json.load(sys.stdin)
assert [h["name"] for h in held] == ["Alice"], held' || fail "$who does not hold Alice's share"
done
"$kith" recovery held --home "$work/b" | grep -q "You hold a recovery share for Alice" || fail "held text"

# The new device.
"$kith" init --home "$work/n" > /dev/null
"$kith" recovery request --home "$work/n" "$alice" --json > "$work/request.json" || fail "request failed"
request=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["request"])' "$work/request.json")
code=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["safety_code"])' "$work/request.json")

# A wrong code releases nothing.
set +e
"$kith" recovery release --home "$work/b" Alice --request "$request" --code "0000 0000 0000" > "$work/wrong.out" 2> "$work/wrong.err"; wrong=$?
set -e
[ "$wrong" -ne 0 ] && [ ! -s "$work/wrong.out" ] && grep -q "safety codes differ" "$work/wrong.err" || fail "wrong code: $(cat "$work/wrong.err")"

release_b=$("$kith" recovery release --home "$work/b" Alice --request "$request" --code "$code") || fail "Bob's release"
release_c=$("$kith" recovery release --home "$work/c" "$alice" --request "$request" --code "$code") || fail "Carol's release"

set +e
"$kith" recovery combine --home "$work/n" "$release_b" > /dev/null 2> "$work/one.err"; one=$?
"$kith" recovery combine --home "$work/n" "$release_b" "$release_b" > /dev/null 2> "$work/replay.err"; replay=$?
set -e
[ "$one" -ne 0 ] && grep -q "1 recovery share(s) given, 2 needed" "$work/one.err" || fail "one release: $(cat "$work/one.err")"
[ "$replay" -ne 0 ] && grep -q "already handed in" "$work/replay.err" || fail "replayed release: $(cat "$work/replay.err")"

"$kith" recovery combine --home "$work/n" "$release_c" "$release_b" --into "$work/r" --json > "$work/combine.json" || fail "combine"
python3 -c 'import json,sys; c=json.load(open(sys.argv[1])); assert c["feed_id"]==sys.argv[2], c' "$work/combine.json" "$alice" || fail "combine: $(cat "$work/combine.json")"
rebuilt=$("$kith" id --home "$work/r" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["feed_id"])')
[ "$rebuilt" = "$alice" ] || fail "the rebuilt home is $rebuilt, not $alice"

# Single use: the request is gone.
set +e
"$kith" recovery combine --home "$work/n" "$release_c" "$release_b" > /dev/null 2> "$work/again.err"; again=$?
set -e
[ "$again" -ne 0 ] && grep -q "no recovery request is pending" "$work/again.err" || fail "reuse: $(cat "$work/again.err")"
echo "recovery CLI ok: 2-of-2 guardians, safety code checked, one release and a replay refused, identity rebuilt, request single use"
