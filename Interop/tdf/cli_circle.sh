#!/usr/bin/env bash
# `kith circle` end to end over real TCP sync between two homes: both arm, one sync exchanges the
# pools inside the Noise link, a one-time message is read exactly once, a revocation is announced
# at the next sync and the contact's next message is refused.
set -euo pipefail
source "$(dirname "$0")/../cli_common.sh"

alice_and_bob

state() { "$kith" circle status --home "$work/$1" --json | "$PYTHON" -c 'import json,sys; rows=json.load(sys.stdin); print(rows[0]["state"] if rows else "none")'; }

"$kith" circle add --home "$work/a" Bob --size 64 > /dev/null
"$kith" circle add --home "$work/b" Alice --size 64 > /dev/null
[ "$(state a)" = "none" ] || fail "no pools before the sync"
sync_ab
[ "$(state a)" = "active" ] || fail "Alice's pools are not active after the sync: $(state a)"
[ "$(state b)" = "active" ] || fail "Bob's pools are not active after the sync: $(state b)"
left=$("$kith" circle status --home "$work/a" --json | "$PYTHON" -c 'import json,sys; print(json.load(sys.stdin)[0]["keys_to_send"])')
[ "$left" = "64" ] || fail "expected 64 keys to send, got $left"

"$kith" circle send --home "$work/a" Bob "inner circle hello" > /dev/null
sync_ab
"$kith" log --home "$work/b" --with Alice | grep -q "inner circle hello" || fail "Bob cannot read Alice's one-time message"
received=$("$kith" circle status --home "$work/b" --json | "$PYTHON" -c 'import json,sys; print(json.load(sys.stdin)[0]["keys_to_receive"])')
[ "$received" = "63" ] || fail "Bob's used private key was not deleted ($received left)"

# Over a kith serve relay: Alice pairs with --one-time; Bob's `kith pair join` opens it once (never stored).
start_kith_serve
export KITH_SERVER="http://127.0.0.1:$port"
"$kith" pair create --home "$work/a" --timeout 60 --json --one-time "relayed once" > "$work/pa.out" 2> "$work/pa.err" &
create_pid=$!
for _ in $(seq 1 100); do [ -s "$work/pa.out" ] && break; sleep 0.1; done
code=$(head -n 1 "$work/pa.out" | "$PYTHON" -c 'import json,sys; print(json.load(sys.stdin)["join_code"])')
"$kith" pair join --home "$work/b" --timeout 60 --json "$code" > "$work/pb.out" 2> "$work/pb.err" || fail "pair join failed: $(cat "$work/pb.err")"
wait "$create_pid" || fail "pair create failed: $(cat "$work/pa.err")"
"$PYTHON" - "$work/pb.out" <<'PY' || fail "Bob did not show the relayed one-time message: $(cat "$work/pb.out" "$work/pb.err")"
import json, sys
rows = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
relayed = [row["relayed_one_time"] for row in rows if "relayed_one_time" in row]
assert [r["text"] for r in relayed] == ["relayed once"] and relayed[0]["name"] == "Alice", rows
PY
"$kith" log --home "$work/b" --with Alice | grep -q "relayed once" && fail "a relayed one-time message was stored"
received=$("$kith" circle status --home "$work/b" --json | "$PYTHON" -c 'import json,sys; print(json.load(sys.stdin)[0]["keys_to_receive"])')
[ "$received" = "62" ] || fail "the relayed message's key was not deleted ($received left)"

"$kith" circle revoke --home "$work/a" Bob > /dev/null
"$kith" circle send --home "$work/a" Bob "after revoke" > /dev/null 2>&1 && fail "Alice could still send after revoking"
"$kith" circle send --home "$work/b" Alice "late message" > /dev/null
sync_ab
"$kith" log --home "$work/a" --with Bob | grep -q "late message" && fail "a message to a revoked pool was read"
[ "$(state b)" = "none" ] || fail "Bob was not told of the revocation"
"$kith" circle send --home "$work/b" Alice "refused" > /dev/null 2>&1 && fail "Bob's next message was not refused"
echo "circle: pools exchanged over TCP sync, one-time message read once, one sent over a kith serve relay opened once and not stored, revocation announced, next message refused"
