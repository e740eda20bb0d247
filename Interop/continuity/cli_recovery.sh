#!/usr/bin/env bash
# Recovery through contacts end to end through the `kith` CLI (docs/CONTINUITY.md): Alice makes Bob and Carol her
# guardians (2 of 2), the shares reach them over their direct channels, a revocation makes them delete their shares,
# a new set carries Alice's backup key, a new device asks, each guardian releases only after the safety code matches,
# one release is not enough, both rebuild Alice's identity into a new home restored from the backup with a
# device_migration rotation Bob verifies, and the request is single use. Loopback only (no network at all).
set -euo pipefail
source "$(cd "$(dirname "$0")/.." && pwd)/cli_common.sh"

alice_with_two_contacts
kith_to "$work/alice-id.json" id --home "$work/a" --json
alice=$(json_field "$work/alice-id.json" feed_id)

"$kith" recovery setup --home "$work/a" --threshold 2 Bob Carol > /dev/null || fail "setup failed"
"$kith" recovery status --home "$work/a" --json | python3 -c '
import json, sys
s = json.load(sys.stdin)
assert s["configured"] and s["threshold"] == 2 and len(s["guardians"]) == 2 and s["generation"] == 1, s' || fail "status"
sync_all
for who in b c; do
  "$kith" recovery held --home "$work/$who" --json | python3 -c '
import json, sys
held = json.load(sys.stdin)
assert [h["name"] for h in held] == ["Alice"], held' || fail "$who does not hold Alice's share"
done
"$kith" recovery held --home "$work/b" | grep -q "You hold a recovery share for Alice" || fail "held text"

# Revocation: both guardians delete the share; a new set (carrying the backup key) is handed over again.
"$kith" recovery revoke --home "$work/a" > /dev/null || fail "revoke failed"
"$kith" recovery status --home "$work/a" > "$work/status.txt" || fail "status after revoke"
grep -q "REVOKED" "$work/status.txt" || fail "status after revoke: $(cat "$work/status.txt")"
sync_all
for who in b c; do
  [ "$("$kith" recovery held --home "$work/$who" --json)" = "[]" ] || fail "$who still holds a revoked share"
done
"$kith" backup schedule --home "$work/a" --dir "$work/bk0" --keep 1 --key-file "$work/backup.key" > /dev/null 2>&1 || fail "backup key"
"$kith" recovery setup --home "$work/a" --threshold 2 --backup-key-file "$work/backup.key" Bob Carol > /dev/null || fail "setup 2"
"$kith" recovery status --home "$work/a" --json | python3 -c '
import json, sys
s = json.load(sys.stdin)
assert s["carries_backup_key"] and s["generation"] == 2 and not s["stale"] and s["revoked_at"] is None, s' || fail "status 2"
sync_all
"$kith" backup schedule --home "$work/a" --dir "$work/bk" --keep 1 --key-file "$work/backup.key" > /dev/null 2>&1 || fail "backup"
backup_file=$(ls "$work"/bk/*.kithbackup)

# The new device.
"$kith" init --home "$work/n" > /dev/null
kith_to "$work/request.json" recovery request --home "$work/n" "$alice" --json
request=$(json_field "$work/request.json" request)
code=$(json_field "$work/request.json" safety_code)

# A wrong code releases nothing.
set +e
"$kith" recovery release --home "$work/b" Alice --request "$request" --code "0000 0000 0000" > "$work/wrong.out" 2> "$work/wrong.err"; wrong=$?
set -e
[ "$wrong" -ne 0 ] && [ ! -s "$work/wrong.out" ] && grep -q "safety codes differ" "$work/wrong.err" || fail "wrong code: $(cat "$work/wrong.err")"

release_b=$("$kith" recovery release --home "$work/b" Alice --request "$request" --code "$code") || fail "Bob's release"
release_c=$("$kith" recovery release --home "$work/c" "$alice" --request "$request" --code "$code") || fail "Carol's release"

set +e
"$kith" recovery combine --home "$work/n" "$release_b" > /dev/null 2> "$work/one.err"; one=$?
"$kith" recovery combine --home "$work/n" "$release_b" "$release_b" > /dev/null 2> "$work/replay.err"; replay=$?
set -e
[ "$one" -ne 0 ] && grep -q "1 recovery share(s) given, 2 needed" "$work/one.err" || fail "one release: $(cat "$work/one.err")"
[ "$replay" -ne 0 ] && grep -q "already handed in" "$work/replay.err" || fail "replayed release: $(cat "$work/replay.err")"

"$kith" recovery combine --home "$work/n" "$release_c" "$release_b" --into "$work/r" --backup "$backup_file" --json > "$work/combine.json" || fail "combine"
python3 -c '
import json, sys
c = json.load(open(sys.argv[1]))
assert c["feed_id"] == sys.argv[2] and c["carried_backup_key"] and c["restored_backup"], c
assert c["device_migration_published"] and not c["awaiting_own_feed"], c' "$work/combine.json" "$alice" || fail "combine: $(cat "$work/combine.json")"
# Bob syncs the moved feed: the device_migration rotation is verified (signed by the old key).
"$kith" feed export --home "$work/r" > "$work/r.jsonl"
"$kith" feed import --home "$work/b" "$work/r.jsonl" > /dev/null
"$kith" contacts --home "$work/b" --json | python3 -c '
import json, sys
rotations = json.load(sys.stdin)["key_rotations"]
assert [r["verified"] for r in rotations if r["feed_id"] == sys.argv[1]] == [True], rotations' "$alice" || fail "Bob does not see a verified move"
kith_to "$work/rebuilt-id.json" id --home "$work/r" --json
rebuilt=$(json_field "$work/rebuilt-id.json" feed_id)
[ "$rebuilt" = "$alice" ] || fail "the rebuilt home is $rebuilt, not $alice"

# Single use: the request is gone.
set +e
"$kith" recovery combine --home "$work/n" "$release_c" "$release_b" > /dev/null 2> "$work/again.err"; again=$?
set -e
[ "$again" -ne 0 ] && grep -q "no recovery request is pending" "$work/again.err" || fail "reuse: $(cat "$work/again.err")"
# Without a backup the rebuilt home holds only the identity and refuses to post before it knows its feed.
kith_to "$work/request2.json" recovery request --home "$work/n" "$alice" --json
request2=$(json_field "$work/request2.json" request)
code2=$(json_field "$work/request2.json" safety_code)
r2b=$("$kith" recovery release --home "$work/b" Alice --request "$request2" --code "$code2") || fail "Bob's second release"
r2c=$("$kith" recovery release --home "$work/c" Alice --request "$request2" --code "$code2") || fail "Carol's second release"
"$kith" recovery combine --home "$work/n" "$r2b" "$r2c" --into "$work/r2" --json > "$work/combine2.json" || fail "combine without backup"
python3 -c '
import json, sys
c = json.load(open(sys.argv[1]))
assert not c["restored_backup"] and not c["device_migration_published"] and c["awaiting_own_feed"], c' "$work/combine2.json" || fail "combine2: $(cat "$work/combine2.json")"
set +e
"$kith" post --home "$work/r2" "too early" > /dev/null 2> "$work/early.err"; early=$?
set -e
[ "$early" -ne 0 ] && grep -q "rebuilt through guardians without a backup" "$work/early.err" || fail "early post: $(cat "$work/early.err")"

echo "recovery CLI ok: 2-of-2 guardians, revocation deletes held shares, the set carries the backup key, safety code checked, one release and a replay refused, identity rebuilt and restored from the backup, verified device_migration, request single use, a home rebuilt without a backup does not post before it knows its feed"
