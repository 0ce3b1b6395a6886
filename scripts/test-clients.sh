#!/usr/bin/env bash
# Tests the Python and C clients: generated code is fresh, a venv with the pinned protobuf,
# pytest (offline tests and integration tests against a real streakd), then the C library and
# examples built and run against a real streakd with their output checked line by line.
# Usage: STREAKD_BIN=/path/to/streakd scripts/test-clients.sh [--offline]
#   --offline: skip everything that needs streakd (STREAKD_BIN is then optional).
# The Python interpreter: $STREAKD_PYTHON, else the first of python3, python3.13 ... python3.9,
# /usr/bin/python3 whose version is inside clients/python's requires-python and that can
# make a venv. Missing Debian packages (make, gcc, and python3 python3-venv when no such
# interpreter exists) are installed by scripts/ensure-deps.sh.
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
# The Python stubs, and the protoc-c output in Sources/CStreakProto that the C client compiles.
scripts/check-generated.sh

step "a supported Python and the C toolchain"
# requires-python is ">=3.X,<3.Y": protobuf==4.21.12's C extension does not import on newer Pythons.
requires="$(sed -n 's/^requires-python = "\(.*\)"$/\1/p' clients/python/pyproject.toml)"
py_min="$(sed -n 's/.*>=3\.\([0-9]*\).*/\1/p' <<<"$requires")"
py_max="$(sed -n 's/.*<3\.\([0-9]*\).*/\1/p' <<<"$requires")"
if [ -z "$py_min" ] || [ -z "$py_max" ]; then
  echo "test-clients: cannot read requires-python (\">=3.X,<3.Y\") from clients/python/pyproject.toml: '$requires'" >&2
  exit 2
fi
# "python-3.11.7" for an interpreter in range that has venv and ensurepip; nothing otherwise.
python_id() {
  "$1" - "$py_min" "$py_max" 2>/dev/null <<'PY' || true
import sys
low, high = int(sys.argv[1]), int(sys.argv[2])
if sys.version_info[0] == 3 and low <= sys.version_info[1] < high:
    import ensurepip, venv  # noqa: F401  (Debian's python3 lacks ensurepip without python3-venv)
    print("python-%d.%d.%d" % sys.version_info[:3])
PY
}
find_python() {
  local candidates=()
  if [ -n "${STREAKD_PYTHON:-}" ]; then
    candidates=("$STREAKD_PYTHON")
  else
    candidates=(python3)
    for minor in $(seq $((py_max - 1)) -1 "$py_min"); do candidates+=("python3.$minor"); done
    candidates+=(/usr/bin/python3)
  fi
  for candidate in "${candidates[@]}"; do
    command -v "$candidate" >/dev/null 2>&1 || continue
    if [ -n "$(python_id "$candidate")" ]; then
      command -v "$candidate"
      return 0
    fi
  done
  return 1
}
describe_pythons() {
  for candidate in ${STREAKD_PYTHON:-python3 /usr/bin/python3}; do
    if command -v "$candidate" >/dev/null 2>&1; then
      printf '  %s: %s\n' "$candidate" "$("$candidate" -c 'import sys; print("Python %d.%d.%d" % sys.version_info[:3])' 2>&1 | tail -1)"
    else
      printf '  %s: not found\n' "$candidate"
    fi
  done
}
extra_packages=(make gcc)
python="$(find_python || true)"
if [ -z "$python" ] && [ -z "${STREAKD_PYTHON:-}" ]; then
  # Debian's python3 needs python3-venv for `python3 -m venv`; Debian 12's python3 is 3.11.
  extra_packages+=(python3 python3-venv)
fi
scripts/ensure-deps.sh "${extra_packages[@]}"
[ -n "$python" ] || python="$(find_python || true)"
if [ -z "$python" ]; then
  {
    echo "test-clients: no usable Python for clients/python: it needs CPython 3.$py_min to 3.$((py_max - 1))"
    echo "  with the venv and ensurepip modules (requires-python \"$requires\" in clients/python/pyproject.toml;"
    echo "  protobuf==4.21.12, the runtime that matches the generated stubs, does not import on 3.$py_max+). Found:"
    describe_pythons
    echo "  Set STREAKD_PYTHON to a Python 3.$py_min-3.$((py_max - 1)) (e.g. a pyenv one), or install Debian's python3 python3-venv."
  } >&2
  exit 2
