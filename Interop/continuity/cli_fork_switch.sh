#!/usr/bin/env bash
# Fork switch end to end through the `kith` CLI (docs/CONTINUITY.md section 3): Bob backs up; his old (stolen) phone
# keeps posting and Alice imports it; Bob restores on a new device and rotates (device_migration) at the sequence the
# old phone used, so Alice records a fork. She switches Bob's feed to the rotation's branch (`kith feed forks
# --switch Bob`), reads Bob's next post, never the thief's, and the thief's entry stays as evidence. Refusals (the own
# feed, an unknown entry) exit 2 and change nothing. Loopback only (no network at all).
set -euo pipefail
source "$(cd "$(dirname "$0")/.." && pwd)/cli_common.sh"

alice_and_bob
"$kith" post --home "$work/b" --audience contacts "before the theft" > /dev/null
"$kith" feed export --home "$work/b" > "$work/b.jsonl"
"$kith" feed import --home "$work/a" "$work/b.jsonl" > /dev/null
key=$("$kith" backup create --home "$work/b" "$work/b.kithbackup" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["recovery_key"])')

# The stolen phone posts after the backup; Alice imports it.
"$kith" post --home "$work/b" --audience contacts "thief one" > /dev/null
"$kith" feed export --home "$work/b" > "$work/b.jsonl"
"$kith" feed import --home "$work/a" "$work/b.jsonl" > /dev/null

# Bob, restored on a new device, rotates at the sequence the stolen phone used: Alice records a fork.
KITH_BACKUP_KEY="$key" "$kith" backup restore --home "$work/n" "$work/b.kithbackup" > /dev/null
"$kith" rotate-keys --home "$work/n" --reason device_migration > /dev/null
"$kith" feed export --home "$work/n" > "$work/n.jsonl"
"$kith" feed import --home "$work/a" "$work/n.jsonl" > /dev/null 2>&1 || true
"$kith" feed forks --home "$work/a" --json > "$work/forks.json"
read -r kept other < <(python3 -c '
import json, sys
forks = json.load(open(sys.argv[1]))
assert len(forks) == 1, forks
print(forks[0]["kept_message_id"], forks[0]["conflicting_message_id"])' "$work/forks.json") || fail "no fork recorded: $(cat "$work/forks.json")"
"$kith" log --home "$work/a" --json | grep -q "thief one" || fail "Alice does not hold the thief's entry before the switch"

# Refusals exit 2 and change nothing.
alice=$("$kith" id --home "$work/a" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["feed_id"])')
set +e
"$kith" feed forks --home "$work/a" --switch "$alice" > /dev/null 2> "$work/own.err"; own=$?
"$kith" feed forks --home "$work/a" --switch Bob --to "not-recorded" > /dev/null 2> "$work/unknown.err"; unknown=$?
set -e
[ "$own" -eq 2 ] && grep -q "own feed" "$work/own.err" || fail "own feed: $own $(cat "$work/own.err")"
[ "$unknown" -eq 2 ] && grep -q "not recorded" "$work/unknown.err" || fail "unknown entry: $unknown $(cat "$work/unknown.err")"
"$kith" feed forks --home "$work/a" --json | python3 -c '
import json, sys
forks = json.load(sys.stdin)
assert len(forks) == 1 and forks[0]["acknowledged_at"] is None, forks' || fail "a refusal changed the evidence"

# The switch: Bob's rotation is adopted, the thief's entry dropped and kept as evidence.
"$kith" feed forks --home "$work/a" --switch Bob --json | python3 -c '
import json, sys
report = json.load(sys.stdin)
assert report["adopted"] == [sys.argv[1]] and report["dropped"] == [sys.argv[2]], report
assert report["keys_changed"] is True, report' "$other" "$kept" || fail "switch report"
"$kith" feed forks --home "$work/a" --all --json | python3 -c '
import json, sys
forks = json.load(sys.stdin)
assert [(f["kept_message_id"], f["conflicting_message_id"]) for f in forks] == [(sys.argv[1], sys.argv[2])], forks
assert forks[0]["acknowledged_at"] is not None, forks' "$other" "$kept" || fail "evidence after the switch"
"$kith" log --home "$work/a" --json | grep -q "thief one" && fail "the thief's entry is still shown"

# Bob's next post imports and reads; the thief's next one never shows.
"$kith" post --home "$work/n" --audience contacts "it is really me" > /dev/null
"$kith" feed export --home "$work/n" > "$work/n.jsonl"
"$kith" feed import --home "$work/a" "$work/n.jsonl" > /dev/null
"$kith" post --home "$work/b" --audience contacts "thief two" > /dev/null
"$kith" feed export --home "$work/b" > "$work/b.jsonl"
"$kith" feed import --home "$work/a" "$work/b.jsonl" > /dev/null 2>&1 || true
"$kith" log --home "$work/a" --json > "$work/log.json"
grep -q "it is really me" "$work/log.json" || fail "Bob's post after the switch is not shown"
grep -q "thief" "$work/log.json" && fail "a thief's entry is shown after the switch"
echo "fork switched to Bob's rotation; his next post read, the thief's branch kept as evidence; refusals change nothing"
