#!/usr/bin/env bash
# Manages a throwaway PostgreSQL cluster for tests: `start` creates (initdb) and starts a cluster
# in DIR listening on 127.0.0.1 on a free port, with a trust-authenticated superuser `streakd`
# and a database `streakd`, and prints its URL as the only line on stdout; `stop` stops the
# server and removes DIR. Both are safe to repeat (start on a running DIR prints its URL; stop
# on a stopped or absent DIR just cleans up).
# Usage: scripts/postgres-test-server.sh start DIR   -> postgresql://streakd@127.0.0.1:PORT/streakd
#        scripts/postgres-test-server.sh stop DIR
# Uses the newest /usr/lib/postgresql/*/bin (Debian's postgresql package). initdb and postgres
# refuse to run as root, so as root they run as the `postgres` system user, which then owns DIR.
# DIR also holds the server's log (DIR/log), its port (DIR/port) and its Unix socket.
set -euo pipefail

die() { echo "postgres-test-server: $*" >&2; exit 1; }
usage() { echo "usage: $0 start|stop DIR" >&2; exit 2; }

[ $# -eq 2 ] || usage
cmd=$1
case "$cmd" in start|stop) ;; *) usage ;; esac
[ -n "$2" ] || usage
dir=$(realpath -m -- "$2")
[ "$dir" != / ] || die "refusing to use / as the cluster directory"

as_pg=()
if [ "$(id -u)" -eq 0 ]; then
  id -u postgres >/dev/null 2>&1 || die "running as root needs the 'postgres' system user (apt-get install postgresql)"
  as_pg=(runuser -u postgres --)
fi
# Runs a command as the user that owns the cluster.
pg() { "${as_pg[@]}" "$@"; }

bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
[ -n "$bindir" ] && [ -x "$bindir/pg_ctl" ] && [ -x "$bindir/initdb" ] ||
  die "no PostgreSQL server found under /usr/lib/postgresql/*/bin; install it with: apt-get install postgresql"

# Exit status of `pg_ctl status`: 0 running, 3 not running, 4 no usable data directory.
running() { [ -f "$dir/PG_VERSION" ] && pg "$bindir/pg_ctl" status -D "$dir" >/dev/null 2>&1; }
# The port of the running server, from line 4 of postmaster.pid.
running_port() { sed -n 4p "$dir/postmaster.pid"; }
url() { echo "postgresql://streakd@127.0.0.1:$1/streakd"; }

if [ "$cmd" = stop ]; then
  [ -e "$dir" ] || exit 0
  [ -d "$dir" ] || die "$dir is not a directory"
  # Only remove what looks like ours: a cluster, or what a failed start leaves (empty, log, port).
  if [ ! -f "$dir/PG_VERSION" ]; then
    for f in "$dir"/* "$dir"/.[!.]*; do
      [ -e "$f" ] || continue
      case "${f##*/}" in log|port) ;; *) die "refusing to remove $dir: not a PostgreSQL cluster directory" ;; esac
    done
  fi
  if running; then
    pg "$bindir/pg_ctl" stop -D "$dir" -m fast -w -t 30 >/dev/null 2>&1 ||
      pg "$bindir/pg_ctl" stop -D "$dir" -m immediate -w -t 30 >/dev/null 2>&1 ||
      die "could not stop the server in $dir"
  fi
  rm -rf -- "$dir"
  exit 0
fi

# start
if running; then
  url "$(running_port)"
  exit 0
fi

