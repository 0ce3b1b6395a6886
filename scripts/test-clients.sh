#!/usr/bin/env bash
# Tests the Python and C clients: generated code is fresh, a venv with the pinned protobuf,
# pytest (offline tests and integration tests against a real streakd), then the C library and
# example built and run against a real streakd with its output checked.
# Usage: STREAKD_BIN=/path/to/streakd scripts/test-clients.sh [--offline]
#   --offline: skip everything that needs streakd (STREAKD_BIN is then optional).
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"

offline=0
case "${1:-}" in
  --offline) offline=1 ;;
  "") ;;
  *) echo "usage: $0 [--offline]" >&2; exit 2 ;;
esac
if [ "$offline" -eq 0 ]; then
  if [ -z "${STREAKD_BIN:-}" ] || [ ! -x "${STREAKD_BIN}" ]; then
    echo "test-clients: STREAKD_BIN must name an executable streakd (or pass --offline)" >&2
    exit 2
  fi
  STREAKD_BIN="$(cd "$(dirname "$STREAKD_BIN")" && pwd)/$(basename "$STREAKD_BIN")"
  export STREAKD_BIN
else
  unset STREAKD_BIN
fi

step() { printf '\n--> %s\n' "$*"; }

pids=()
tmpdirs=()
cleanup() {
  for pid in "${pids[@]}"; do
    if kill -0 "$pid" 2>/dev/null; then
      kill "$pid" 2>/dev/null || true
      for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      kill -9 "$pid" 2>/dev/null || true
    fi
  done
  for dir in "${tmpdirs[@]}"; do rm -rf "$dir"; done
}
trap cleanup EXIT
trap 'exit 130' INT TERM

step "generated client code is fresh"
scripts/generate-python.sh --check
make -s -C clients/c check-gen

step "python venv (clients/python/.venv) with the pinned protobuf"
venv=clients/python/.venv
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
stamp="$venv/.installed-$(sha256sum clients/python/pyproject.toml | cut -c1-16)"
if [ ! -f "$stamp" ]; then
  "$venv/bin/python" -m pip install -q --disable-pip-version-check -e "clients/python[test]"
  touch "$stamp"
fi

step "C client: libstreakclient.a and streak-example"
make -s -C clients/c

step "pytest (offline$([ "$offline" -eq 0 ] && echo ' and integration against streakd'))"
(cd clients/python && "$root/$venv/bin/python" -m pytest -q -p no:cacheprovider)

if [ "$offline" -eq 1 ]; then
  echo "client tests passed (offline; integration skipped)"
  exit 0
fi

step "C example and Python example against a real streakd"
data="$(mktemp -d)"
tmpdirs+=("$data")
mkdir "$data/data"
"$STREAKD_BIN" --host 127.0.0.1 --port 0 --data-dir "$data/data" >"$data/stdout" 2>"$data/stderr" &
pids+=($!)
port=""
for _ in $(seq 1 600); do
  port="$(sed -n 's/^streakd listening on 127\.0\.0\.1:\([0-9]*\)$/\1/p' "$data/stdout")"
  [ -n "$port" ] && [ -s "$data/data/token" ] && break
  kill -0 "${pids[-1]}" 2>/dev/null || break
  sleep 0.1
done
if [ -z "$port" ] || [ ! -s "$data/data/token" ]; then
  echo "test-clients: streakd did not start" >&2
  cat "$data/stdout" "$data/stderr" >&2
  exit 1
fi

example=clients/c/build/streak-example
run_example() {
  "$example" --server "127.0.0.1:$port" --token-file "$data/data/token" "$@"
}
run_example --habit Read --date 2024-03-01 --as-of 2024-03-02 >"$data/c1.txt"
out="$(run_example --habit Read --date 2024-03-02 --as-of 2024-03-02)"
printf '%s\n' "$out"
grep -q '^streak: current 2 days (since 2024-03-01), longest 2 days (2024-03-01 to 2024-03-02), as of 2024-03-02$' \
  <<<"$out" || { echo "test-clients: unexpected streak line from streak-example" >&2; exit 1; }
grep -q '^created habit "Read"' "$data/c1.txt" || { echo "test-clients: the first run did not create the habit" >&2; exit 1; }
if grep -q '^created habit' <<<"$out"; then echo "test-clients: the second run created the habit again" >&2; exit 1; fi
rows="$(grep -cE '^(Sun|Mon|Tue|Wed|Thu|Fri|Sat) [.0-3]+$' <<<"$out" || true)"
[ "$rows" -eq 7 ] || { echo "test-clients: expected 7 heatmap rows, got $rows" >&2; exit 1; }
grep -qE '^(Fri|Sat) [.0-3]*3$' <<<"$out" || { echo "test-clients: no level-3 cell for 2024-03-01/02" >&2; exit 1; }
if "$example" --server "127.0.0.1:$port" --token stk_wrong >/dev/null 2>"$data/err.txt"; then
  echo "test-clients: streak-example succeeded with a wrong token" >&2; exit 1
fi
grep -q 'UNAUTHENTICATED (16)' "$data/err.txt" || { echo "test-clients: no UNAUTHENTICATED error" >&2; exit 1; }

py_out="$("$venv/bin/python" clients/python/examples/heatmap.py --server "127.0.0.1:$port" \
  --token-file "$data/data/token" --as-of 2024-03-02)"
printf '%s\n' "$py_out"
grep -q '^streak: 2 days since 2024-03-01; longest 2' <<<"$py_out" \
  || { echo "test-clients: unexpected streak line from heatmap.py" >&2; exit 1; }

echo "client tests passed"
