#!/usr/bin/env bash
# End-to-end across nodes: two `kith serve` processes on one PostgreSQL database
# ($KITH_TEST_POSTGRES_URL, the throwaway cluster of scripts/test.sh); Alice pairs through node 1,
# Bob joins through node 2, and they sync through the relay, the frames crossing between the
# nodes by LISTEN/NOTIFY (docs/SERVER.md 4.1). Then a chat across the nodes, node 2 is killed
# (SIGKILL: no clean-up) and Alice, on node 1, is told the other person left once node 1's sweep
# finds node 2 dead. Loopback only.
set -euo pipefail
source "$(cd "$(dirname "$0")/.." && pwd)/cli_common.sh"
url="${KITH_TEST_POSTGRES_URL:?needs KITH_TEST_POSTGRES_URL (scripts/test.sh starts a cluster)}"

for who in a b; do "$kith" init --home "$work/$who" > /dev/null; done
"$kith" contact add --home "$work/b" --name Alice "$("$kith" card --home "$work/a" --name Alice)" > /dev/null
"$kith" contact add --home "$work/a" --name Bob "$("$kith" card --home "$work/b" --name Bob)" > /dev/null
"$kith" post --home "$work/a" --audience contacts -- "across two nodes" > /dev/null

pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true; rm -rf "$work"' EXIT
ports=()
for node in 1 2; do
  "$kith" serve --home "$work/srv$node" --database-url "$url" --port 0 --dead-node-after 3 > "$work/serve$node.out" 2> "$work/serve$node.err" &
  pids+=($!)
done
for node in 1 2; do
  for _ in $(seq 1 100); do [ -s "$work/serve$node.out" ] && break; sleep 0.1; done
  port=$(sed -n 's/^kith serve: listening on http:\/\/127\.0\.0\.1:\([0-9]*\) .*/\1/p' "$work/serve$node.out")
  [ -n "$port" ] || fail "node $node did not start: $(cat "$work/serve$node.out" "$work/serve$node.err")"
  ports+=("$port")
done

"$kith" pair create --home "$work/a" --server "http://127.0.0.1:${ports[0]}" --timeout 60 --json > "$work/a.out" 2> "$work/a.err" &
create_pid=$!
for _ in $(seq 1 100); do [ -s "$work/a.out" ] && break; sleep 0.1; done
code=$(head -n 1 "$work/a.out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["join_code"])')
"$kith" pair join --home "$work/b" --server "http://127.0.0.1:${ports[1]}" --timeout 60 --json "$code" > "$work/b.out" 2> "$work/b.err" \
  || fail "pair join through node 2 failed: $(cat "$work/b.err")"
wait "$create_pid" || fail "pair create through node 1 failed: $(cat "$work/a.err")"
bob_log=$("$kith" log --home "$work/b")
[[ "$bob_log" == *"across two nodes"* ]] || fail "Bob cannot read Alice's post after the cross-node relay sync: $bob_log"

# A chat across the nodes; stdin stays open (FIFOs) until the end.
mkfifo "$work/in-a" "$work/in-b"
"$kith" chat create --no-qr --server "http://127.0.0.1:${ports[0]}" < "$work/in-a" > "$work/chat-a.out" 2> "$work/chat-a.err" &
chat_a=$!
exec 3> "$work/in-a"
for _ in $(seq 1 100); do grep -q "^Join code:" "$work/chat-a.out" 2>/dev/null && break; sleep 0.1; done
code=$(sed -n 's/^Join code: \([0-9]*\)$/\1/p' "$work/chat-a.out")
"$kith" chat join "$code" --server "http://127.0.0.1:${ports[1]}" < "$work/in-b" > "$work/chat-b.out" 2> "$work/chat-b.err" &
chat_b=$!
exec 4> "$work/in-b"
for _ in $(seq 1 200); do grep -q "Compare this code" "$work/chat-a.err" "$work/chat-b.err" 2>/dev/null && [ "$(grep -l "Compare this code" "$work/chat-a.err" "$work/chat-b.err" | wc -l)" -eq 2 ] && break; sleep 0.1; done
echo "across nodes" >&4
for _ in $(seq 1 100); do grep -q "^them> across nodes$" "$work/chat-a.out" && break; sleep 0.1; done
grep -q "^them> across nodes$" "$work/chat-a.out" || fail "chat line did not cross the nodes: $(cat "$work/chat-a.out" "$work/chat-a.err")"
kill -9 "${pids[1]}"
# Node 1 sweeps dead node 2 and tells Alice `peer_disconnected`: she is told at once and waits for Bob to reconnect
# (docs/SERVER.md 3.1a); Bob's node is gone, so Alice ends her chat with Ctrl-C, which purges the room.
for _ in $(seq 1 300); do grep -q "connection dropped; waiting" "$work/chat-a.err" && break; kill -0 "$chat_a" 2>/dev/null || break; sleep 0.1; done
grep -q "connection dropped; waiting\|the other person left" "$work/chat-a.err" || fail "Alice was not told within 30 s that node 2 died: $(cat "$work/chat-a.err")"
kill -INT "$chat_a" 2>/dev/null || true
for _ in $(seq 1 300); do kill -0 "$chat_a" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$chat_a" 2>/dev/null; then fail "Alice's chat did not end within 30 s of Ctrl-C: $(cat "$work/chat-a.err")"; fi
exec 3>&- 4>&-
kill "$chat_b" 2>/dev/null || true
wait "$chat_b" 2>/dev/null || true
echo "two-node pair ok: paired through node 1 and node 2 of one PostgreSQL database, synced through the relay across nodes; node 2 killed, its peer on node 1 told after the sweep and ended cleanly"