fi
python_version="$(python_id "$python")"
echo "python: $python ($python_version)"

step "python venv (clients/python/.venv) with the pinned protobuf"
venv=clients/python/.venv
# A venv made by another interpreter (or a broken one) is made afresh.
if [ "$(python_id "$venv/bin/python")" != "$python_version" ]; then
  rm -rf "$venv"
  "$python" -m venv "$venv"
fi
stamp="$venv/.installed-$python_version-$(sha256sum clients/python/pyproject.toml | cut -c1-16)"
if [ ! -f "$stamp" ]; then
  rm -f "$venv"/.installed-*
  # An old pip (before 21.3) cannot install a pyproject-only project in editable mode.
  "$venv/bin/python" -m pip install -q --disable-pip-version-check --upgrade pip
  "$venv/bin/python" -m pip install -q --disable-pip-version-check -e "clients/python[test]"
  touch "$stamp"
fi

step "C client: libstreakclient.a, streak-example, streak-schedule-example, streak-data-example and streak-display-example"
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
# Exact output, trailing spaces aside: `expect_output NAME EXPECTED ACTUAL`.
expect_output() {
  if ! diff -u <(printf '%s\n' "$2" | sed 's/ *$//') <(printf '%s\n' "$3" | sed 's/ *$//') >&2; then
    echo "test-clients: unexpected output from $1 (diff above: - expected, + actual)" >&2
    exit 1
  fi
}
# Read and Walk are both created on 2024-03-01 and done that day: 2 of 2 habits (level 3). On the
# 2nd only Read is done: 1 of 2, 50 % (level 2), still contributing, so the streak is 2 days.
c1="$(run_example --habit Read --date 2024-03-01 --as-of 2024-03-02)"
expect_output "streak-example (1st run)" 'created habit "Read" (id 1)
recorded "Read" on 2024-03-01 (new)
day 2024-03-01: 1 of 1 habit, 100%, level 3, contributing
streak: current 1 day (since 2024-03-01), longest 1 day (2024-03-01 to 2024-03-01), as of 2024-03-02, today pending' \
  "$(head -4 <<<"$c1")"
c2="$(run_example --habit Walk --date 2024-03-01 --as-of 2024-03-02)"
expect_output "streak-example (2nd run)" 'created habit "Walk" (id 2)
recorded "Walk" on 2024-03-01 (new)
day 2024-03-01: 2 of 2 habits, 100%, level 3, contributing' "$(head -3 <<<"$c2")"
out="$(run_example --habit Read --date 2024-03-02 --as-of 2024-03-02)"
printf '%s\n' "$out"
# 2023-04-01 (the range's first day) is a Saturday, 2024-03-02 too: the first column has only
# Saturday and Sunday, the last all but Sunday ('.' is outside the range).
zeros="$(printf '0%.0s' $(seq 1 47))"
expect_output "streak-example (3rd run)" "recorded \"Read\" on 2024-03-02 (new)
day 2024-03-02: 1 of 2 habits, 50%, level 2, contributing
streak: current 2 days (since 2024-03-01), longest 2 days (2024-03-01 to 2024-03-02), as of 2024-03-02
heatmap 2023-04-01 to 2024-03-02: 49 weeks starting Monday; levels 0-3, '.' absent
    Apr  May  Jun Jul  Aug Sep Oct  Nov Dec Jan  Feb
Mon .${zeros}0
Tue .${zeros}0
Wed .${zeros}0
Thu .${zeros}0
Fri .${zeros}3
Sat 0${zeros}2
Sun 0${zeros}." "$out"
if "$example" --server "127.0.0.1:$port" --token stk_wrong >/dev/null 2>"$data/err.txt"; then
  echo "test-clients: streak-example succeeded with a wrong token" >&2; exit 1
