# Sourced by the CLI interop scripts: a throwaway work folder removed on exit, the kith binary
# from $KITH, a fixed test passphrase, quiet logs, and `fail MESSAGE`.
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
kith="${KITH:?set KITH to the kith binary}"
export KITH_PASSPHRASE="interop test passphrase"
export KITH_LOG_LEVEL=error
fail() { echo "FAILED: $*" >&2; exit 1; }
