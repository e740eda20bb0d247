#!/usr/bin/env bash
# Interop and end-to-end checks, run by scripts/test.sh after `swift test`:
# independent Python implementations (cryptography, PyNaCl, protobuf) against Kith's vectors and CLI output,
# and the `kith` / `kith-vectors` executables driven as a user would.
set -uo pipefail
cd "$(dirname "$0")/.."
venv=.build/interop-venv
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv" || { echo "error: cannot create a Python virtualenv" >&2; exit 1; }
fi
if ! "$venv/bin/python" -c "import cryptography, nacl, google.protobuf, coincurve, Crypto.Hash.keccak, selenium" >/dev/null 2>&1; then
  "$venv/bin/pip" install -q --disable-pip-version-check "cryptography>=44" pynacl "protobuf>=5" coincurve pycryptodome selenium || { echo "error: pip install failed" >&2; exit 1; }
fi
# `kith serve` checks: real WebRTC peers (aiortc: binary wheels, no Debian packages) and the OpenAPI fuzzer.
if ! "$venv/bin/python" -c "import aiortc, websockets, schemathesis" >/dev/null 2>&1; then
  "$venv/bin/pip" install -q --disable-pip-version-check "aiortc==1.16.0" "websockets>=13" "schemathesis==4.32.5" || { echo "error: pip install failed" >&2; exit 1; }
fi
# Push (docs/PUSH.md, docs/PUSH-DELIVERY.md): an independent Web Push application server (pywebpush with py-vapid),
# http_ece, requests; pyjwt verifies VAPID, the FCM RS256 assertion and the APNs ES256 token; h2 serves APNs over HTTP/2.
if ! "$venv/bin/python" -c "import pywebpush, py_vapid, http_ece, requests, jwt, h2" >/dev/null 2>&1; then
  "$venv/bin/pip" install -q --disable-pip-version-check "pywebpush==2.5.0" "py-vapid==1.9.6" "http-ece==1.2.1" requests "pyjwt==2.15.1" "h2==4.4.1" || { echo "error: pip install failed" >&2; exit 1; }
fi
export PYTHON="$PWD/$venv/bin/python"
export KITH="$PWD/.build/debug/kith"

passed=0
failed=0
check() {
  local name=$1
  shift
  if "$@" > ".build/interop-$name.log" 2>&1; then
    passed=$((passed + 1))
    echo "ok   $name: $(tail -n 1 ".build/interop-$name.log")"
  else
    failed=$((failed + 1))
    echo "FAIL $name (log: .build/interop-$name.log)"
    tail -n 20 ".build/interop-$name.log" | sed 's/^/     /'
  fi
}

check feed-vectors "$PYTHON" Interop/feed/check_vectors.py
check feed-cli "$PWD/Interop/feed/cli_roundtrip.sh"
check feed-verify-truth Interop/feed/cli_verify_truth.sh
check ratchet-conversion "$PYTHON" Interop/ratchet/check_conversion.py
check ratchet-session "$PYTHON" Interop/ratchet/check_session.py
check contacts-cli Interop/contacts/cli_contacts.sh
check direct-cli Interop/direct/cli_direct.sh
check trust-concurrent-post Interop/trust/cli_concurrent_post.sh
check trust-terminal-escapes Interop/trust/cli_terminal_escapes.sh
check groups-cli Interop/groups/cli_groups.sh
check groups-key-offers Interop/groups/cli_key_offers.sh
check personas-cli Interop/personas/cli_personas.sh
check push-cli Interop/push/cli_push.sh
check groups-vectors "$PYTHON" Interop/groups/check_vectors.py TestVectors/groups/groups-v1.json
check direct-handover "$PYTHON" Interop/direct/check_handover.py
check tdf-vectors "$PYTHON" Interop/tdf/decrypt_kith_vectors.py TestVectors/nanotdf/kith-dialect-v1.json
check tdf-cli "$PYTHON" Interop/tdf/cli_tdf.py
check tdf-arkavo "$PYTHON" Interop/tdf/opentdfkit_model.py check TestVectors/nanotdf/arkavo-app-files-v1.json TestVectors/nanotdf/kith-to-arkavo-v1.json
check tdf-circle-cli Interop/tdf/cli_circle.sh
check continuity-vectors "$PYTHON" Interop/continuity/check_backup.py TestVectors/continuity/backup-v1.json
check continuity-cli "$PYTHON" Interop/continuity/cli_backup.py
check continuity-recovery-shares "$PYTHON" Interop/continuity/check_recovery_shares.py TestVectors/continuity/recovery-shares-v1.json
check continuity-recovery-cli Interop/continuity/cli_recovery.sh
check continuity-committer-cli Interop/continuity/cli_committer.sh
check continuity-recovery-relay-cli Interop/continuity/cli_recovery_relay.sh
check continuity-move-cli "$PYTHON" Interop/continuity/cli_move.py
check continuity-move-relay-cli "$PYTHON" Interop/continuity/cli_move_relay.py
check continuity-fork-switch-cli Interop/continuity/cli_fork_switch.sh
for script in Interop/contacts/check_*.py; do
  [ -e "$script" ] && check "contacts-$(basename "$script" .py)" "$PYTHON" "$script"