fi
grep -q 'UNAUTHENTICATED (16)' "$data/err.txt" || { echo "test-clients: no UNAUTHENTICATED error" >&2; exit 1; }

py_out="$("$venv/bin/python" clients/python/examples/heatmap.py --server "127.0.0.1:$port" \
  --token-file "$data/data/token" --as-of 2024-03-02)"
printf '%s\n' "$py_out"
dots="$(printf '·%.0s' $(seq 1 47))"
expect_output heatmap.py "streak: 2 days since 2024-03-01; longest 2 (2024-03-01 to 2024-03-02); as of 2024-03-02
    Apr  May  Jun Jul  Aug Sep Oct  Nov Dec Jan  Feb
Mon  ${dots}·
     ${dots}·
Wed  ${dots}·
     ${dots}·
Fri  ${dots}█
    ·${dots}▒
Sun ·${dots}
    · 0%  ░ 1-49%  ▒ 50-99%  █ 100%" "$py_out"

# Schedules, skips and rest periods from C: Gym on Monday, Wednesday and Friday from 2024-01-01
# (a Monday), done that day; Wednesday the 3rd skipped: a rest day; as of the 8th the streak is 0,
# as Friday the 5th was due and missed.
sched_out="$(clients/c/build/streak-schedule-example --server "127.0.0.1:$port" --token-file "$data/data/token")"
expect_output streak-schedule-example 'schedule: 3 weekdays from 2024-01-01
done: day 2024-01-01 due 1, done 1, rest no; streak 1
skipped: day 2024-01-03 due 0, done 0, rest yes; streak 0
rest periods: 1, the first "travel"
removed rest period 1
removing it again: NOT_FOUND' "$sched_out"

# Your data from C. The account now has Read and Walk (ids 1 and 2, from 2024-03-01; Read done on the
# 1st and 2nd, Walk on the 1st) and Gym (id 3, Monday/Wednesday/Friday, done 2024-01-01, skipped the
# 3rd): 4 completions and 1 skip, in pages of 2 (completions first, by habit id and date).
data_example=clients/c/build/streak-data-example
run_data() {
  "$data_example" --server "127.0.0.1:$port" "$@"
}
export_out="$(run_data --token-file "$data/data/token" export --page-size 2)"
expect_output "streak-data-example export" 'page 1: settings, habits 3, rest periods 0, completions 2, skips 0, of 5 records
page 2: completions 2, skips 0
page 3: completions 0, skips 1, last
habit "Read": completions 2, skips 0, created 2024-03-01
habit "Walk": completions 1, skips 0, created 2024-03-01
habit "Gym": completions 1, skips 1, created 2024-01-01, schedule entries 1
total: pages 3, habits 3 (archived 0), rest periods 0, completions 4, skips 1' "$export_out"
expect_output "streak-data-example archive" 'archived habit 2 "Walk" from 2024-03-05' \
  "$(run_data --token-file "$data/data/token" archive 2 2024-03-05)"
# Copied into a second user's account (export, then one ImportData), which then exports the same.
"$STREAKD_BIN" user add bob --data-dir "$data/data" >"$data/bob-token"
copy_out="$(run_data --token-file "$data/data/token" copy --to-token-file "$data/bob-token" --page-size 2)"
# Both users start with the server's default settings, unless the machine's time zone differs.
grep -Eq '^settings: (changed|unchanged)$' <<<"$copy_out" || { echo "test-clients: no settings line: $copy_out" >&2; exit 1; }
expect_output "streak-data-example copy" 'exported: pages 3, habits 3, rest periods 0, completions 4, skips 1
imported: habits created 3, matched 0, completions 4, skips 1, rest periods 0, schedules 1, errors 0' \
  "$(grep -v '^settings: ' <<<"$copy_out")"
