#!/usr/bin/env bash
# Untrusted text (post bodies, contact names) reaches the terminal escaped; --json stays exact (issue 11 item 12).
set -euo pipefail
source "$(cd "$(dirname "$0")/.." && pwd)/cli_common.sh"
evil=$'evil\e]0;owned\a\rforged\u202e line'
"$kith" --home "$work/a" init --name A > /dev/null
"$kith" --home "$work/b" init --name B > /dev/null
"$kith" --home "$work/a" post --audience self "$evil" > /dev/null
out=$("$kith" --home "$work/a" log)
if printf '%s' "$out" | grep -q $'\e\|\a\|\r\|\u202e'; then fail "kith log printed raw control characters"; fi
printf '%s' "$out" | grep -qF 'evil\u{1B}]0;owned\u{7}\u{D}forged\u{202E} line' || fail "kith log did not show the escapes"
"$kith" --home "$work/a" log --json | python3 -c 'import json,sys; v=json.load(sys.stdin); items=v if isinstance(v,list) else v.get("messages",[v]); bodies=[(m.get("content") or {}).get("body") for m in items]; sys.exit(0 if sys.argv[1] in bodies else 1)' "$evil" || fail "--json is not exact"
card=$("$kith" --home "$work/b" card --name "$evil")
"$kith" --home "$work/a" contact add "$card" > "$work/add.out"
"$kith" --home "$work/a" contacts > "$work/contacts.out"
if grep -q $'\e\|\a\|\r\|\u202e' "$work/add.out" "$work/contacts.out"; then fail "contact output printed raw control characters"; fi
grep -qF '\u{1B}' "$work/contacts.out" || fail "kith contacts did not show the escapes"
echo "log, contact add and contacts escape controls and bidi overrides; --json exact"
