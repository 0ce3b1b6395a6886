#!/usr/bin/env bash
# Regenerates the code derived from proto/streak/v1/*.proto:
#   - protoc-c output: headers in Sources/CStreakProto/include/streak/v1/,
#     sources in Sources/CStreakProto/generated/streak/v1/;
#   - the Swift message types of StreakWire: Sources/StreakWire/Generated/ (scripts/generate-wire-swift.py),
#     and the tests' reference encoder for them: Tests/StreakWireTests/Generated/;
#   - without OUTPUT_ROOT, also the Python client's stubs (scripts/generate-python.sh).
# The C client (clients/c) compiles the protoc-c output above: there is no second copy.
# Usage: scripts/generate-proto.sh [OUTPUT_ROOT]   (default: the repository; check-generated.sh uses a temp copy)
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$repo}"
command -v protoc-c >/dev/null || { echo "protoc-c missing: run scripts/ensure-deps.sh" >&2; exit 1; }

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
(cd "$repo/proto" && protoc-c --c_out="$tmp" -I. streak/v1/*.proto)

headers="$out/Sources/CStreakProto/include/streak/v1"
sources="$out/Sources/CStreakProto/generated/streak/v1"
rm -rf "$headers" "$sources"
mkdir -p "$headers" "$sources"
cp "$tmp"/streak/v1/*.pb-c.h "$headers/"
cp "$tmp"/streak/v1/*.pb-c.c "$sources/"
# The sources include "streak/v1/X.pb-c.h", found through the target's include/ directory.

swift_out="$out/Sources/StreakWire/Generated"
rm -rf "$swift_out"
mkdir -p "$swift_out"
test_out="$out/Tests/StreakWireTests/Generated"
rm -rf "$test_out"
mkdir -p "$test_out"
python3 "$repo/scripts/generate-wire-swift.py" --proto "$repo/proto/streak/v1" --out "$swift_out" --test-out "$test_out"

if [ $# -eq 0 ]; then
    bash "$repo/scripts/generate-python.sh"
fi
