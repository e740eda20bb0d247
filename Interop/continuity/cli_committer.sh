#!/usr/bin/env bash
# A group's committer restored from a backup, through the `kith` CLI (docs/CONTINUITY.md section 8, "When the
# committer was the one restored"): Alice commits a group with Bob and Carol, loses her phone, restores her backup on a
# new home and publishes a device_migration rotation; her readmission request to one member carries her warrant, that
# member readmits her with one commit, the other member accepts it, and Alice is the committer again: she sends and
# removes a member. Feeds travel by export/import (sync stand-in). Loopback only (no network at all).
set -euo pipefail
source "$(cd "$(dirname "$0")/.." && pwd)/cli_common.sh"

alice_with_two_contacts
"$kith" group keys share --home "$work/b" Alice > /dev/null
"$kith" group keys share --home "$work/c" Alice > /dev/null
sync_all
kith_to "$work/group.json" group create --home "$work/a" rope --json
group=$(json_field "$work/group.json" group_id)
"$kith" group add --home "$work/a" rope Bob Carol > /dev/null || fail "add"
sync_all
for who in b c; do
  kith_to "$work/show-$who.json" group show --home "$work/$who" "$group" --json
  [ "$(json_field "$work/show-$who.json" status)" = active ] || fail "$who did not join"
done

kith_to "$work/backup.json" backup create --home "$work/a" "$work/a.kithbackup" --json
key=$(json_field "$work/backup.json" recovery_key)
# The phone is lost: the restored home takes its place.
KITH_BACKUP_KEY="$key" "$kith" --home "$work/r" backup restore "$work/a.kithbackup" > /dev/null || fail "restore"
mv "$work/a" "$work/lost"
mv "$work/r" "$work/a"
"$kith" rotate-keys --home "$work/a" --reason device_migration > /dev/null || fail "rotation"
kith_to "$work/waiting.json" backup status --home "$work/a" --json
python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))
assert s["groups_waiting"] == [sys.argv[2]], s' "$work/waiting.json" "$group" || fail "status does not list the waiting group: $(cat "$work/waiting.json")"
"$kith" backup status --home "$work/a" | grep -q "kith backup readmit ${group:0:8} --via CONTACT" || fail "status text names no way to ask again"
sync_all
sync_all

kith_to "$work/status.json" backup status --home "$work/a" --json
python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))
assert s["complete"] and s["groups_readmitted"] == 1, s' "$work/status.json" || fail "not readmitted: $(cat "$work/status.json")"
kith_to "$work/show-a.json" group show --home "$work/a" "$group" --json
python3 -c '
import json, sys
g = json.load(open(sys.argv[1]))
assert g["status"] == "active" and g["is_committer"], g' "$work/show-a.json" || fail "Alice is not the committer again: $(cat "$work/show-a.json")"
for who in b c; do
  kith_to "$work/show-$who.json" group show --home "$work/$who" "$group" --json
  [ "$(json_field "$work/show-$who.json" epoch)" = "$(json_field "$work/show-a.json" epoch)" ] || fail "$who is not at Alice's epoch"
done

set +e
"$kith" backup readmit --home "$work/a" "${group:0:8}" --via Bob > /dev/null 2> "$work/readmit.err"; readmit=$?
set -e
[ "$readmit" -ne 0 ] && grep -q "no group waiting for readmission" "$work/readmit.err" || fail "readmit after readmission: $(cat "$work/readmit.err")"

"$kith" group send --home "$work/a" rope "back on the rope" > /dev/null || fail "send"
sync_all
for who in b c; do
  [[ "$("$kith" log --home "$work/$who" --group "$group")" == *"back on the rope"* ]] || fail "$who cannot read the restored committer"
done
"$kith" group remove --home "$work/a" rope Carol > /dev/null || fail "the restored committer cannot commit"
sync_all
kith_to "$work/show-b2.json" group show --home "$work/b" "$group" --json
python3 -c '
import json, sys
g = json.load(open(sys.argv[1]))
assert len(g["members"]) == 2, g' "$work/show-b2.json" || fail "Bob did not see the removal: $(cat "$work/show-b2.json")"
echo "restored committer CLI ok: backup restored, the waiting group listed, warrant to one member, readmitted by its commit, the other member followed, the committer sent and removed a member, asking again refused"
