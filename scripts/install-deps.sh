#!/usr/bin/env bash
# Installs the Debian packages Kith needs, if missing (idempotent). Uses sudo when not root.
# Swift 6.3 itself is expected to be installed already (https://swift.org/install).
set -euo pipefail

packages=(
  pkg-config        # locates the system libraries below
  libsqlite3-dev    # GRDB (KithStore)
  libzstd-dev       # sync compression (KithSync)
  zlib1g-dev        # Convos appData DEFLATE (KithGroups)
  libqrencode-dev   # contact-card QR codes
  libsecp256k1-dev  # signed invites
  postgresql        # the PostgreSQL rendezvous store's tests (a throwaway cluster, scripts/postgres-cluster.sh)
  python3           # interop tests (independent Python implementations)
  python3-venv
  python3-pip
  time              # peak-memory checks in the CLI interop scripts
  chromium          # the invite page's headless browser check (Interop/invitepage)
  chromium-driver   # WebDriver for that check (Selenium)
)

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

# A Python that is not Debian's (e.g. pyenv) brings its own venv and pip.
if command -v python3 >/dev/null 2>&1 && python3 -c "import venv, ensurepip" >/dev/null 2>&1; then
  filtered=()
  for package in "${missing[@]}"; do
    case "$package" in python3|python3-venv|python3-pip) ;; *) filtered+=("$package") ;; esac
  done
  missing=("${filtered[@]+"${filtered[@]}"}")
fi

if [ "${#missing[@]}" -gt 0 ]; then
  echo "Installing: ${missing[*]}"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

if ! command -v swift >/dev/null 2>&1; then
  echo "error: swift is not on PATH; install Swift 6.3 first (https://swift.org/install)" >&2
  exit 1
fi
