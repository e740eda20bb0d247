#!/usr/bin/env bash
# Personas end to end with the CLI and a real `kith serve` (loopback), docs/GROUPS.md "Personas": Alice creates a
# group under a persona; its invite names the persona, not Alice; Dana, a stranger, joins under a persona of her own;
# the personas sync through the relay and read each other; neither main feed id appears in what the other side
# holds; Alice explodes (her persona is gone), Dana leaves (hers is gone); `kith personas --json` is empty on both.
set -euo pipefail
source "$(cd "$(dirname "$0")/.." && pwd)/cli_common.sh"
json_get() { python3 -c 'import json,sys; print(json.load(sys.stdin)[sys.argv[1]])' "$1"; }

for who in a d; do "$kith" init --home "$work/$who" > /dev/null; done
alice_main=$("$kith" id --home "$work/a" --json | json_get feed_id)
dana_main=$("$kith" id --home "$work/d" --json | json_get feed_id)
start_kith_serve

made=$("$kith" group create --home "$work/a" meetup --persona --json)
group=$(echo "$made" | json_get group_id)
alice_persona=$(echo "$made" | json_get persona_id)
alice_local=$(echo "$made" | json_get persona)
[ "$alice_persona" != "$alice_main" ] || fail "the persona is the main identity"
listed=$("$kith" personas --home "$work/a" --json)
python3 - "$listed" "$alice_local" "$alice_persona" "$group" <<'PY' || fail "kith personas: $listed"
import json, sys
personas = json.loads(sys.argv[1])["personas"]
assert len(personas) == 1, personas
p = personas[0]
assert (p["id"], p["feed_id"], p["group_id"], p["conversation"], p["state"]) == (sys.argv[2], sys.argv[3], sys.argv[4], "meetup", "active"), p
PY
# The main account does not hold the persona's group; commands that name it find the persona.
[[ "$("$kith" groups --home "$work/a" --json)" != *"$group"* ]] || fail "the persona's group is in the main account"

invite=$("$kith" invite create --home "$work/a" meetup --single-use --via "$server" --json)
url=$(echo "$invite" | json_get url)
shown=$("$kith" invite show --home "$work/d" "$url" --json)
[ "$(echo "$shown" | json_get creator_feed_id)" == "$alice_persona" ] || fail "the invite does not name the persona: $shown"
for text in "$url" "$shown"; do [[ "$text" != *"$alice_main"* ]] || fail "the invite names Alice's main feed"; done

"$kith" invite serve --home "$work/a" "$url" --count 1 --timeout 90 --json > "$work/answer.out" 2> "$work/answer.err" &
answer_pid=$!
for _ in $(seq 1 300); do grep -q "waiting for joiner" "$work/answer.err" 2>/dev/null && break; sleep 0.1; done
joined=$("$kith" invite accept --home "$work/d" "$url" --persona --json 2> "$work/d.err") || fail "Dana's persona join failed: $(cat "$work/d.err" "$work/answer.err")"
wait "$answer_pid" || fail "invite serve failed: $(cat "$work/answer.err")"
[ "$(echo "$joined" | json_get status)" == joined ] && [ "$(echo "$joined" | json_get group_id)" == "$group" ] || fail "join: $joined"
dana_persona=$(echo "$joined" | json_get persona_id)
dana_local=$(echo "$joined" | json_get persona)
[ "$dana_persona" != "$dana_main" ] || fail "Dana joined as her main identity"
[[ "$(cat "$work/answer.out")" != *"$dana_main"* ]] || fail "Alice's side saw Dana's main feed"
[[ "$("$kith" group show --home "$work/a" "$group" --json)" == *"$dana_persona"* ]] || fail "Alice's persona group lacks Dana's persona"

# Messages flow between the personas over a relayed sync (each side selects its persona explicitly).
"$kith" group send --home "$work/a" meetup "the cafe at eight" > /dev/null
"$kith" pair create --home "$work/a" --persona-id "$alice_local" --server "$server" --timeout 60 --json > "$work/pa.out" 2> "$work/pa.err" &
pair_pid=$!
for _ in $(seq 1 100); do [ -s "$work/pa.out" ] && break; sleep 0.1; done
pair_code=$(head -n 1 "$work/pa.out" | json_get join_code)
"$kith" pair join --home "$work/d" --persona-id "$dana_persona" --server "$server" --timeout 60 "$pair_code" > "$work/pd.out" 2> "$work/pd.err" \
  || fail "the personas could not sync: $(cat "$work/pd.err" "$work/pa.err")"
wait "$pair_pid" || fail "Alice's pair create failed: $(cat "$work/pa.err")"
dana_log=$("$kith" log --home "$work/d" --group "$group")
[[ "$dana_log" == *"the cafe at eight"* ]] || fail "Dana's persona cannot read Alice's persona: $dana_log"

# Neither main store holds the other side's identifiers, nor the own persona's.
for pair in "a:$dana_main" "a:$alice_persona" "a:$dana_persona" "d:$alice_main" "d:$alice_persona" "d:$dana_persona"; do
  who=${pair%%:*}; needle=${pair#*:}
  if grep -qa -- "$needle" "$work/$who"/kith.sqlite* "$work/$who"/public.json 2>/dev/null; then fail "home $who's main files hold $needle"; fi
done
# And no persona file holds a main feed id.
if grep -rqa -- "$alice_main" "$work/a/personas" || grep -rqa -- "$dana_main" "$work/d/personas"; then fail "a persona's files hold a main feed id"; fi

# Alice explodes: her persona is deleted with everything of it; Dana leaves: hers too.
exploded=$("$kith" group explode --home "$work/a" meetup --json)
[[ "$exploded" == *'"persona_deleted":true'* ]] || fail "explode: $exploded"
"$kith" group leave --home "$work/d" "$group" > /dev/null
for who in a d; do
  [ "$("$kith" personas --home "$work/$who" --json)" == '{"personas":[]}' ] || fail "home $who still lists a persona"
  [ -z "$(ls -A "$work/$who/personas" 2>/dev/null)" ] || fail "home $who keeps persona files: $(ls -A "$work/$who/personas")"
done
if grep -rqa -- "$alice_persona" "$work/a" || grep -rqa -- "$dana_persona" "$work/d"; then fail "a deleted persona's feed id is still on disk"; fi
echo "personas through the CLI and kith serve: ok (created, invited, joined as a stranger, synced, exploded and left, gone)"
