#!/usr/bin/env bash
# A throwaway clustered web table on loopback: PostgreSQL (the games and their action log), Redis
# (updates between workers) and N workers (`pocketgalaxy serve`) on consecutive ports.
#
#   scripts/cluster.sh up [--workers N]   # N = 1..16, default 3; prints the workers' addresses
#   scripts/cluster.sh status             # each worker's pid and /api/health; Redis; PostgreSQL
#   scripts/cluster.sh down               # stops everything `up` started (logs are kept)
#
# `up` starts afresh: the previous run's database and logs are removed first (a cluster that is
# still up is refused; run `down` first). Everything lives under the run folder:
#   POCKETGALAXY_CLUSTER_DIR   run folder               (default /tmp/pocketgalaxy-cluster)
#   POCKETGALAXY_CLUSTER_PORT  the first worker's port  (default 8100; then 8101, 8102, ...)
#   POCKETGALAXY_CLUSTER_PG_PORT / _REDIS_PORT          (defaults 54339 / 63809: not the tests')
# Each worker i has worker-i.pid, worker-i.log and its own data folder worker-i/ there. Any other
# POCKETGALAXY_* setting in the environment reaches every worker (docs/web.md, Settings).
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
RUN="${POCKETGALAXY_CLUSTER_DIR:-/tmp/pocketgalaxy-cluster}"
BASE_PORT="${POCKETGALAXY_CLUSTER_PORT:-8100}"
PG_PORT="${POCKETGALAXY_CLUSTER_PG_PORT:-54339}"
REDIS_PORT="${POCKETGALAXY_CLUSTER_REDIS_PORT:-63809}"
DB_NAME="pocketgalaxy"
HEALTH_TIMEOUT_S=60
MAX_WORKERS=16
PY="$ROOT/.venv/bin/python"

die() { echo "cluster.sh: $*" >&2; exit 1; }

pg() { POCKETGALAXY_PG_PORT="$PG_PORT" POCKETGALAXY_PG_DIR="$RUN/pg" "$ROOT/scripts/postgres.sh" "$@"; }
redis() {
  POCKETGALAXY_REDIS_PORT="$REDIS_PORT" POCKETGALAXY_REDIS_DIR="$RUN/redis" \
    "$ROOT/scripts/redis.sh" "$@"
}

pids() { ls "$RUN"/worker-*.pid 2>/dev/null | sort -V || true; }

