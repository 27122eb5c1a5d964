#!/usr/bin/env bash
# Serve the whole product for browser tests on 127.0.0.1:PORT with a fresh database:
# granian, as in the image (dashboard build + API), a Celery worker and beat, root domain "localhost" so that
# companies live at http://SUB.localhost:PORT. Stops both on SIGTERM/SIGINT.
set -euo pipefail
cd "$(dirname "$0")/../.."
PORT="${1:-8765}"
BIN="$PWD/.venv/bin"
base="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/cms}"; base="${base%/*}"
export DATABASE_URL="$base/${E2E_DATABASE:-cms_e2e_$PORT}"
export REDIS_URL="${E2E_REDIS_URL:-redis://127.0.0.1:6379/8}"
export CELERY_TASK_DEFAULT_QUEUE="cms-e2e-$PORT"
export ROOT_DOMAIN=localhost PUBLIC_PORT="$PORT" PUBLIC_SCHEME=http DEBUG=0
export MEDIA_ROOT="$PWD/.data/e2e-media-$PORT" CELERY_BEAT_SCHEDULE_FILENAME="$PWD/.data/e2e-beat-$PORT"
export PYTHONPATH="$PWD/platform:$PWD"
# Production settings (DEBUG off) need signing keys: throw-away ones unless given.
new_key() { "$BIN/python" -c 'import secrets; print(secrets.token_urlsafe(48))'; }
export SECRET_KEY="${SECRET_KEY:-$(new_key)}" JWT_SECRET="${JWT_SECRET:-$(new_key)}"
mkdir -p .data

bash deploy/dev/services.sh >/dev/null
# A copy of a database migrate_schemas made from empty for this code (bench/common.py: made once per
# code, then each server's database is a file copy; migrate_schemas below finds nothing to do).
"$BIN/python" -c 'import sys; from bench.common import fresh_database; fresh_database(sys.argv[1])' \
  "${E2E_DATABASE:-cms_e2e_$PORT}"
redis-cli -u "$REDIS_URL" flushdb >/dev/null
"$BIN/python" manage.py migrate_schemas --noinput -v 0
"$BIN/python" manage.py seed_demo >/dev/null

pids=()
cleanup() {
  kill "${pids[@]}" 2>/dev/null || true; wait 2>/dev/null || true
  psql "$base/postgres" -qc "DROP DATABASE IF EXISTS \"${E2E_DATABASE:-cms_e2e_$PORT}\" WITH (FORCE)" 2>/dev/null || true
}
trap cleanup EXIT INT TERM
"$BIN/celery" -A config worker --pool solo --queues "$CELERY_TASK_DEFAULT_QUEUE" --loglevel WARNING \
  --without-gossip --without-mingle &
pids+=($!)
"$BIN/celery" -A config beat --loglevel WARNING --schedule "$CELERY_BEAT_SCHEDULE_FILENAME" &
pids+=($!)
WEB_HOST=127.0.0.1 WEB_PORT="$PORT" WEB_WORKERS=2 WEB_ACCESS_LOG=0 WEB_LOG_LEVEL=warning "$BIN/python" -m config.serve &
pids+=($!)
wait -n "${pids[@]}"
