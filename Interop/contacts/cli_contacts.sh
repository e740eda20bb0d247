#!/usr/bin/env bash
# End-to-end: two people exchange cards with `kith card` / `kith contact add`, post to their
# contacts (with an attachment), import each other's feeds (key from the contact record) and read
# them; a third identity imports the same feed and cannot read it; a tampered card is refused.
set -euo pipefail
source "$(cd "$(dirname "$0")/.." && pwd)/cli_common.sh"

for who in a b c d; do "$kith" init --home "$work/$who" > /dev/null; done
card_a=$("$kith" card --home "$work/a" --name Alice)
card_b=$("$kith" card --home "$work/b" --name Bob --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["card"])')
qr=$("$kith" card --home "$work/a" --qr --name Alice)
[[ "$qr" == *"█"* ]] || fail "no QR code drawn"
# The QR carries the compact card (KC1:…); the full card it commits to is printed last.
compact_a=$(grep '^KC1:' <<< "$qr")
full_a=$(tail -n 1 <<< "$qr")
pending=$("$kith" contact add --home "$work/d" "$compact_a")
[[ "$pending" == *"kept as pending"* && "$pending" == *"arrives by itself at your first sync"* ]] || fail "compact card alone: $pending"
[[ "$("$kith" contacts --home "$work/d")" == *"pending (compact card scanned, full card still needed): Alice"* ]] || fail "no pending contact listed"
set +e; "$kith" contact add --home "$work/d" "$compact_a" --full "$card_b" > /dev/null 2>&1; code=$?; set -e
[ "$code" -eq 2 ] || fail "a full card that does not match the commitment: expected exit 2, got $code"
sleep 1 # a card made one second later differs (created_at) from the one the compact card commits to
other_a=$("$kith" card --home "$work/a" --name Alice)
set +e; "$kith" contact add --home "$work/d" "$other_a" > /dev/null 2>&1; code=$?; set -e
[ "$code" -eq 2 ] || fail "another full card of the scanned person: expected exit 2 (commitment), got $code"
"$kith" contact add --home "$work/d" "$full_a" > /dev/null
[[ "$("$kith" contacts --home "$work/d")" != *"pending"* ]] || fail "the pending contact was not completed"
[[ "$("$kith" contacts --home "$work/d")" == *"Alice"* ]] || fail "compact + full card did not add Alice"
"$kith" contact add --home "$work/b" --name Alice "$card_a" > /dev/null
"$kith" contact add --home "$work/a" "$card_b" > /dev/null
alice_contacts=$("$kith" contacts --home "$work/a")
[[ "$alice_contacts" == *"Bob"* ]] || fail "Bob missing from Alice's contacts"

# A card with one altered character is refused (exit 2).
bad="${card_a:0:1900}$( [ "${card_a:1900:1}" = "A" ] && echo B || echo A )${card_a:1901}"
set +e; "$kith" contact add --home "$work/c" "$bad" > /dev/null 2>&1; code=$?; set -e
[ "$code" -eq 2 ] || fail "tampered card: expected exit 2, got $code"

printf 'attached bytes' > "$work/file.txt"
"$kith" post --home "$work/a" --audience contacts --attach "$work/file.txt" -- "hello contacts" > /dev/null
"$kith" profile set --home "$work/a" --name "Alice L." > /dev/null
"$kith" feed export --home "$work/a" > "$work/a.jsonl"
key=$("$kith" id --home "$work/a" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["identity_key"])')
"$kith" feed import --home "$work/b" --key "$key" "$work/a.jsonl" > /dev/null
bob_log=$("$kith" log --home "$work/b")
[[ "$bob_log" == *"Alice #0 [contacts] hello contacts [1 attachment]"* ]] || fail "Bob cannot read Alice's post: $bob_log"
bob_contacts=$("$kith" contacts --home "$work/b")
[[ "$bob_contacts" == *'"Alice L."'* ]] || fail "profile name not applied: $bob_contacts"
"$kith" blob export --home "$work/a" "$work/blobs" > /dev/null
"$kith" blob import --home "$work/b" "$work/blobs"/* > /dev/null
id=$("$kith" log --home "$work/b" --json | python3 -c 'import json,sys; print([m["message_id"] for m in json.load(sys.stdin) if m["type"] == "post"][0])')
# A message id may begin with "-": put it after "--" (README).
"$kith" blob get --home "$work/b" --out "$work/got.txt" -- "$id" > /dev/null
cmp -s "$work/file.txt" "$work/got.txt" || fail "attachment differs"

"$kith" feed import --home "$work/c" --key "$key" "$work/a.jsonl" > /dev/null
stranger=$("$kith" log --home "$work/c")
[[ "$stranger" != *"hello contacts"* ]] || fail "a stranger read a contacts post"
[[ "$stranger" == *"not readable here"* ]] || fail "stranger's log should show the post as unreadable: $stranger"
echo "contacts CLI round trip ok: cards exchanged, contacts post read by the contact only, attachment decrypted"
