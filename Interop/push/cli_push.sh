#!/usr/bin/env bash
# Push knocks end to end through the `kith` CLI (docs/PUSH-CLIENT.md): clear errors without a registration,
# tokens or server; then on a real `kith serve` (gateway + push service): Alice registers, her tokens reach
# Bob and Carol over their direct channels, Bob knocks, Alice's listener decrypts and names him, removing Bob
# revokes his tokens at the gateway (his next knocks get 404, the tokens are dropped), Carol still can knock.
# Loopback only.
set -euo pipefail
source "$(cd "$(dirname "$0")/.." && pwd)/cli_common.sh"

alice_with_two_contacts

# Without a registration, tokens or a server.
set +e
"$kith" push refill --home "$work/a" > /dev/null 2> "$work/refill.err"; refill=$?
"$kith" knock --home "$work/b" Alice > /dev/null 2> "$work/knock.err"; knock=$?
"$kith" knocks listen --home "$work/a" --once > /dev/null 2> "$work/listen.err"; listen=$?
"$kith" push register --home "$work/a" --server http://127.0.0.1:1 > /dev/null 2> "$work/down.err"; down=$?
"$kith" push register --home "$work/a" --server ftp://x > /dev/null 2> "$work/url.err"; url=$?
set -e
[ "$refill" -ne 0 ] && grep -q "not registered for push knocks" "$work/refill.err" || fail "refill unregistered: $(cat "$work/refill.err")"
[ "$knock" -ne 0 ] && grep -q "no push tokens from Alice left" "$work/knock.err" || fail "knock without tokens: $(cat "$work/knock.err")"
[ "$listen" -ne 0 ] && grep -q "not registered for push knocks" "$work/listen.err" || fail "listen unregistered: $(cat "$work/listen.err")"
[ "$down" -ne 0 ] && grep -q "could not reach the push server" "$work/down.err" || fail "unreachable server: $(cat "$work/down.err")"
[ "$url" -ne 0 ] && grep -q "invalid push server URL" "$work/url.err" || fail "bad URL: $(cat "$work/url.err")"
"$kith" push status --home "$work/a" --json | python3 -c 'import json,sys; s=json.load(sys.stdin); assert s["registered"] is False and s["contacts"] == [], s' \
  || fail "status before registering"
[ "${1:-}" = "--offline" ] && { echo "push CLI ok (offline part)"; exit 0; }

# The gateway delivers to its own push service on loopback: allowed only with the operator's explicit option.
start_kith_serve --allow-private-push-endpoints

"$kith" push register --home "$work/a" --server "$server" --json > "$work/register.json" || fail "register failed"
python3 - "$work/register.json" <<'PY' || fail "register: $(cat "$work/register.json")"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["gateway"].endswith("/api/v1/"), r
assert sorted((e["name"], e["tokens"]) for e in r["refilled"]) == [("Bob", 10), ("Carol", 10)], r
PY
sync_all
"$kith" push status --home "$work/b" --json | python3 -c '
import json, sys
s = json.load(sys.stdin)
assert [(c["name"], c["held_unused"]) for c in s["contacts"]] == [("Alice", 10)], s' || fail "Bob does not hold Alice's tokens"

# Bob knocks (queued at the push service), Alice's listener decrypts it and names him.
"$kith" knock --home "$work/b" Alice --json > "$work/knock.json" || fail "Bob's knock failed"
timeout 30 "$kith" knocks listen --home "$work/a" --once --json > "$work/heard.json" || fail "Alice heard nothing"
python3 -c 'import json,sys; k=json.load(open(sys.argv[1])); assert k["type"]=="knock" and k["name"]=="Bob" and k["replayed"] is False, k' "$work/heard.json" \
  || fail "knock not mapped to Bob: $(cat "$work/heard.json")"
timeout 30 "$kith" knocks listen --home "$work/a" --once > /dev/null 2>&1 &
listen_pid=$!
"$kith" knock --home "$work/c" Alice > /dev/null || fail "Carol's knock failed"
wait "$listen_pid" || fail "Alice did not hear Carol"

# A knock can trigger a sync: Bob writes Alice, serves one sync session, knocks; Alice's listener syncs with him.
"$kith" dm --home "$work/b" Alice "knock knock, read me" > /dev/null
"$kith" sync listen --home "$work/b" --port 0 --once > /dev/null 2> "$work/bsync.err" &
bsync_pid=$!
for _ in $(seq 1 100); do grep -q "listening on" "$work/bsync.err" 2>/dev/null && break; sleep 0.1; done
sport=$(sed -n 's/^kith: listening on 127\.0\.0\.1:\([0-9]*\)$/\1/p' "$work/bsync.err")
[ -n "$sport" ] || fail "Bob's sync listener did not print its port: $(cat "$work/bsync.err")"
"$kith" knocks listen --home "$work/a" --sync-with "127.0.0.1:$sport" > "$work/alisten.out" 2> "$work/alisten.err" &
alisten_pid=$!
"$kith" knock --home "$work/b" Alice > /dev/null || fail "Bob's second knock failed"
# The sync ends on Bob's side first; Alice's listener may still be storing what it received: poll her log.
alog=""
for _ in $(seq 1 300); do
  alog=$("$kith" log --home "$work/a" --with Bob 2>&1 || true)
  [[ "$alog" == *"knock knock, read me"* ]] && break
  sleep 0.1
done
kill "$alisten_pid" 2>/dev/null || true
wait "$bsync_pid" 2>/dev/null || true
grep -q "«Bob» knocked" "$work/alisten.out" || fail "listener output: $(cat "$work/alisten.out" "$work/alisten.err")"
[[ "$alog" == *"knock knock, read me"* ]] || fail "Alice did not sync Bob's message after his knock: $alog / $(cat "$work/alisten.out" "$work/alisten.err" "$work/bsync.err")"

# Removing Bob revokes his tokens at the gateway: his knocks now get 404, every token is dropped.
"$kith" contact remove --home "$work/a" --keep-keys Bob --json > "$work/remove.json"
python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); assert r["push_tokens_revoked"] >= 8 and r["push_tokens_pending_revocation"] == 0, r' "$work/remove.json" \
  || fail "removal did not revoke: $(cat "$work/remove.json")"
set +e
"$kith" knock --home "$work/b" Alice > /dev/null 2> "$work/revoked.err"; revoked=$?
set -e
[ "$revoked" -ne 0 ] && grep -q "no push tokens from Alice left" "$work/revoked.err" || fail "revoked knock: $(cat "$work/revoked.err")"
"$kith" push status --home "$work/b" --json | python3 -c '
import json, sys
s = json.load(sys.stdin)
assert [(c["name"], c["held_unused"], c["held_spent"]) for c in s["contacts"]] == [("Alice", 0, 10)], s' || fail "Bob's dropped tokens"
echo "push CLI ok: errors (not registered, no tokens, unreachable, bad URL), register, hand-off to two contacts, knock heard and named, knock-triggered sync, removal revoked at the gateway (404 dropped)"
