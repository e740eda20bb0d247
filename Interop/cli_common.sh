# Sourced by the CLI interop scripts: a throwaway work folder removed on exit, the kith binary
# from $KITH, a fixed test passphrase, quiet logs, and `fail MESSAGE`.
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
kith="${KITH:?set KITH to the kith binary}"
export KITH_PASSPHRASE="interop test passphrase"
export KITH_LOG_LEVEL=error
fail() { echo "FAILED: $*" >&2; exit 1; }

# Three homes a (Alice), b (Bob), c (Carol): Alice is a contact of both, Bob and Carol do not know each other.
alice_with_two_contacts() {
  for who in a b c; do "$kith" init --home "$work/$who" > /dev/null; done
  local card_a
  card_a=$("$kith" card --home "$work/a" --name Alice)
  "$kith" contact add --home "$work/b" --name Alice "$card_a" > /dev/null
  "$kith" contact add --home "$work/c" --name Alice "$card_a" > /dev/null
  "$kith" contact add --home "$work/a" --name Bob "$("$kith" card --home "$work/b" --name Bob)" > /dev/null
  "$kith" contact add --home "$work/a" --name Carol "$("$kith" card --home "$work/c" --name Carol)" > /dev/null
}

# Two homes a (Alice) and b (Bob), contacts of each other.
alice_and_bob() {
  for who in a b; do "$kith" init --home "$work/$who" > /dev/null; done
  "$kith" contact add --home "$work/b" --name Alice "$("$kith" card --home "$work/a" --name Alice)" > /dev/null
  "$kith" contact add --home "$work/a" --name Bob "$("$kith" card --home "$work/b" --name Bob)" > /dev/null
}

# Sync stand-in for homes a, b and c: every home imports the feeds of the others that it follows.
sync_all() {
  for from in a b c; do "$kith" feed export --home "$work/$from" > "$work/$from.jsonl"; done
  for to in a b c; do
    for from in a b c; do
      [ "$from" = "$to" ] && continue
      "$kith" feed import --home "$work/$to" "$work/$from.jsonl" > /dev/null 2>&1 || true
    done
  done
}

# One real TCP sync session between homes a (Alice) and b (Bob): Bob listens on a free loopback port, Alice connects
# (the listener's start is waited for up to 60 s: the machine may be loaded).
sync_ab() {
  : > "$work/listen.log"
  "$kith" sync listen --home "$work/b" --port 0 --once > /dev/null 2> "$work/listen.log" &
  local pid=$! port=""
  for _ in $(seq 1 1200); do
    port=$(sed -n 's/.*listening on 127.0.0.1:\([0-9]*\).*/\1/p' "$work/listen.log")
    [ -n "$port" ] && break
    sleep 0.05
  done
  [ -n "$port" ] || fail "the listener did not start"
  "$kith" sync connect --home "$work/a" "127.0.0.1:$port" --contact Bob > /dev/null 2>&1 || true
  wait "$pid" || true
}

# Starts `kith serve` (home $work/srv) on a free loopback port and stops it on exit; sets serve_pid, port and
# server (http://127.0.0.1:PORT). An `answer_pid` the script sets later is stopped on exit too.
# Extra arguments go to `kith serve` (e.g. --allow-private-push-endpoints).
start_kith_serve() {
  "$kith" serve --home "$work/srv" --port 0 "$@" > "$work/serve.out" 2> "$work/serve.err" &
  serve_pid=$!
  trap 'kill "$serve_pid" 2>/dev/null || true; kill "${answer_pid:-}" 2>/dev/null || true; rm -rf "$work"' EXIT
  for _ in $(seq 1 100); do [ -s "$work/serve.out" ] && break; sleep 0.1; done
  port=$(sed -n 's/^kith serve: listening on http:\/\/127\.0\.0\.1:\([0-9]*\) .*/\1/p' "$work/serve.out")
  [ -n "$port" ] || fail "kith serve did not print its port: $(cat "$work/serve.out" "$work/serve.err")"
  server="http://127.0.0.1:$port"
}

# Runs `kith ARGS…` with its standard output in FILE: `kith_to FILE ARGS…`. Fails naming the command, its exit status
# (and signal) and its standard error when kith fails or prints nothing, so a failure says which command and why.
kith_to() {
  local out=$1 rc=0
  shift
  "$kith" "$@" > "$out" 2> "$out.err" || rc=$?
  if [ "$rc" -ne 0 ] || [ ! -s "$out" ]; then
    local how="exit status $rc"
    [ "$rc" -gt 128 ] && how="$how (signal $((rc - 128)))"
    fail "kith $* ended with $how after printing $(wc -c < "$out") bytes; stderr: $(head -c 2000 "$out.err")"
  fi
}

# Prints one top-level field of the JSON object in FILE: `json_field FILE KEY`.
json_field() {
  python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$1" "$2" || fail "no field $2 in $1: $(head -c 2000 "$1")"
}
