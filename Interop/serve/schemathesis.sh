#!/usr/bin/env bash
# The REST API against its own OpenAPI document (GET /openapi.json), with schemathesis (PyPI):
# starts `kith serve` on a free loopback port with a throwaway home (rate limits raised so the
# fuzzer reaches the handlers; 429s still conform), then checks that no request gets a 5xx and
# that every status code, content type, header and body is one the document declares.
# Needs $KITH and a venv with schemathesis on PATH or $SCHEMATHESIS. Loopback only; ~1 minute.
set -euo pipefail
schemathesis=${SCHEMATHESIS:-schemathesis}
home=$(mktemp -d)
log=$(mktemp)
cleanup() {
  [ -n "${server:-}" ] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null
  rm -rf "$home" "$log"
}
trap cleanup EXIT
printf 'schemathesis-turn-secret' > "$home/turn-secret"
KITH_LOG_LEVEL=error "$KITH" --home "$home" serve --port 0 --request-rate 10000 --guess-rate 100000 \
  --turn-secret-file "$home/turn-secret" --turn-uri turn:127.0.0.1:3478 > "$log" 2>&1 &
server=$!
port=""
for _ in $(seq 1 100); do
  port=$(sed -n 's|^kith serve: listening on http://127\.0\.0\.1:\([0-9]*\) .*|\1|p' "$log" | head -n 1)
  [ -n "$port" ] && break
  sleep 0.1
done
[ -n "$port" ] || { echo "kith serve did not start:"; cat "$log"; exit 1; }
base="http://127.0.0.1:$port"
set +e
cd "$home"  # schemathesis keeps its cache (.schemathesis/) in the working directory
"$schemathesis" run "$base/openapi.json" --url "$base" \
  --checks not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance,response_schema_conformance,negative_data_rejection,unsupported_method,allow_header_conformance \
  --phases examples,coverage,fuzzing \
  --max-examples "${SCHEMATHESIS_MAX_EXAMPLES:-100}" --seed 14 --workers 1 --request-timeout 10 \
  --suppress-health-check all --no-color > "$home/report.txt" 2>&1
status=$?
set -e
tail -n 60 "$home/report.txt"
kill -0 "$server" || { echo "kith serve died during the run"; exit 1; }
[ "$status" -eq 0 ] || exit "$status"
echo "schemathesis: the REST API conforms to its /openapi.json ($(grep -Eo '[0-9]+ generated, [0-9]+ passed' "$home/report.txt" | tail -n 1))"
