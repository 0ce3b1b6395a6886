#!/bin/sh
# Runs the StreakFraming tests (including the 100,000-frame corpus) under AddressSanitizer.
# Uses its own build directory so the normal debug build is not invalidated.
set -eu
cd "$(dirname "$0")/.."
exec swift test --scratch-path .build/asan -Xswiftc -sanitize=address --filter StreakFramingTests "$@"