expect_output "streak-data-example export of the copy" \
  "$(run_data --token-file "$data/data/token" export --page-size 2)" \
  "$(run_data --token-file "$data/bob-token" export --page-size 2)"
grep -q '^total: pages 3, habits 3 (archived 1), rest periods 0, completions 4, skips 1$' \
  <<<"$(run_data --token-file "$data/bob-token" export --page-size 2)" \
  || { echo "test-clients: the copy lost Walk's archive day" >&2; exit 1; }
# The same import again changes nothing.
expect_output "streak-data-example copy (again)" 'exported: pages 1, habits 3, rest periods 0, completions 4, skips 1
imported: habits created 0, matched 3, completions 0, skips 0, rest periods 0, schedules 0, errors 0
settings: unchanged' "$(run_data --token-file "$data/data/token" copy --to-token-file "$data/bob-token")"
# In requests of at most 2 dates (5 records: 3 requests, Gym split over two) into a third account:
# the same export again. Parts after a habit's first are matched by name.
"$STREAKD_BIN" user add carol --data-dir "$data/data" >"$data/carol-token"
expect_output "streak-data-example copy --chunk 2" 'exported: pages 3, habits 3, rest periods 0, completions 4, skips 1
import requests: 3 of at most 2 dates
imported: habits created 3, matched 1, completions 4, skips 1, rest periods 0, schedules 1, errors 0' \
  "$(run_data --token-file "$data/data/token" copy --to-token-file "$data/carol-token" --page-size 2 --chunk 2 \
     | grep -v '^settings: ')"
expect_output "streak-data-example export of the chunked copy" \
  "$(run_data --token-file "$data/data/token" export --page-size 2)" \
  "$(run_data --token-file "$data/carol-token" export --page-size 2)"
expect_output "streak-data-example unarchive" 'unarchived habit 2 "Walk", live' \
  "$(run_data --token-file "$data/data/token" unarchive 2)"
if run_data --token-file "$data/data/token" unarchive 2 >/dev/null 2>"$data/err.txt"; then
  echo "test-clients: unarchiving a live habit succeeded" >&2; exit 1
fi
grep -q 'FAILED_PRECONDITION (9): habit 2 is not archived' "$data/err.txt" \
  || { echo "test-clients: no FAILED_PRECONDITION: $(cat "$data/err.txt")" >&2; exit 1; }
expect_output "streak-data-example delete" 'deleted habit 1 "Read" with completions 2, skips 0' \
  "$(run_data --token-file "$data/data/token" delete 1)"
expect_output "streak-data-example export after the delete" 'page 1: settings, habits 2, rest periods 0, completions 2, skips 0, of 3 records
page 2: completions 0, skips 1, last
habit "Walk": completions 1, skips 0, created 2024-03-01
habit "Gym": completions 1, skips 1, created 2024-01-01, schedule entries 1
total: pages 2, habits 2 (archived 0), rest periods 0, completions 2, skips 1' \
  "$(run_data --token-file "$data/data/token" export --page-size 2)"
if run_data --token-file "$data/data/token" delete 1 >/dev/null 2>"$data/err.txt"; then
  echo "test-clients: deleting a deleted habit succeeded" >&2; exit 1
fi
grep -q 'NOT_FOUND (5)' "$data/err.txt" || { echo "test-clients: no NOT_FOUND: $(cat "$data/err.txt")" >&2; exit 1; }

step "C examples over TLS against a streakd serving throwaway certificates (made with openssl)"
certs="$(mktemp -d)"
tmpdirs+=("$certs")
printf '[req]\ndistinguished_name = dn\nprompt = no\n[dn]\nCN = unused\n[authority]\nbasicConstraints = critical,CA:TRUE\nkeyUsage = critical,keyCertSign,cRLSign\n' \
  >"$certs/openssl.cnf"
