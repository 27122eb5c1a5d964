#!/usr/bin/env bash
# Make sure PostgreSQL and Redis answer on localhost. Uses running ones; otherwise starts the
# system's cluster, or a private one under .data/ from the system binaries; otherwise says
# exactly what to install.
set -euo pipefail
cd "$(dirname "$0")/../.."
DATA="$PWD/.data"
PGHOST="${PGHOST:-127.0.0.1}"; PGPORT="${PGPORT:-5432}"
REDIS_PORT="${REDIS_PORT:-6379}"
mkdir -p "$DATA"

pg_up() { pg_isready -q -h "$PGHOST" -p "$PGPORT" 2>/dev/null; }
redis_up() { redis-cli -h 127.0.0.1 -p "$REDIS_PORT" ping 2>/dev/null | grep -q PONG; }
wait_for() { for _ in $(seq 1 50); do "$1" && return 0; sleep 0.2; done; return 1; }

if ! command -v pg_isready >/dev/null || ! command -v redis-cli >/dev/null; then
  echo "PostgreSQL and Redis are needed. On Debian/Ubuntu: sudo apt-get install -y postgresql redis-server" >&2
  echo "On macOS: brew install postgresql@15 redis" >&2
  exit 1
fi

if pg_up; then
  echo "PostgreSQL: answering on $PGHOST:$PGPORT"
else
  if command -v pg_ctlcluster >/dev/null && [ -d /etc/postgresql ] && [ -n "$(ls /etc/postgresql 2>/dev/null)" ]; then
    version=$(ls /etc/postgresql | sort -V | tail -n 1)
    echo "PostgreSQL: starting the system cluster $version/main"
    pg_ctlcluster --skip-systemctl-redirect "$version" main start || true
  fi
  if ! wait_for pg_up; then
    bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
    [ -n "$bindir" ] || bindir=$(dirname "$(command -v initdb || echo /nonexistent/initdb)")
    if [ ! -x "$bindir/initdb" ]; then
      echo "PostgreSQL is not running and initdb was not found. Install it: sudo apt-get install -y postgresql" >&2
      exit 1
    fi
    run=()
    if [ "$(id -u)" = 0 ]; then
      id postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres
      run=(runuser -u postgres --)
    fi
    if [ ! -f "$DATA/postgres/PG_VERSION" ]; then
      echo "PostgreSQL: creating a private cluster in .data/postgres"
      mkdir -p "$DATA/postgres"; [ "$(id -u)" = 0 ] && chown postgres "$DATA/postgres"
      "${run[@]}" "$bindir/initdb" -D "$DATA/postgres" -U postgres --auth=trust >/dev/null
    fi
    echo "PostgreSQL: starting the private cluster on $PGHOST:$PGPORT"
    "${run[@]}" "$bindir/pg_ctl" -D "$DATA/postgres" -l "$DATA/postgres/server.log" \
      -o "-p $PGPORT -c listen_addresses=$PGHOST -k /tmp" start >/dev/null
    wait_for pg_up || { echo "PostgreSQL did not start: see .data/postgres/server.log" >&2; exit 1; }
  fi
fi

if redis_up; then
  echo "Redis: answering on 127.0.0.1:$REDIS_PORT"
else
  command -v redis-server >/dev/null || { echo "Install Redis: sudo apt-get install -y redis-server" >&2; exit 1; }
  echo "Redis: starting a private server on 127.0.0.1:$REDIS_PORT"
  mkdir -p "$DATA/redis"
  redis-server --daemonize yes --bind 127.0.0.1 --port "$REDIS_PORT" --save "" --appendonly no \
    --dir "$DATA/redis" --logfile "$DATA/redis/redis.log"
  wait_for redis_up || { echo "Redis did not start: see .data/redis/redis.log" >&2; exit 1; }
fi
