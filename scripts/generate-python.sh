#!/usr/bin/env bash
# Regenerates the Python protobuf stubs of clients/python from proto/streak/v1/*.proto.
# The stubs live in clients/python/streakd_client/pb/ with their imports made relative
# (protoc writes `from streak.v1 import types_pb2`, which only works with proto/ on sys.path).
# Usage: scripts/generate-python.sh [--check]   (--check: fail when the committed stubs are stale)
set -euo pipefail
cd "$(dirname "$0")/.."

check=0
case "${1:-}" in
  --check) check=1 ;;
  "") ;;
  *) echo "usage: $0 [--check]" >&2; exit 2 ;;
esac

dest=clients/python/streakd_client/pb
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

protoc --proto_path=proto --python_out="$tmp" proto/streak/v1/*.proto
mkdir -p "$tmp/out"
for f in "$tmp"/streak/v1/*_pb2.py; do
  sed -E 's/^from streak\.v1 import /from . import /' "$f" > "$tmp/out/$(basename "$f")"
done
cat > "$tmp/out/__init__.py" <<'PY'
"""Protobuf stubs generated from proto/streak/v1 by scripts/generate-python.sh. Do not edit."""
PY

if [ "$check" -eq 1 ]; then
  if ! diff -ru "$tmp/out" "$dest" >&2; then
    echo "clients/python stubs are stale: run scripts/generate-python.sh" >&2
    exit 1
  fi
  echo "python stubs are fresh ($(protoc --version))"
  exit 0
fi
rm -rf "$dest"
mkdir -p "$dest"
cp "$tmp"/out/* "$dest"/
echo "generated $(ls "$dest" | wc -l) files in $dest with $(protoc --version)"