ossl() { OPENSSL_CONF="$certs/openssl.cnf" openssl "$@" 2>>"$certs/openssl.log"; }
make_ca() { # NAME CN
  ossl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$certs/$1.key"
  ossl req -x509 -new -key "$certs/$1.key" -subj "/CN=$2" -days 30 -extensions authority -out "$certs/$1.crt"
}
make_cert() { # NAME CA
  ossl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$certs/$1.key"
  ossl req -new -key "$certs/$1.key" -subj /CN=localhost -out "$certs/$1.csr"
  printf 'basicConstraints = CA:FALSE\nextendedKeyUsage = serverAuth\nsubjectAltName = DNS:localhost,IP:127.0.0.1\n' >"$certs/$1.ext"
  ossl x509 -req -in "$certs/$1.csr" -CA "$certs/$2.crt" -CAkey "$certs/$2.key" -set_serial "$RANDOM$RANDOM" \
    -days 30 -extfile "$certs/$1.ext" -out "$certs/$1.crt"
}
make_ca ca "Streakd Test CA" && make_ca other-ca "Streakd Other CA" && make_cert server ca \
  || { echo "test-clients: openssl could not make the test certificates:" >&2; cat "$certs/openssl.log" >&2; exit 1; }
mkdir "$data/tls"
"$STREAKD_BIN" --host 127.0.0.1 --port 0 --data-dir "$data/tls" --tls-cert "$certs/server.crt" \
  --tls-key "$certs/server.key" >"$data/tls-stdout" 2>"$data/tls-stderr" &
pids+=($!)
tport=""
for _ in $(seq 1 600); do
  tport="$(sed -n 's/^streakd listening on 127\.0\.0\.1:\([0-9]*\)$/\1/p' "$data/tls-stdout")"
  [ -n "$tport" ] && [ -s "$data/tls/token" ] && break
  kill -0 "${pids[-1]}" 2>/dev/null || break
  sleep 0.1
done
[ -n "$tport" ] || { echo "test-clients: the TLS streakd did not start" >&2; cat "$data/tls-stderr" >&2; exit 1; }
tls_example() { "$example" --server "$1:$tport" --token-file "$data/tls/token" "${@:2}"; }
expect_output "streak-example over TLS" 'created habit "Read" (id 1)
recorded "Read" on 2024-03-01 (new)
day 2024-03-01: 1 of 1 habit, 100%, level 3, contributing
streak: current 1 day (since 2024-03-01), longest 1 day (2024-03-01 to 2024-03-01), as of 2024-03-02, today pending' \
  "$(tls_example localhost --ca-file "$certs/ca.crt" --habit Read --date 2024-03-01 --as-of 2024-03-02 | head -4)"
expect_output "streak-example over TLS by address" 'recorded "Read" on 2024-03-02 (new)' \
  "$(tls_example 127.0.0.1 --ca-file "$certs/ca.crt" --habit Read --date 2024-03-02 --as-of 2024-03-02 | head -1)"
expect_output "streak-schedule-example over TLS" 'schedule: 3 weekdays from 2024-01-01
done: day 2024-01-01 due 1, done 1, rest no; streak 1' \
  "$(clients/c/build/streak-schedule-example --server "localhost:$tport" --token-file "$data/tls/token" \
     --ca-file "$certs/ca.crt" | head -2)"
grep -q '^total: pages 1, habits 2 (archived 0)' <<<"$("$data_example" --server "localhost:$tport" --tls \
  --ca-file "$certs/ca.crt" --token-file "$data/tls/token" export)" \
  || { echo "test-clients: streak-data-example over TLS did not export the account" >&2; exit 1; }
# The connection from the environment alone ($STREAK_SERVER, $STREAK_TOKEN, $STREAK_TLS, $STREAK_CA_FILE),
# read by every example the same way.
grep -q '^packed heatmap: [0-9]* bytes; [0-9-]* to 2024-03-02, ' <<<"$(STREAK_SERVER="localhost:$tport" \
  STREAK_TOKEN="$(cat "$data/tls/token")" STREAK_TLS=1 STREAK_CA_FILE="$certs/ca.crt" \
  clients/c/build/streak-display-example --as-of 2024-03-02)" \
  || { echo "test-clients: streak-display-example over TLS from the environment did not draw the heatmap" >&2; exit 1; }