done
check ed25519-strict "$PYTHON" Interop/ed25519/strict_vectors.py check TestVectors/ed25519/strict-v1.json
check serve-cli "$PYTHON" Interop/serve/check_serve.py
check serve-pair-cli Interop/serve/cli_pair.sh
check serve-chat-cli "$PYTHON" Interop/serve/check_chat.py
check serve-inviso-app "$PYTHON" Interop/serve/check_inviso_app.py
check serve-chat-reconnect "$PYTHON" Interop/serve/check_chat_reconnect.py
# Two `kith serve` nodes on one PostgreSQL database (scripts/test.sh passes its throwaway cluster).
if [ -n "${KITH_TEST_POSTGRES_URL:-}" ]; then
  check serve-pair-two-nodes Interop/serve/cli_pair_two_nodes.sh
  check push-two-nodes "$PYTHON" Interop/push/check_two_nodes.py
  # Faults and load (docs/SERVER.md, "Faults and load"): a node killed mid-relay, PostgreSQL restarted, a flood.
  check serve-faults "$PYTHON" Interop/faults/check_faults.py --fail-on-findings
else
  echo "skip serve-pair-two-nodes (no KITH_TEST_POSTGRES_URL)"
fi
check serve-aiortc "$PYTHON" Interop/serve/aiortc_peers.py
check serve-schemathesis env SCHEMATHESIS="$PWD/$venv/bin/schemathesis" Interop/serve/schemathesis.sh
check push-vectors "$PYTHON" TestVectors/push/check_push_vectors.py
check push-service-pywebpush "$PYTHON" Interop/push/check_push_service.py
check push-gateway-chatsecure "$PYTHON" Interop/push/check_gateway.py
check push-gateway-chatsecure-api "$PYTHON" Interop/push/check_chatsecure_api.py
check push-delivery "$PYTHON" Interop/push-delivery/check_push_delivery.py
check example-app .build/debug/kith-example
check convos-appdata "$PYTHON" Interop/convos/appdata_vectors.py check \
  Tests/Vectors/convos/appdata-python-protobuf.json Tests/Vectors/convos/appdata-zlib-fixture.txt
check convos-invites "$PYTHON" Interop/invites/invite_vectors.py check Tests/Vectors/convos-invites/python-invites.json
check invite-page "$PYTHON" Interop/invitepage/check_invite_page.py
check kith-invites "$PYTHON" Interop/invites/kith_invite_vectors.py check TestVectors/invites/kith-invites-v1.json
check invites-cli Interop/invites/cli_invites.sh
check invites-strangers-cli Interop/invites/cli_invite_strangers.sh
# Crash consistency: real kith processes SIGKILLed at random points, store and conversations checked after each
# (short mode, one round per scenario; the long run is `Interop/crash/run_crash.py --rounds 300`, Interop/crash/README.md).
check crash-consistency "$PYTHON" Interop/crash/run_crash.py
check mls-vector-runner .build/debug/kith-vectors mls Tests/Vectors/mls/*.json

echo "interop: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
