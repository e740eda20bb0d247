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