# Each failure names its reason; the server logs its side.
expect_failure() { # NAME EXPECTED-TEXT ARGS...
  if tls_example "${@:3}" >/dev/null 2>"$data/err.txt"; then
    echo "test-clients: $1 succeeded" >&2; exit 1
  fi
  grep -qF "$2" "$data/err.txt" || { echo "test-clients: $1: expected '$2', got: $(cat "$data/err.txt")" >&2; exit 1; }
}
expect_failure "a wrong host name" "over TLS: certificate verify failed: hostname mismatch (the server's certificate is not for 'wrong.example')" \
  localhost --ca-file "$certs/ca.crt" --tls-server-name wrong.example
expect_failure "an unknown CA" "over TLS: certificate verify failed: unknown CA" localhost --ca-file "$certs/other-ca.crt"
expect_failure "plaintext against the TLS port" "this streakd port requires TLS" 127.0.0.1
expect_failure "TLS against the plaintext port" "does not serve TLS on this port" 127.0.0.1 --ca-file "$certs/ca.crt" \
  --server "127.0.0.1:$port"
for line in "TLS handshake failed (the client refused the server's certificate)" "a plaintext client connected to the TLS port"; do
  grep -qF "$line" "$data/tls-stderr" || { echo "test-clients: the server did not log '$line'" >&2; cat "$data/tls-stderr" >&2; exit 1; }
done
# The packed heatmap from C (PROTOCOL.md section 8), for a user of its own: a seeded random year
# (Read daily and Gym on Monday, Wednesday and Friday from 2023-07-01; Walk from 2023-09-01,
# archived on 2024-05-01; 3 % of the days skipped; a rest period at New Year), then three weeks of June 2024 set by
# hand, with Stretch (daily) from June 1. streak-display-example draws those weeks from the packed
# answer and lists the days; --check compares packed and classic answers cell by cell.
"$STREAKD_BIN" user add display --data-dir "$data/data" >"$data/display-token"
"$venv/bin/python" - "$port" "$data/display-token" <<'PY'
import datetime
import random
import sys

from streakd_client import Client, Weekday

day = datetime.date
with Client("127.0.0.1", int(sys.argv[1]), token=open(sys.argv[2]).read().strip(), timeout=30) as client:
    read = client.create_habit("Read", "2023-07-01")
    gym = client.create_habit("Gym", "2023-07-01", schedule=[Weekday.MONDAY, Weekday.WEDNESDAY, Weekday.FRIDAY])
    walk = client.create_habit("Walk", "2023-09-01")
    stretch = client.create_habit("Stretch", "2024-06-01")
    rng, done, skips = random.Random(7), [], []
    date = day(2023, 7, 1)
    while date < day(2024, 6, 1):
        for habit in (read, gym, walk):
            if habit.created_on <= date and not (habit is walk and date >= day(2024, 5, 1)):
                roll = rng.random()
                # Gym on its days; now and then on another day, which then counts as due too.
                if habit is gym and date.isoweekday() not in (1, 3, 5) and roll >= 0.03:
                    continue
                if roll < 0.6:
                    done.append((habit.id, date))
                elif roll < 0.63:
                    skips.append((habit.id, date))
        date += datetime.timedelta(days=1)
    client.batch_completions(record=done)
    for habit_id, date in skips:
        client.skip_habit(habit_id, date)
    client.archive_habit(walk.id, "2024-05-01")
    client.add_rest_period("2023-12-24", "2024-01-01", "New Year")
    june = {3: (read, stretch, gym), 4: (read,), 5: (gym,), 7: (read, stretch), 8: (read, stretch), 9: (stretch,),
            13: (read, stretch), 14: (read,), 17: (read,), 18: (read, stretch), 19: (read, gym, stretch), 20: (gym,)}
    client.batch_completions(record=[(h.id, day(2024, 6, d)) for d, habits in june.items() for h in habits])
    client.add_rest_period("2024-06-10", "2024-06-12", "away")
    for habit_id, date in [(gym.id, "2024-06-14"), (read.id, "2024-06-16"), (stretch.id, "2024-06-16")]:
        client.skip_habit(habit_id, date)
