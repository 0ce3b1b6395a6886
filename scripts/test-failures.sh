#!/usr/bin/env bash
# Repeats what a failed `swift test` run (plain or under a sanitizer) said about its failures, so
# that the last lines of a long log (all a CI page may keep) name them: every issue a test
# recorded, with its details, every sanitizer report, and every test that started and never
# ended (what a run killed by its time limit leaves).
#
#   scripts/test-failures.sh LOG
set -euo pipefail
log="${1:?usage: scripts/test-failures.sh LOG}"

echo
echo "==> what failed (repeated from the log above)"
# Swift Testing: "✘ Test NAME recorded an issue at FILE:LINE:COL: ...", then its details on
# lines that start with "↳"; XCTest and the compiler: "FILE:LINE: error: ..."; the sanitizers:
# "==PID==ERROR: AddressSanitizer: ..." and their "SUMMARY: ..." lines.
# Each line cut to 400 characters (an expectation prints both values whole) and the last 40 kept,
# so that they fit in a short tail.
grep -E '^✘ |^[[:space:]]*↳ |: error: |^==[0-9]+==ERROR: |^SUMMARY: [A-Za-z]+Sanitizer' "$log" \
    | grep -vE '^↳ (Testing Library Version|Target Platform): ' | cut -c1-400 | tail -n 40 | grep '' || echo "(no failure lines in the log)"

# A test "started" without a matching "passed", "failed" or "skipped" never ended.
unfinished="$(awk '
    # An end anywhere in the line: output from two threads may share one.
    match($0, /(✔|✘|➜) Test /) {
        name = substr($0, RSTART + RLENGTH)
        sub(/ (passed|failed) after [0-9.]+ seconds.*$/, "", name); sub(/ skipped(: .*|\.)$/, "", name)
        sub(/ with [0-9]+ test cases?$/, "", name)
        delete open[name]
    }
    /^◇ Test case passing / || /^◇ Test run started\.$/ { next }
    /^◇ Test .* started\.$/ {
        name = substr($0, length("◇ Test ") + 1); sub(/ started\.$/, "", name); open[name] = 1
    }
    END { for (name in open) print "  " name }
' "$log")"
if [ -n "$unfinished" ]; then
    echo
    echo "==> tests that started and did not end (as far as the log shows: lines written at once may be cut)"
    echo "$unfinished"
fi
