#!/usr/bin/env bash
# A throwaway Redis on 127.0.0.1 only, for the tests and scripts/cluster.sh: the workers of a
# clustered web table pass each game's updates to one another through it.
#
#   scripts/redis.sh start   # prints the URL redis://127.0.0.1:PORT/0 (installs redis-server
#                            # with apt if it is missing and we are root)
#   scripts/redis.sh stop
#
# POCKETGALAXY_REDIS_PORT (default 63799) and POCKETGALAXY_REDIS_DIR (default
# /tmp/pocketgalaxy-redis) choose another server, e.g. scripts/cluster.sh's own.
# Nothing is saved to disk (no RDB snapshots, no append-only file): it is a message bus here.
# Exits non-zero (printing nothing on stdout) when no server can be had; the tests then say so.
set -euo pipefail

PORT="${POCKETGALAXY_REDIS_PORT:-63799}"
DIR="${POCKETGALAXY_REDIS_DIR:-/tmp/pocketgalaxy-redis}"
URL="redis://127.0.0.1:${PORT}/0"
PIDFILE="$DIR/redis.pid"

install_server() {
  command -v redis-server >/dev/null && return 0
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    # Wait for another apt run to finish (a parallel `make`) rather than fail at once.
    local apt=(apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends)
    ("${apt[@]}" redis-server >/dev/null 2>&1 ||
      (apt-get -o DPkg::Lock::Timeout=300 update -qq >/dev/null 2>&1 &&
        "${apt[@]}" redis-server >/dev/null 2>&1)) || true
  fi
  command -v redis-server >/dev/null
}

ping() {
  if command -v redis-cli >/dev/null; then
    [ "$(redis-cli -h 127.0.0.1 -p "$PORT" ping 2>/dev/null)" = "PONG" ]
  else
    # No client on PATH: a bare RESP PING through bash's /dev/tcp.
    local reply
    exec 3<>"/dev/tcp/127.0.0.1/$PORT" 2>/dev/null || return 1
    printf 'PING\r\n' >&3
    read -r -t 2 reply <&3 || true
    exec 3>&-
    [ "${reply%$'\r'}" = "+PONG" ]
  fi
}

start() {
  install_server || { echo "redis.sh: no redis-server and none could be installed" >&2; exit 1; }
  mkdir -p "$DIR"
  if ! ping; then
    # --save '' and --appendonly no: nothing written; --protected-mode yes with a loopback bind.
    redis-server --bind 127.0.0.1 --port "$PORT" --daemonize yes --pidfile "$PIDFILE" \
      --dir "$DIR" --logfile "$DIR/server.log" --save '' --appendonly no \
      --protected-mode yes >/dev/null
    local i
    for i in $(seq 1 100); do
      ping && break
      sleep 0.1
    done
    ping || { echo "redis.sh: redis-server did not answer on port $PORT (see $DIR/server.log)" >&2
              exit 1; }
  fi
  echo "$URL"
}

stop() {
  [ -s "$PIDFILE" ] || exit 0
  local pid
  pid=$(cat "$PIDFILE")
  # Only the server this script started (its pid file), never any other redis on the machine.
  if kill -0 "$pid" 2>/dev/null; then
    kill "$pid" 2>/dev/null || true
    local i
    for i in $(seq 1 50); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    kill -0 "$pid" 2>/dev/null && kill -9 "$pid" 2>/dev/null || true
  fi
  rm -f "$PIDFILE"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  *) echo "usage: scripts/redis.sh start|stop" >&2; exit 2 ;;
esac