# The server creates its socket DIR/.s.PGSQL.PORT, and a Unix socket path is at most 107 bytes.
[ $((${#dir} + 15)) -le 107 ] || die "$dir is too long for a Unix socket path (keep it under 92 characters)"

# The postgres user must be able to traverse every ancestor of DIR. `mktemp -d` makes its
# directory 0700 and root-owned, so a DIR under it is unreachable for postgres: grant search
# permission (x only, not read: postgres can reach DIR but not list its siblings) on such
# ancestors under the temp directory. Elsewhere (say /root) we do not loosen permissions.
# Checks the existing ancestors of $1 (a no-op unless root).
ensure_traversable() {
  [ ${#as_pg[@]} -gt 0 ] || return 0
  runuser -u postgres -- test -x "$1" 2>/dev/null && return 0
  local tmp p="" part parts
  tmp=$(realpath -m -- "${TMPDIR:-/tmp}")
  IFS=/ read -r -a parts <<<"${1#/}"
  for part in "${parts[@]}"; do
    p="$p/$part"
    [ -d "$p" ] || return 0
    runuser -u postgres -- test -x "$p" && continue
    case "$p" in
      "$tmp"/*) chmod go+x "$p" ;;
      *) die "the postgres user cannot enter $p; use a directory under $tmp or make $p searchable (chmod o+x)" ;;
    esac
  done
}
ensure_traversable "$(dirname -- "$dir")"   # before creating anything
mkdir -p -- "$dir"
chmod 0700 "$dir"
if [ ${#as_pg[@]} -gt 0 ]; then
  chown postgres: "$dir"
  ensure_traversable "$dir"   # again: mkdir -p makes missing parents by the umask
fi

if [ ! -f "$dir/PG_VERSION" ]; then
  # A failed earlier start may have left its log and port behind; initdb wants an empty directory.
  rm -f -- "$dir/log" "$dir/port"
  [ -z "$(ls -A -- "$dir")" ] || die "$dir is neither empty nor a PostgreSQL cluster"
  locale=C
  # grep without -q reads all input, so locale never dies of SIGPIPE under pipefail.
  locale -a 2>/dev/null | grep -ixE 'C\.utf-?8' >/dev/null && locale=C.UTF-8
  # --no-sync: a throwaway cluster need not survive a machine crash during initdb.
  out=$(pg "$bindir/initdb" -D "$dir" -A trust -U streakd -E UTF8 --locale="$locale" --no-sync 2>&1) ||
    { echo "$out" >&2; die "initdb failed in $dir"; }
  # fsync stays on: tests should see the same durability semantics as production.
  sock=${dir//\'/\'\'}
  pg tee -a "$dir/postgresql.conf" >/dev/null <<EOF

# postgres-test-server.sh
listen_addresses = '127.0.0.1'
unix_socket_directories = '$sock'
synchronous_commit = on
max_connections = 200
shared_buffers = 32MB
EOF
fi

# A free port: ask the kernel for one (bind to port 0), else a random one. Another process can
# take it before the server binds it, so a start that fails on an address in use is retried.
free_port() {
  if command -v python3 >/dev/null 2>&1 &&
     python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])' 2>/dev/null; then
    return
  fi
  echo $((20000 + RANDOM % 20000))
}

started=0
for _ in 1 2 3 4 5; do
  port=$(free_port)
  pg rm -f "$dir/log"
  if pg "$bindir/pg_ctl" start -D "$dir" -l "$dir/log" -w -t 30 -o "-p $port" >/dev/null 2>&1; then
    started=1
    break
  fi
  # Stop the server if pg_ctl only timed out waiting for it.
  pg "$bindir/pg_ctl" stop -D "$dir" -m immediate -w >/dev/null 2>&1 || true
  grep -q "Address already in use" "$dir/log" 2>/dev/null || break
done
if [ "$started" -ne 1 ]; then
  echo "postgres-test-server: could not start PostgreSQL in $dir; last lines of $dir/log:" >&2
  tail -n 20 "$dir/log" >&2 2>/dev/null || true
  exit 1
fi
pg sh -c 'echo "$1" >"$2"' sh "$port" "$dir/port"

psql=("$bindir/psql" -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$port" -U streakd -d postgres)
if [ -z "$("${psql[@]}" -tAc "select 1 from pg_database where datname = 'streakd'")" ]; then
  "${psql[@]}" -c 'create database streakd' >/dev/null || die "could not create database streakd in $dir"
fi
url "$port"
