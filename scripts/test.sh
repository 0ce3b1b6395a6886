#!/usr/bin/env bash
# README's test command: installs what a fresh machine lacks, checks generated code and
# formatting, builds with warnings as errors, starts a throwaway PostgreSQL server, runs every
# Swift test (unit and integration against a real streakd on loopback; the stores on SQLite and
# on PostgreSQL), the Python and C clients against a real streakd, the HTML report in headless
# Chromium (scripts/test-browser.sh), a short smoke run of the load generator, and the framing and wire tests again under AddressSanitizer (scripts/test-asan.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n==> %s\n' "$*"; }

step "system packages"
# The PostgreSQL server only for the tests: the run command needs its client library alone.
scripts/ensure-deps.sh postgresql

step "generated code is fresh"
scripts/check-generated.sh

step "lint"
scripts/lint.sh

step "build (warnings are errors)"
swift build --build-tests -Xswiftc -warnings-as-errors

step "a throwaway PostgreSQL server"
postgres_dir="$(mktemp -d)/postgres"
trap 'scripts/postgres-test-server.sh stop "$postgres_dir" >/dev/null 2>&1 || true' EXIT
STREAKD_TEST_POSTGRES_URL="$(scripts/postgres-test-server.sh start "$postgres_dir")"
# Required: a run that could not reach it fails instead of skipping the PostgreSQL tests.
export STREAKD_TEST_POSTGRES_URL STREAKD_REQUIRE_POSTGRES=1
echo "$STREAKD_TEST_POSTGRES_URL"

step "swift tests"
# Bounded: a test that hangs fails the run instead of holding CI for its whole budget.
timeout --kill-after=10 1200 swift test --skip-build || {
    status=$?
    [ "$status" = 124 ] && echo "swift tests did not finish within 20 minutes" >&2
    exit "$status"
}

step "python and C clients against a real streakd"
STREAKD_BIN="$(swift build --show-bin-path)/streakd" scripts/test-clients.sh

step "the HTML report in a real browser (headless Chromium, axe-core, screenshots)"
scripts/test-browser.sh

step "load generator smoke run"
scripts/bench --smoke

step "framing and wire tests under AddressSanitizer"
# Its own build directory (.build-asan): a cold one costs a full instrumented build (see README).
timeout --kill-after=10 1800 scripts/test-asan.sh || {
    status=$?
    [ "$status" = 124 ] && echo "the AddressSanitizer tests did not finish within 30 minutes" >&2
    exit "$status"
}

echo
echo "all tests passed"
