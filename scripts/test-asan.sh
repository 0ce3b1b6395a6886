#!/bin/sh
# Runs the StreakFramingTests (the 100,000-stream framing corpus, split prefaces), the
# StreakWireTests (protobuf-c decoding through the C shim's bounded arena, its mutation corpus)
# and the StreakTLSTests (the TLS shim CTLS: handshakes, reads and writes of every size between
# two sessions over memory BIOs, verification failures, reloads) under AddressSanitizer with
# LeakSanitizer on. CTLS is instrumented like CStreakProto; the system's OpenSSL is not rebuilt,
# but its mallocs and frees are intercepted. `--sanitize=address` instruments the Swift
# targets and the C target CStreakProto alike (its shim and the protoc-c output; the arena then
# gives every allocation its own chunk, so overflows are caught); the system's libprotobuf-c
# is not rebuilt, but its mallocs and frees are intercepted.
# Leaks are reported (detect_leaks=1); scripts/lsan-suppressions.txt lists the few false
# positives of the Swift runtime, XCTest and Foundation, and each suppression used is printed.
# Uses its own build directory, .build-asan (gitignored), so the normal debug build is kept.
#   scripts/test-asan.sh [swift test options...]
set -eu
cd "$(dirname "$0")/.."
ASAN_OPTIONS="detect_leaks=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
LSAN_OPTIONS="suppressions=$PWD/scripts/lsan-suppressions.txt:print_suppressions=1${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
export ASAN_OPTIONS LSAN_OPTIONS
exec swift test --sanitize=address --scratch-path .build-asan \
    --filter 'StreakFramingTests|StreakWireTests|StreakTLSTests' "$@"
