#!/usr/bin/env bash
# Fails when committed generated code is stale:
#   - protoc-c output (Sources/CStreakProto, which the Swift package and the C client in clients/c
#     both compile), StreakWire's Swift message types and the tests' reference encoder for them
#     (scripts/generate-proto.sh);
#   - the Python client's generated code (scripts/generate-python.sh --check), when that script exists.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
cd "$repo"

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/Sources/CStreakProto/include" "$tmp/Sources/StreakWire" "$tmp/Tests/StreakWireTests"
scripts/generate-proto.sh "$tmp" >/dev/null

status=0
for dir in Sources/CStreakProto/include/streak Sources/CStreakProto/generated Sources/StreakWire/Generated \
    Tests/StreakWireTests/Generated; do
    if ! diff -r "$tmp/$dir" "$repo/$dir" >"$tmp/diff.txt" 2>&1; then
        echo "error: generated code in $dir is stale; run scripts/generate-proto.sh and commit the result" >&2
        head -n 40 "$tmp/diff.txt" >&2
        status=1
    fi
done

if [ -f scripts/generate-python.sh ]; then
    bash scripts/generate-python.sh --check || {
        echo "error: the Python client's generated code is stale; run scripts/generate-python.sh" >&2
        status=1
    }
fi

if [ "$status" -eq 0 ]; then
    echo "generated code is up to date"
fi
exit "$status"
