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
    paths=(Sources Tests Package.swift)
fi

if [[ $fix -eq 1 ]]; then
    swift format format --in-place --parallel --recursive "${paths[@]}"
fi
swift format lint --strict --parallel --recursive "${paths[@]}"
