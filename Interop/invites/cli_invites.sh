#!/usr/bin/env bash
# End-to-end with the CLI: Alice makes a single-use invite to her group; Bob (her contact) accepts it and is added
# after a sync; Carol's second use is refused; Alice revokes, the old multi-use invite is refused, a new one works.
# `kith invite show` decodes a Kith invite (own and a contact's) with the signer check, and prints a stranger's
# markup inert.
set -euo pipefail
source "$(cd "$(dirname "$0")/.." && pwd)/cli_common.sh"

alice_with_two_contacts

members() { "$kith" group show --home "$work/a" "$1" --json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["members"]))'; }

group=$("$kith" group create --home "$work/a" climb --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["group_id"])')
made=$("$kith" invite create --home "$work/a" climb --single-use --expires-in 1d --name $'Climb\e[31m' --description '<b>x</b>' --json)
url=$(echo "$made" | python3 -c 'import json,sys; print(json.load(sys.stdin)["url"])')
[[ "$url" == kith://invite/* ]] || fail "no kith URL: $made"
"$kith" invite create --home "$work/a" climb > "$work/qr.txt"
grep -q $'\u2588' "$work/qr.txt" || fail "invite create drew no QR code"

shown=$("$kith" invite show --home "$work/b" "$url" --json)
[[ "$shown" == *'"signer_check":"known_contact"'* ]] || fail "Bob does not see Alice's invite key: $shown"
[[ "$("$kith" invite show --home "$work/a" "$url" --json)" == *'"signer_check":"own_invite"'* ]] || fail "own invite not recognised"
# Reading an invite needs no identity: a home without one shows it, its signer not compared with contacts.
bare=$("$kith" invite show --home "$work/nobody" "$url" --json) || fail "invite show without an identity failed"
[[ "$bare" == *'"signer_check":"not_compared"'* ]] || fail "invite show without an identity: $bare"
text=$("$kith" invite show --home "$work/b" "$url")
[[ "$text" != *$'\e'* ]] || fail "an escape sequence from the invite reached the terminal"
[[ "$text" == *"single use:             yes"* ]] || fail "show text lacks fields: $text"

"$kith" invite accept --home "$work/b" "$url" > /dev/null
sync_all
sync_all
[ "$(members "$group")" = 2 ] || fail "Bob was not added"
[[ "$("$kith" group show --home "$work/b" "$group" --json)" == *'"status":"active"'* ]] || fail "Bob did not join"

"$kith" invite accept --home "$work/c" "$url" > /dev/null
sync_all
sync_all
[ "$(members "$group")" = 2 ] || fail "the single-use invite admitted twice"

multi=$("$kith" invite create --home "$work/a" climb --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["url"])')
"$kith" invite revoke --home "$work/a" climb > /dev/null
"$kith" invite accept --home "$work/c" "$multi" > /dev/null
sync_all
sync_all
[ "$(members "$group")" = 2 ] || fail "a revoked invite admitted"

fresh=$("$kith" invite create --home "$work/a" climb --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["url"])')
"$kith" invite accept --home "$work/c" "$fresh" > /dev/null
sync_all
sync_all
[ "$(members "$group")" = 3 ] || fail "the invite made after the revocation did not work"

# A Convos invite (made by Interop/invites/invite_vectors.py): every field, the XMTP inbox binding and its nonce.
root="$(cd "$(dirname "$0")/../.." && pwd)"
convos=$(python3 -c 'import json,sys; v=[x for x in json.load(open(sys.argv[1]))["vectors"] if x["name"]=="all-fields-nonce-1"][0]; print(v["url"])' \
  "$root/Tests/Vectors/convos-invites/python-invites.json")
shown=$("$kith" invite show --home "$work/b" "$convos" --json)
[[ "$shown" == *'"signer_check":"inbox_binding"'* && "$shown" == *'"binding_nonce":1'* ]] || fail "Convos invite binding not shown: $shown"
[[ "$shown" == *'"name":"Book club"'* && "$shown" == *'"expires_after_use":true'* ]] || fail "Convos invite fields missing: $shown"

set +e; out=$("$kith" invite show --home "$work/b" "kith://invite/short" 2>&1); code=$?; set -e
[ "$code" -eq 2 ] || fail "a malformed invite: expected exit 2, got $code ($out)"
echo "invites through the CLI: ok"
