#!/usr/bin/env bash
# End-to-end with the CLI and a real `kith serve` (loopback): Alice makes a single-use invite with --via; Dana, who
# never met Alice, accepts it through the server's blind relay and joins; Erin's second use is refused; no escape
# sequence from the invite or the refusal reaches the terminal; a Convos-style parser (fields 1-10, unknown fields
# skipped) still reads the invite and its signature still recovers over the exact payload bytes.
set -euo pipefail
source "$(cd "$(dirname "$0")/.." && pwd)/cli_common.sh"

for who in a d e; do "$kith" init --home "$work/$who" > /dev/null; done

start_kith_serve

"$kith" group create --home "$work/a" club > /dev/null
made=$("$kith" invite create --home "$work/a" club --single-use --name $'Club\e[31m' --via "$server" --json)
url=$(echo "$made" | python3 -c 'import json,sys; print(json.load(sys.stdin)["url"])')
code=$(echo "$made" | python3 -c 'import json,sys; print(json.load(sys.stdin)["code"])')

# The QR form (KITH://QR/ + base32, all QR-alphanumeric) reads back as the same invite.
qr_text=$(echo "$made" | python3 -c 'import json,sys; print(json.load(sys.stdin)["qr_text"])')
[[ "$qr_text" =~ ^KITH://QR/[A-Z2-7]+$ ]] || fail "unexpected QR text: $qr_text"
[ "$("$kith" invite show --home "$work/d" "$qr_text" --json)" == "$("$kith" invite show --home "$work/d" "$url" --json)" ] \
  || fail "the QR form does not read back as the same invite"
shown=$("$kith" invite show --home "$work/d" "$url" --json)
python3 - "$shown" "$server" <<'PY' || fail "show: $shown"
import json, sys
shown = json.loads(sys.argv[1])
reach = shown["reach"]
assert shown["signer_check"] == "unbound", shown
assert reach["server"] == sys.argv[2] and reach["card_verifies"] and reach["card_matches_creator"], reach
assert reach["card_feed_id"] == shown["creator_feed_id"], reach
PY
text=$("$kith" invite show --home "$work/d" "$url")
[[ "$text" != *$'\e'* ]] || fail "an escape sequence from the invite reached the terminal"
[[ "$text" == *"reachable via:"* && "$text" == *"matches the creator inbox id"* ]] || fail "show text lacks the reach: $text"

# A Convos-style reader: walks fields 1-10, skips unknown ones, and recovers the signer over the carried bytes.
python3 - "$code" <<'PY' || fail "a Convos-style parser does not read the invite"
import base64, sys
code = sys.argv[1].replace("*", "")
data = base64.urlsafe_b64decode(code + "=" * (-len(code) % 4))
assert data[0] == 0x0A, "uncompressed SignedInvite expected"

def varint(buf, i):
    shift = value = 0
    while True:
        byte = buf[i]; i += 1
        value |= (byte & 0x7F) << shift; shift += 7
        if byte < 0x80: return value, i

def fields(buf):
    i, out = 0, {}
    while i < len(buf):
        key, i = varint(buf, i)
        number, wire = key >> 3, key & 7
        if wire == 0: value, i = varint(buf, i)
        elif wire == 1: value, i = buf[i:i + 8], i + 8
        elif wire == 2:
            length, i = varint(buf, i); value, i = buf[i:i + length], i + length
        else: raise ValueError(wire)
        out.setdefault(number, value)
    return out

signed = fields(data)
payload = fields(signed[1])
known = {n: v for n, v in payload.items() if 1 <= n <= 10}
assert len(known[2]) == 32 and known[1][0] == 1 and len(known[3]) == 10, known
assert 1000 in payload, "Kith's reach field is missing"
assert len(signed[2]) == 65
PY

# An invite made without --via cannot be used by a stranger: a clear error, nothing sent.
plain=$("$kith" invite create --home "$work/a" club --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["url"])')
set +e
"$kith" invite accept --home "$work/e" "$plain" > /dev/null 2> "$work/plain.err"; code_plain=$?
set -e
[ "$code_plain" -ne 0 ] && grep -q -- "--via" "$work/plain.err" || fail "a plain invite for a stranger: $(cat "$work/plain.err")"

# Nobody answers yet: the joiner is told the creator is not answering.
set +e
"$kith" invite accept --home "$work/e" --timeout 2 "$url" > /dev/null 2> "$work/early.err"; code_early=$?
set -e
[ "$code_early" -ne 0 ] && grep -q "not answering" "$work/early.err" || fail "no creator answering: $(cat "$work/early.err")"

# Alice answers two joiners through the relay.
"$kith" invite serve --home "$work/a" "$url" --count 2 --timeout 60 --json > "$work/answer.out" 2> "$work/answer.err" &
answer_pid=$!
wait_for_joiner() { for _ in $(seq 1 200); do grep -q "waiting for joiner $1" "$work/answer.err" 2>/dev/null && return 0; sleep 0.1; done; fail "invite serve is not waiting: $(cat "$work/answer.err")"; }
wait_for_joiner 1

# The invite's join code is a claimed one: reading the invite is not enough to offer it (Mallory would be paired with
# every joiner), and a stray accept that never comes into the room costs Alice neither a slot nor a minute.
join_code=$(echo "$shown" | python3 -c 'import json,sys; print(json.load(sys.stdin)["reach"]["join_code"])')
[[ "$join_code" == kc1-* && ${#join_code} -eq 52 ]] || fail "the invite's join code is not a claimed one: $join_code"
python3 - "$server" "$join_code" <<'PY' || fail "the invite's join code could be squatted or probed"
import json, sys, urllib.request, urllib.error
server, code = sys.argv[1], sys.argv[2]
def post(path, body):
    request = urllib.request.Request(server + path, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request) as answer: return answer.status, json.loads(answer.read() or b"{}")
    except urllib.error.HTTPError as error: return error.code, json.loads(error.read() or b"{}")
status, body = post("/api/rooms", {"joinid": code, "client1": "mallory", "expiresInSeconds": 86400})
assert status == 403 and body["error"] == "claim_required", (status, body)
status, body = post("/api/rooms", {"joinid": code, "client1": "mallory", "expiresInSeconds": 60, "claim": "A" * 43})
assert status == 403, (status, body)
# A stray accept: takes the code, never joins the room.
status, body = post("/api/rooms/accept", {"joinid": code, "client2": "stray"})
assert status == 200 and "roomid" in body, (status, body)
PY
for _ in $(seq 1 400); do [ "$(grep -c "waiting for joiner 1 of 2" "$work/answer.err")" -eq 2 ] && break; sleep 0.1; done
grep -q "did not finish the exchange" "$work/answer.err" || fail "invite serve did not drop the stray joiner: $(cat "$work/answer.err")"
[ "$(grep -c "waiting for joiner 1 of 2" "$work/answer.err")" -eq 2 ] || fail "the stray accept used a slot: $(cat "$work/answer.err")"

joined=$("$kith" invite accept --home "$work/d" "$url" --json 2> "$work/d.err") || fail "Dana's stranger join failed: $(cat "$work/d.err" "$work/answer.err")"
group=$(echo "$joined" | python3 -c 'import json,sys; j=json.load(sys.stdin); assert j["status"]=="joined", j; print(j["group_id"])')
[[ "$("$kith" group show --home "$work/d" "$group" --json)" == *'"status":"active"'* ]] || fail "Dana is not an active member"
grep -q "reaching the creator" "$work/d.err" || fail "no progress shown: $(cat "$work/d.err")"

wait_for_joiner 2
set +e
out=$("$kith" invite accept --home "$work/e" "$url" 2> "$work/e.err"); second=$?
set -e
[ "$second" -eq 1 ] || fail "Erin's second use: expected exit 1, got $second ($out $(cat "$work/e.err"))"
[[ "$out" == *"invite_used"* ]] || fail "Erin was not told the invite was used: $out"
[[ "$out" != *$'\e'* ]] || fail "an escape sequence reached the terminal"
wait "$answer_pid" || fail "invite serve failed: $(cat "$work/answer.err")"
python3 - "$work/answer.out" <<'PY' || fail "serve report: $(cat "$work/answer.out")"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
assert [l["status"] for l in lines] == ["admitted", "refused"], lines
PY
# Alice and Dana are still not contacts, but members of one group: they pair by join code and sync directly
# (group peers), and Dana reads what Alice sent to the group.
"$kith" group send --home "$work/a" "$group" "welcome, Dana" > /dev/null
"$kith" pair create --home "$work/a" --server "$server" --timeout 60 --json > "$work/pa.out" 2> "$work/pa.err" &
pair_pid=$!
for _ in $(seq 1 100); do [ -s "$work/pa.out" ] && break; sleep 0.1; done
pair_code=$(head -n 1 "$work/pa.out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["join_code"])')
"$kith" pair join --home "$work/d" --server "$server" --timeout 60 "$pair_code" > "$work/pd.out" 2> "$work/pd.err" \
  || fail "Dana could not pair with Alice as a group member: $(cat "$work/pd.err" "$work/pa.err")"
wait "$pair_pid" || fail "Alice's pair create failed: $(cat "$work/pa.err")"
grep -q "(group member)" "$work/pd.err" "$work/pd.out" || fail "Dana's sync does not name Alice as a group member: $(cat "$work/pd.out" "$work/pd.err")"
dana_log=$("$kith" log --home "$work/d" --group "$group")
[[ "$dana_log" == *"welcome, Dana"* ]] || fail "Dana cannot read Alice's group message after their direct sync: $dana_log"
[[ "$("$kith" contacts --home "$work/d" --json)" == *'"contacts":[]'* ]] || fail "the group sync made Alice a contact of Dana"
echo "invites to strangers through the CLI and kith serve: ok (then a direct sync as group members)"
