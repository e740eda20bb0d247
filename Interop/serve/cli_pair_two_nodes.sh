#!/usr/bin/env bash
# End-to-end across nodes: two `kith serve` processes on one PostgreSQL database
# ($KITH_TEST_POSTGRES_URL, the throwaway cluster of scripts/test.sh); Alice pairs through node 1,
# Bob joins through node 2, and they sync through the relay, the frames crossing between the
# nodes by LISTEN/NOTIFY (docs/SERVER.md 4.1). Loopback only.
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
  "$kith" serve --home "$work/srv$node" --database-url "$url" --port 0 > "$work/serve$node.out" 2> "$work/serve$node.err" &
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
echo "two-node pair ok: paired through node 1 and node 2 of one PostgreSQL database, synced through the relay across nodes"
