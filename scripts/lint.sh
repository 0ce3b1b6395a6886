#!/usr/bin/env bash
# Lints the Swift sources with swift-format (configuration: .swift-format).
#   scripts/lint.sh              check Sources, Tests and Package.swift (fails on any finding)
#   scripts/lint.sh --fix        format them in place
#   scripts/lint.sh [--fix] PATH...   only the given files or folders
set -euo pipefail
cd "$(dirname "$0")/.."

fix=0
if [[ "${1:-}" == "--fix" ]]; then
    fix=1
    shift
fi
paths=("$@")
if [[ ${#paths[@]} -eq 0 ]]; then
    # Generated code is not linted: scripts/check-generated.sh checks it against its generator.
    mapfile -t paths < <(find Sources Tests -name '*.swift' -not -path '*/Generated/*' | sort)
    paths+=(Package.swift)
fi

if [[ $fix -eq 1 ]]; then
    swift format format --in-place --parallel --recursive "${paths[@]}"
fi
swift format lint --strict --parallel --recursive "${paths[@]}"

# StreakTestSupport is a regular target, so every `swift build` builds it, the README's release
# build of the tools with `--static-swift-stdlib` included. That toolchain has no Testing or XCTest
# module: a file of it that imports one must do so under `#if canImport(...)`.
unguarded=0
for file in Tests/StreakTestSupport/*.swift; do
    awk '/^#if canImport\((Testing|XCTest)\)/ { guarded = 1 }
         /^import (Testing|XCTest)$/ && !guarded { print FILENAME ":" FNR ": " $0 " outside #if canImport"; bad = 1 }
         END { exit bad }' "$file" || unguarded=1
done
if [[ $unguarded -eq 1 ]]; then
    echo "lint: StreakTestSupport is built by 'swift build -c release --static-swift-stdlib' too," >&2
    echo "      which has no test modules: guard their imports with #if canImport(...)" >&2
    exit 1
fi
