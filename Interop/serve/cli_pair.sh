#!/usr/bin/env bash
# End-to-end: two `kith` clients pair by join code on a real `kith serve` and sync through its
# blind relay (docs/SERVER.md 3.1); a stranger, an unknown code and an unreachable server get
# clear errors. Loopback only.
set -euo pipefail
source "$(cd "$(dirname "$0")/.." && pwd)/cli_common.sh"

for who in a b c; do "$kith" init --home "$work/$who" > /dev/null; done
"$kith" contact add --home "$work/b" --name Alice "$("$kith" card --home "$work/a" --name Alice)" > /dev/null
"$kith" contact add --home "$work/a" --name Bob "$("$kith" card --home "$work/b" --name Bob)" > /dev/null
"$kith" post --home "$work/a" --audience contacts -- "sent through the relay" > /dev/null

start_kith_serve
export KITH_SERVER="http://127.0.0.1:$port"

# Pair Alice (create) with Bob (join) and sync through the relay.
"$kith" pair create --home "$work/a" --timeout 60 --json > "$work/a.out" 2> "$work/a.err" &
create_pid=$!
for _ in $(seq 1 100); do [ -s "$work/a.out" ] && break; sleep 0.1; done
code=$(head -n 1 "$work/a.out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["join_code"])')
[[ "$code" =~ ^[0-9]{8}$ ]] || fail "no join code: $(cat "$work/a.out" "$work/a.err")"
"$kith" pair join --home "$work/b" --timeout 60 --json "$code" > "$work/b.out" 2> "$work/b.err" || fail "pair join failed: $(cat "$work/b.err")"
wait "$create_pid" || fail "pair create failed: $(cat "$work/a.err")"
python3 - "$work/a.out" "$work/b.out" <<'PY' || fail "summaries: $(cat "$work/a.out" "$work/b.out")"
import json, sys
alice = json.loads(open(sys.argv[1]).read().splitlines()[1])
bob = json.loads(open(sys.argv[2]).read().splitlines()[0])
assert alice["completed"] and bob["completed"], (alice, bob)
assert bob["received"] >= 1 and alice["sent"] >= 1, (alice, bob)
PY
# Both sides purged their device ids when the session ended: no room, no pending code left on the server.
no_rooms() {
  python3 - "$work/srv/rendezvous.sqlite" <<'PY' || fail "$1: the server still holds the pairing"
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
counts = [db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0] for table in ("rooms", "pendings")]
assert counts == [0, 0], counts
PY
}
no_rooms "after a completed pairing"
bob_log=$("$kith" log --home "$work/b")
[[ "$bob_log" == *"sent through the relay"* ]] || fail "Bob cannot read Alice's post after the relay sync: $bob_log"

# A stranger (not Alice's contact) is refused by the secure link, with a sentence that says why.
"$kith" pair create --home "$work/a" --timeout 30 --json > "$work/a2.out" 2> "$work/a2.err" &
create_pid=$!
for _ in $(seq 1 100); do [ -s "$work/a2.out" ] && break; sleep 0.1; done
code=$(head -n 1 "$work/a2.out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["join_code"])')
set +e
"$kith" pair join --home "$work/c" --timeout 30 "$code" > /dev/null 2> "$work/c.err"; stranger=$?
wait "$create_pid"; creator=$?
set -e
[ "$stranger" -ne 0 ] && [ "$creator" -ne 0 ] || fail "a stranger's pairing should fail on both sides ($stranger, $creator)"
grep -q "contact" "$work/c.err" "$work/a2.err" || fail "no contact error: $(cat "$work/c.err" "$work/a2.err")"
no_rooms "after a refused pairing"

# Ctrl-C while waiting for the other device withdraws the join code from the server, and the command exits 130.
"$kith" pair create --home "$work/a" --timeout 60 --json > "$work/a3.out" 2> "$work/a3.err" &
create_pid=$!
for _ in $(seq 1 100); do [ -s "$work/a3.out" ] && break; sleep 0.1; done
[ -s "$work/a3.out" ] || fail "no join code before Ctrl-C: $(cat "$work/a3.err")"
kill -INT "$create_pid"
set +e; wait "$create_pid"; interrupted=$?; set -e
[ "$interrupted" -eq 130 ] || fail "Ctrl-C: exit status $interrupted, expected 130: $(cat "$work/a3.err")"
no_rooms "after Ctrl-C"

# Dana and Erin met in person and only scanned each other's compact cards (QR): their first pairing fetches the full
# cards over the secure link (card phase), completes both contacts, and syncs.
for who in d e; do "$kith" init --home "$work/$who" > /dev/null; done
"$kith" contact add --home "$work/e" --name Dee "$("$kith" card --home "$work/d" --name Dana --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["compact_card"])')" > /dev/null
"$kith" contact add --home "$work/d" "$("$kith" card --home "$work/e" --name Erin --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["compact_card"])')" > /dev/null
[[ "$("$kith" contacts --home "$work/e" --json)" == *'"contacts":[]'* ]] || fail "a compact card alone made a contact"
"$kith" pair create --home "$work/d" --timeout 60 --json > "$work/d.out" 2> "$work/d.err" &
create_pid=$!
for _ in $(seq 1 100); do [ -s "$work/d.out" ] && break; sleep 0.1; done
code=$(head -n 1 "$work/d.out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["join_code"])')
"$kith" pair join --home "$work/e" --timeout 60 "$code" > "$work/e.out" 2> "$work/e.err" || fail "pairing two scanned compact cards failed: $(cat "$work/e.err" "$work/d.err")"
wait "$create_pid" || fail "pair create (compact) failed: $(cat "$work/d.err")"
python3 - "$("$kith" contacts --home "$work/e" --json)" "$("$kith" contacts --home "$work/d" --json)" <<'PY' || fail "the card phase did not complete both contacts"
import json, sys
erin, dana = json.loads(sys.argv[1]), json.loads(sys.argv[2])
assert len(erin["contacts"]) == 1 and not erin["pending"], erin
assert len(dana["contacts"]) == 1 and not dana["pending"], dana
assert "Dee" in json.dumps(erin["contacts"][0]), erin
PY
grep -q "Synced with Dee" "$work/e.out" || fail "the sync summary does not name the completed contact: $(cat "$work/e.out")"

# An unknown code and an unreachable server.
set +e
"$kith" pair join --home "$work/b" 99999999 > /dev/null 2> "$work/unknown.err"; unknown=$?
"$kith" pair join --home "$work/b" --server http://127.0.0.1:1 12345678 > /dev/null 2> "$work/down.err"; down=$?
set -e
[ "$unknown" -ne 0 ] && grep -q "unknown or expired join code" "$work/unknown.err" || fail "unknown code: $(cat "$work/unknown.err")"
[ "$down" -ne 0 ] && grep -q "cannot reach the rendezvous server" "$work/down.err" || fail "unreachable server: $(cat "$work/down.err")"
echo "pair CLI ok: join code, relay sync between contacts (Bob reads Alice's post), stranger refused, two scanned compact cards completed over the first link, unknown code and unreachable server reported"
