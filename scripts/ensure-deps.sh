#!/usr/bin/env bash
# Installs the Debian packages Streakd needs when any is missing. Safe to run repeatedly.
# Usage: scripts/ensure-deps.sh [extra-package ...]
set -euo pipefail
needed=(pkg-config libprotobuf-c-dev protobuf-c-compiler protobuf-compiler libsqlite3-dev libpq-dev zlib1g-dev libssl-dev openssl "$@")
missing=()
for p in "${needed[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing Debian packages: ${missing[*]}" >&2
sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