PY
display=clients/c/build/streak-display-example
run_display() {
  "$display" --server "127.0.0.1:$port" --token-file "$data/display-token" "$@"
}
# Monday the 3rd: all three done (a block); Tuesday: Read, 1 of 2 (a cross); Wednesday: Gym, 1 of 3
# (a bar); Thursday: nothing (a dot); the 10th to 12th rest (dashes), Sunday the 16th every habit
# skipped (a dash); Thursday the 20th is "today": Gym done on a day it is not scheduled counts as
# due (1 of 3, a bar); the days after it are absent.
expect_output "streak-display-example" "packed heatmap: 77 bytes; 2024-06-03 to 2024-06-23, 18 days, 3 weeks from Monday
Jun
███ ▄▄▄  █
▀▀▀      ▀
▄█▄ ▄▄▄ ███
 ▀      ▀▀▀
 █  ▄▄▄ ███
 ▀      ▀▀▀
 ▄  ███  █
    ▀▀▀  ▀
▄█▄ ▄█▄
 ▀   ▀
███  ▄
▀▀▀
▄█▄ ▄▄▄
 ▀
2024-06-03 row 0: level 3, 100%, 3 of 3 due, 3 active
2024-06-04 row 1: level 2, 50%, 1 of 2 due, 3 active
2024-06-05 row 2: level 1, 33%, 1 of 3 due, 3 active
2024-06-06 row 3: level 0, 0%, 0 of 2 due, 3 active
2024-06-07 row 4: level 2, 67%, 2 of 3 due, 3 active
2024-06-08 row 5: level 3, 100%, 2 of 2 due, 3 active
2024-06-09 row 6: level 2, 50%, 1 of 2 due, 3 active
2024-06-10 row 0: level 0, 0%, 0 of 0 due, 3 active, rest
2024-06-11 row 1: level 0, 0%, 0 of 0 due, 3 active, rest
2024-06-12 row 2: level 0, 0%, 0 of 0 due, 3 active, rest
2024-06-13 row 3: level 3, 100%, 2 of 2 due, 3 active
2024-06-14 row 4: level 2, 50%, 1 of 2 due, 3 active
2024-06-15 row 5: level 0, 0%, 0 of 2 due, 3 active
2024-06-16 row 6: level 0, 0%, 0 of 0 due, 3 active, rest
2024-06-17 row 0: level 1, 33%, 1 of 3 due, 3 active
2024-06-18 row 1: level 3, 100%, 2 of 2 due, 3 active
2024-06-19 row 2: level 3, 100%, 3 of 3 due, 3 active
2024-06-20 row 3: level 1, 33%, 1 of 3 due, 3 active" \
  "$(run_display --from 2024-06-03 --to 2024-06-23 --as-of 2024-06-20 --week-start 2 --labels --list)"
check_out="$(run_display --as-of 2024-06-30 --check 7 40)"
tail -3 <<<"$check_out"
[ "$(tail -1 <<<"$check_out")" = "packed equals classic in 40 of 40 rounds" ] \
  || { printf '%s\n' "$check_out" >&2; echo "test-clients: packed and classic heatmaps differ in C" >&2; exit 1; }
# The year as a display shows it: at most 600 bytes on the wire (30-odd skips included).
year_out="$(run_display --as-of 2024-05-31)"
printf '%s\n' "$year_out"
year_bytes="$(sed -n 's/^packed heatmap: \([0-9]*\) bytes; 2023-06-01 to 2024-05-31, 366 days, 53 weeks from Monday$/\1/p' <<<"$year_out")"
[ -n "$year_bytes" ] && [ "$year_bytes" -le 600 ] \
  || { echo "test-clients: the packed year is not at most 600 bytes: $(head -1 <<<"$year_out")" >&2; exit 1; }

echo "client tests passed"
