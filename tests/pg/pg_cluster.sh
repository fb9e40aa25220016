#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests, never the system's service:
#   pg_cluster.sh start DIR   initdb into DIR/data, start on a free 127.0.0.1 port with the
#                             socket in DIR, create user idb_test and database idb_test with
#                             a random password (scram), and write DIR/url
#                             (postgresql://idb_test@127.0.0.1:PORT/idb_test) and DIR/password
#   pg_cluster.sh stop DIR    stop the server (fast, then immediate) and remove DIR
# When run as root the server runs as the postgres user, which then owns DIR.
set -euo pipefail

usage() { echo "usage: $0 start|stop DIR" >&2; exit 2; }
(($# == 2)) || usage
action=$1 dir=$2

# The server binaries: pg_config --bindir may name the client-only folder, so look for
# initdb beside it, then in Debian's versioned folders (newest first), then on PATH.
find_bindir() {
  local candidates=()
  command -v pg_config >/dev/null && candidates+=("$(pg_config --bindir)")
  mapfile -t -O "${#candidates[@]}" candidates < <(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -Vr)
  for d in "${candidates[@]}"; do
    [[ -x $d/initdb && -x $d/pg_ctl ]] && { echo "$d"; return; }
  done
  command -v initdb >/dev/null && { dirname "$(command -v initdb)"; return; }
  echo "pg_cluster: no PostgreSQL server binaries (initdb, pg_ctl): install postgresql" >&2
  exit 1
}

as_owner() {
  if [[ $(id -u) -eq 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi
}

port_free() {
  ! (echo >"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

start() {
  local bin port password
  bin=$(find_bindir)
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  [[ $(id -u) -eq 0 ]] && chown postgres: "$dir"
  password=$(head -c 18 /dev/urandom | base64 | tr -d '/+=')
  printf '%s\n' "$password" >"$dir/password.tmp"
  [[ $(id -u) -eq 0 ]] && chown postgres: "$dir/password.tmp"
  as_owner "$bin/initdb" -D "$dir/data" -U postgres --auth=scram-sha-256 \
    --pwfile="$dir/password.tmp" -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 ||
    { cat "$dir/initdb.log" >&2; exit 1; }
  local base=$((20000 + RANDOM % 20000))
  port=""
  for candidate in $(seq "$base" $((base + 200))); do
    port_free "$candidate" || continue
    port=$candidate
    if as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
      -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off" start >/dev/null; then
      break
    fi
    port=""
  done
  [[ -n $port ]] || { echo "pg_cluster: could not start a server" >&2; cat "$dir/server.log" >&2; exit 1; }
  "$bin/pg_isready" -q -h 127.0.0.1 -p "$port" -t 10
  PGPASSWORD=$password "$bin/psql" -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$port" -U postgres \
    -d postgres >/dev/null <<SQL
SET password_encryption = 'scram-sha-256';
CREATE ROLE idb_test LOGIN PASSWORD '$password';
CREATE DATABASE idb_test OWNER idb_test;
SQL
  echo "$port" >"$dir/port"
  echo "postgresql://idb_test@127.0.0.1:$port/idb_test" >"$dir/url"
  mv "$dir/password.tmp" "$dir/password"
  chmod 644 "$dir/url" "$dir/port" "$dir/password"
  echo "pg_cluster: started on 127.0.0.1:$port in $dir"
}

stop() {
  [[ -d $dir ]] || return 0
  local bin
  bin=$(find_bindir)
  if [[ -f $dir/data/postmaster.pid ]]; then
    as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w -t 20 stop >/dev/null 2>&1 ||
      as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w -t 20 stop >/dev/null 2>&1 || true
  fi
  rm -rf "$dir"
  echo "pg_cluster: stopped and removed $dir"
}

case $action in
  start) stop; start ;;
  stop) stop ;;
  *) usage ;;
esac
