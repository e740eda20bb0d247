#!/usr/bin/env bash
# Recovery releases through a join-code relay on a real `kith serve` (docs/CONTINUITY.md section 6, "Releases through
# a join-code relay"): Alice's guardians Bob and Carol (2 of 2) hold her shares; a new device runs
# `kith recovery request --server`, which offers one join code per guardian; Bob first types a wrong safety code (he
# sends nothing and the new device offers another code), then Bob (--code) and Carol (typing the code) release through
# the relay, and the new device rebuilds Alice's identity into a new home. No room or pending code is left on the server. Loopback only.
set -euo pipefail
source "$(cd "$(dirname "$0")/.." && pwd)/cli_common.sh"

alice_with_two_contacts
alice=$("$kith" id --home "$work/a" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["feed_id"])')
"$kith" recovery setup --home "$work/a" --threshold 2 Bob Carol > /dev/null || fail "setup failed"
sync_all
"$kith" init --home "$work/n" > /dev/null
start_kith_serve

"$kith" recovery request --home "$work/n" "$alice" --server "$server" --timeout 120 --guardians 4 --into "$work/r" --json \
  > "$work/n.out" 2> "$work/n.err" &
request_pid=$!
answer_pid=$request_pid

# The join code and safety code of the new device's turn number $1 (its JSON lines come one per turn).
turn() {
  for _ in $(seq 1 600); do
    [ "$(grep -c join_code "$work/n.out" || true)" -ge "$1" ] && break
    sleep 0.1
  done
  grep join_code "$work/n.out" | sed -n "${1}p" | python3 -c 'import json,sys; t=json.load(sys.stdin); print(t["join_code"], t["safety_code"])' \
    || fail "no join code for turn $1: $(cat "$work/n.out" "$work/n.err")"
}

read -r code1 safety < <(turn 1)
[[ "$code1" =~ ^[0-9]{8}$ ]] || fail "join code: $code1"
set +e
"$kith" recovery release --home "$work/b" Alice --join "$code1" --server "$server" --code "0000 0000 0000" > "$work/wrong.out" 2> "$work/wrong.err"
wrong=$?
set -e
[ "$wrong" -ne 0 ] && [ ! -s "$work/wrong.out" ] && grep -q "safety codes differ" "$work/wrong.err" && grep -q "nothing was sent" "$work/wrong.err" \
  || fail "wrong code: $(cat "$work/wrong.out" "$work/wrong.err")"

read -r code2 _ < <(turn 2)
"$kith" recovery release --home "$work/b" Alice --join "$code2" --server "$server" --code "$safety" > "$work/b.out" 2> "$work/b.err" \
  || fail "Bob's release: $(cat "$work/b.err")"
grep -q "their device kept it" "$work/b.out" || fail "Bob was not told: $(cat "$work/b.out")"
read -r code3 _ < <(turn 3)
# Carol types the code the person reads to her (standard input) instead of passing --code.
echo "$safety" | "$kith" recovery release --home "$work/c" "$alice" --join "$code3" --server "$server" > /dev/null 2> "$work/c.err" \
  || fail "Carol's release: $(cat "$work/c.err")"
grep -q "Safety code on this device: $safety" "$work/c.err" || fail "Carol was not shown the code: $(cat "$work/c.err")"

wait "$request_pid" || fail "the new device: $(cat "$work/n.out" "$work/n.err")"
grep -q "the guardian sent nothing" "$work/n.err" || fail "the decline was not reported: $(cat "$work/n.err")"
grep -q "1 of 2 releases" "$work/n.err" && grep -q "2 of 2 releases" "$work/n.err" || fail "no progress: $(cat "$work/n.err")"
tail -n 1 "$work/n.out" | python3 -c 'import json,sys; c=json.load(sys.stdin); assert c["feed_id"]==sys.argv[1], c' "$alice" \
  || fail "final object: $(cat "$work/n.out")"
rebuilt=$("$kith" id --home "$work/r" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["feed_id"])')
[ "$rebuilt" = "$alice" ] || fail "the rebuilt home is $rebuilt, not $alice"

# Too few guardians through the relay (--guardians 1): the release kept is printed for `kith recovery combine`, and the
# command says how many are missing; a new attempt makes a new request, so that release no longer opens.
"$kith" recovery request --home "$work/n" "$alice" --server "$server" --timeout 120 --guardians 1 --json > "$work/n.out" 2> "$work/n.err" &
request_pid=$!
answer_pid=$request_pid
read -r code4 safety < <(turn 1)
"$kith" recovery release --home "$work/b" Alice --join "$code4" --server "$server" --code "$safety" > /dev/null 2> "$work/b.err" \
  || fail "Bob's second release: $(cat "$work/b.err")"
set +e; wait "$request_pid"; short=$?; set -e
[ "$short" -ne 0 ] && grep -q "1 more needed" "$work/n.err" || fail "one of two releases: $short $(cat "$work/n.err")"
relayed=$(tail -n 1 "$work/n.out" | python3 -c 'import json,sys; r=json.load(sys.stdin); assert r["missing"]==1, r; print(r["releases"][0])') \
  || fail "the kept release was not printed: $(cat "$work/n.out")"
request=$("$kith" recovery request --home "$work/n" "$alice" --json 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["request"])')
set +e
"$kith" recovery combine --home "$work/n" "$relayed" > /dev/null 2> "$work/stale.err"; stale=$?
set -e
[ "$stale" -ne 0 ] && grep -q "another recovery request" "$work/stale.err" || fail "a release of the earlier request: $(cat "$work/stale.err")"

python3 - "$work/srv/rendezvous.sqlite" <<'PY' || fail "the server still holds a room or a pending code"
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
counts = [db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0] for table in ("rooms", "pendings")]
assert counts == [0, 0], counts
PY
for text in "$code1" "$code2" "$safety"; do
  ! grep -rqs -- "$text" "$work/serve.out" "$work/serve.err" || fail "the server's log names a join code or the safety code"
done
echo "recovery relay CLI ok: a wrong code sends nothing, two guardians release through kith serve, identity rebuilt, too few releases reported and printed, no room left"
