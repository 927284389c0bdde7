#!/usr/bin/env bash
# A throwaway PostgreSQL for the tests, on 127.0.0.1 only. `make test` uses it so the web store is
# tested on a second SQLAlchemy backend, not only on SQLite.
#
#   scripts/postgres.sh start   # prints the SQLAlchemy URL (installs the server with apt if root)
#   scripts/postgres.sh stop
#
# Exits non-zero (printing nothing on stdout) when no server can be had; the tests then say so.
set -euo pipefail

PORT="${POCKETGALAXY_PG_PORT:-54329}"
DIR="${POCKETGALAXY_PG_DIR:-/tmp/pocketgalaxy-pg}"
USER_NAME="pocketgalaxy"
URL="postgresql+psycopg://${USER_NAME}@127.0.0.1:${PORT}/postgres"

bin_dir() {
  local d
  for d in /usr/lib/postgresql/*/bin; do
    [ -x "$d/initdb" ] && { echo "$d"; return 0; }
  done
  return 1
}

# Run a server command as the postgres user when we are root (PostgreSQL refuses to run as root).
as_owner() {
  if [ "$(id -u)" = 0 ]; then su postgres -s /bin/bash -c "$*"; else bash -c "$*"; fi
}

start() {
  local bin
  if ! bin=$(bin_dir); then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
      (apt-get install -y -qq postgresql >/dev/null 2>&1 ||
        (apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq postgresql >/dev/null 2>&1)) || true
    fi
    bin=$(bin_dir) || { echo "postgres.sh: no PostgreSQL server and none could be installed" >&2; exit 1; }
  fi
  if [ ! -s "$DIR/PG_VERSION" ]; then
    mkdir -p "$DIR"
    [ "$(id -u)" = 0 ] && chown postgres "$DIR"
    as_owner "'$bin/initdb' -D '$DIR' -U '$USER_NAME' --auth=trust -E UTF8 >/dev/null"
  fi
  if ! as_owner "'$bin/pg_ctl' -D '$DIR' status >/dev/null 2>&1"; then
    as_owner "'$bin/pg_ctl' -D '$DIR' -l '$DIR/server.log' -w -t 60 \
      -o \"-c listen_addresses=127.0.0.1 -p $PORT -k /tmp -c fsync=off\" start >/dev/null"
  fi
  echo "$URL"
}

stop() {
  local bin
  bin=$(bin_dir) || exit 0
  as_owner "'$bin/pg_ctl' -D '$DIR' -m fast stop >/dev/null 2>&1" || true
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  *) echo "usage: scripts/postgres.sh start|stop" >&2; exit 2 ;;
esac