alive() { [ -s "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

health() { curl -fsS --max-time 2 "http://127.0.0.1:$1/api/health" 2>/dev/null; }

up() {
  local workers=3
  while [ $# -gt 0 ]; do
    case "$1" in
      --workers) [ $# -ge 2 ] || die "--workers needs a number (1..$MAX_WORKERS)"
                 workers="$2"; shift 2 ;;
      --workers=*) workers="${1#--workers=}"; shift ;;
      *) die "unknown argument '$1' (allowed: --workers N)" ;;
    esac
  done
  [[ "$workers" =~ ^[0-9]+$ ]] && [ "$workers" -ge 1 ] && [ "$workers" -le "$MAX_WORKERS" ] ||
    die "--workers must be a whole number from 1 to $MAX_WORKERS, not '$workers'"
  [ -x "$PY" ] || die "no virtualenv at $ROOT/.venv (run \`make test-fast\` or \`make serve\` once)"
  command -v curl >/dev/null || die "curl is needed to wait for the workers (apt-get install curl)"
  local f
  for f in $(pids); do
    alive "$f" && die "a cluster is already up in $RUN (scripts/cluster.sh down first)"
  done
  local i port
  for i in $(seq 1 "$workers"); do
    port=$((BASE_PORT + i - 1))
    port_free "$port" || die "port $port is in use (set POCKETGALAXY_CLUSTER_PORT to another)"
  done
  # A fresh run: stop what an earlier run may have left, then remove its data.
  pg stop; redis stop
  rm -rf "$RUN"
  mkdir -p "$RUN"
  chmod 755 "$RUN"  # PostgreSQL runs as its own user when we are root and must reach pg/

  local pg_base redis_url db_url
  pg_base=$(pg start) || die "no PostgreSQL (scripts/postgres.sh could not start one)"
  redis_url=$(redis start) || { pg stop; die "no Redis (scripts/redis.sh could not start one)"; }
  db_url=$("$PY" - "$pg_base" "$DB_NAME" <<'EOF'
import sys
import sqlalchemy as sa
base, name = sys.argv[1], sys.argv[2]
admin = sa.create_engine(base, isolation_level="AUTOCOMMIT")
with admin.connect() as conn:
    conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
admin.dispose()
print(sa.engine.make_url(base).set(database=name).render_as_string(hide_password=False))
EOF
  ) || { redis stop; pg stop; die "could not create the database $DB_NAME"; }

  # The first worker creates the schema (Alembic) alone; the others start once it answers.
  for i in $(seq 1 "$workers"); do
    port=$((BASE_PORT + i - 1))
    mkdir -p "$RUN/worker-$i"
    POCKETGALAXY_DATABASE_URL="$db_url" POCKETGALAXY_REDIS_URL="$redis_url" \
      POCKETGALAXY_WORKER_ID="w$i" POCKETGALAXY_DATA_DIR="$RUN/worker-$i" PYTHONUNBUFFERED=1 \
      setsid "$ROOT/.venv/bin/pocketgalaxy" serve --host 127.0.0.1 --port "$port" \
      >"$RUN/worker-$i.log" 2>&1 </dev/null &
    echo $! >"$RUN/worker-$i.pid"
    echo "$port" >"$RUN/worker-$i.port"
    [ "$i" = 1 ] && wait_healthy 1 "$port"
  done
  for i in $(seq 2 "$workers"); do
    wait_healthy "$i" $((BASE_PORT + i - 1))
  done
  printf 'POCKETGALAXY_DATABASE_URL=%s\nPOCKETGALAXY_REDIS_URL=%s\n' "$db_url" "$redis_url" \
    >"$RUN/cluster.env"
  echo "database  $db_url"
  echo "redis     $redis_url"
  for i in $(seq 1 "$workers"); do
    echo "worker w$i http://127.0.0.1:$((BASE_PORT + i - 1))/  (pid $(cat "$RUN/worker-$i.pid"), log $RUN/worker-$i.log)"
  done
}

wait_healthy() {
  local i="$1" port="$2" waited=0
  until health "$port" >/dev/null; do
    if ! alive "$RUN/worker-$i.pid"; then
      tail -n 20 "$RUN/worker-$i.log" >&2 || true
      down >/dev/null 2>&1 || true
      die "worker w$i stopped while starting (log above: $RUN/worker-$i.log)"
    fi
    if [ "$waited" -ge $((HEALTH_TIMEOUT_S * 10)) ]; then
      tail -n 20 "$RUN/worker-$i.log" >&2 || true
      down >/dev/null 2>&1 || true
      die "worker w$i did not answer /api/health on port $port within ${HEALTH_TIMEOUT_S} s"
    fi
    sleep 0.1
    waited=$((waited + 1))
  done
}

stop_worker() {
  local f="$1" pid
  pid=$(cat "$f" 2>/dev/null) || return 0
  if kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid" 2>/dev/null || true
    local n
    for n in $(seq 1 150); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
  fi
  # setsid made the worker its own process group: its computer-player processes go with it.
  kill -KILL -- "-$pid" 2>/dev/null || true
  rm -f "$f" "${f%.pid}.port"
}

down() {
  local f
  for f in $(pids); do
    stop_worker "$f"
  done
  redis stop
  pg stop
  echo "cluster.sh: stopped (logs kept in $RUN)"
}

status() {
  local f i port found=0 state reply
  for f in $(pids); do
    found=1
    i="${f##*/worker-}"; i="${i%.pid}"
    port=$(cat "$RUN/worker-$i.port" 2>/dev/null || echo "?")
    if alive "$f"; then state="running (pid $(cat "$f"))"; else state="stopped"; fi
    reply=$(health "$port") || reply="no answer"
    echo "worker w$i http://127.0.0.1:$port/  $state  health: $reply"
  done
  [ "$found" = 1 ] || { echo "cluster.sh: no cluster in $RUN (scripts/cluster.sh up)"; return 1; }
  if [ -s "$RUN/cluster.env" ]; then
    local url
    url=$(sed -n 's/^POCKETGALAXY_REDIS_URL=//p' "$RUN/cluster.env")
    reply=$(redis-cli -u "$url" ping 2>/dev/null) || reply="no answer"
    echo "redis    $url  $reply"
    url=$(sed -n 's/^POCKETGALAXY_DATABASE_URL=//p' "$RUN/cluster.env")
    port=$(echo "$url" | sed -n 's|.*@127\.0\.0\.1:\([0-9]*\)/.*|\1|p')
    if (exec 3<>"/dev/tcp/127.0.0.1/${port:-$PG_PORT}") 2>/dev/null; then reply="listening"
    else reply="not listening"; fi
    echo "database $url  $reply"
  fi
}

case "${1:-}" in
  up) shift; up "$@" ;;
  down) down ;;
  status) status ;;
  *) echo "usage: scripts/cluster.sh up [--workers N] | status | down" >&2; exit 2 ;;
esac
