#!/bin/sh
# Group-commit throughput of SQLiteStore in a release build, without building the whole package:
#   scripts/storage-bench.sh [THREADS] [WRITES_PER_THREAD]     (default 50 200)
# The data directory is under $TMPDIR (set TMPDIR to measure another disk).
set -eu
cd "$(dirname "$0")/.."
swift build -c release --target StreakStorage >/dev/null
bin=$(swift build -c release --show-bin-path)
out=$(mktemp -d)
swiftc -O -module-name StorageBench -o "$out/storage-bench" \
    -I "$bin/Modules" -I Sources/CSQLite \
    scripts/storage-bench.swift "$bin"/StreakStorage.build/*.o "$bin"/StreakCore.build/*.o \
    -lsqlite3 2>&1 | grep -v "^$" || true
"$out/storage-bench" "$@"
rm -rf "$out"
