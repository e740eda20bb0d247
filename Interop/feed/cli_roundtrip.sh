#!/usr/bin/env bash
# End-to-end: `kith` authors and exports a feed that the independent Python verifier accepts;
# a Python-authored feed is accepted by `kith feed verify` and `kith feed import`; tampering,
# wrong passphrases and missing homes give the documented exit codes and one-line errors.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$(cd "$(dirname "$0")/.." && pwd)/cli_common.sh"
python="${PYTHON:-python3}"
expect_exit() {  # expect_exit CODE command...
  local want=$1; shift
  set +e; "$@" > "$work/out" 2> "$work/err"; local got=$?; set -e
  [ "$got" -eq "$want" ] || { cat "$work/out" "$work/err" >&2; fail "expected exit $want, got $got: $*"; }
}

# 1. kith authors a feed; Python verifies it.
"$kith" --home "$work/a" init --name Alice > /dev/null
"$kith" --home "$work/a" post --audience self "first"
"$kith" --home "$work/a" post --audience self "Grüße aus 東京 🌏 \"quoted\" \\ back/slash"
key=$("$kith" --home "$work/a" id --json | "$python" -c 'import json,sys; print(json.load(sys.stdin)["identity_key"])')
"$kith" --home "$work/a" feed export --include-self > "$work/full.jsonl"
"$kith" --home "$work/a" feed export > "$work/peer.jsonl"
"$python" "$here/verify_feed.py" --key "$key" "$work/full.jsonl"
"$python" "$here/verify_feed.py" --key "$key" "$work/peer.jsonl"
"$kith" feed verify --key "$key" "$work/full.jsonl" > /dev/null

# 2. Python authors a feed; kith verifies and imports it.
pykey=$("$python" "$here/make_feed.py" 8f1e0c6a2b7d4e5f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f7 "$work/py.jsonl" 6)
"$kith" feed verify --key "$pykey" "$work/py.jsonl" > /dev/null
"$kith" --home "$work/a" feed import --key "$pykey" "$work/py.jsonl" > /dev/null
"$kith" --home "$work/a" feed import --key "$pykey" "$work/py.jsonl" | grep -q "6 duplicate" || fail "re-import is not a no-op"

# 3. Tampering is reported with a reason code and exit 1, by kith and by Python.
sed '3s/"timestamp":1763800002/"timestamp":1763800009/' "$work/py.jsonl" > "$work/tampered.jsonl"
expect_exit 1 "$kith" feed verify --key "$pykey" "$work/tampered.jsonl"
grep -q "line 3: sequence 2: bad_signature" "$work/out" || fail "kith did not report bad_signature on line 3"
expect_exit 1 "$python" "$here/verify_feed.py" --key "$pykey" "$work/tampered.jsonl"
grep -q "bad_signature" "$work/out" || fail "python did not report bad_signature"
expect_exit 1 "$kith" feed verify --key "$key" "$work/py.jsonl"
grep -q "feed_id_mismatch" "$work/out" || fail "wrong key not reported"

# 4. Errors: wrong passphrase (4), no passphrase when not interactive (4), no identity (3), bad input (2).
KITH_PASSPHRASE=wrong expect_exit 4 "$kith" --home "$work/a" post --audience self "x"
[ "$(wc -l < "$work/err")" -eq 1 ] || fail "error output is not one line"
grep -q "wrong passphrase" "$work/err" || fail "wrong passphrase message"
env -u KITH_PASSPHRASE "$kith" --home "$work/a" post --audience self "x" < /dev/null > "$work/out" 2> "$work/err" && fail "post without passphrase succeeded" || true
grep -q "KITH_PASSPHRASE" "$work/err" || fail "missing passphrase message"
expect_exit 3 "$kith" --home "$work/nobody" log
expect_exit 2 "$kith" feed verify --key "not-a-key" "$work/py.jsonl"
expect_exit 2 "$kith" --home "$work/a" post --audience "everyone" "x"
expect_exit 2 "$kith" --home "$work/a" init

# 5. The demo runs.
"$kith" demo --home "$work/demo" > "$work/demo.log"
grep -q "Done." "$work/demo.log" || fail "demo did not finish"
echo "OK: kith -> python, python -> kith, tampering, exit codes and demo all behave"
