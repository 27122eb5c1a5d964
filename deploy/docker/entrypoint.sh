#!/bin/sh
# web | worker | beat | flower | migrate | <any command>
set -e
cd /app
case "${1:-web}" in
  web)
    # Django behind the public API's cache-hit fast path (docs/api/public.md), served by
    # granian (WEB_SERVER=gunicorn for gunicorn sync workers with --preload instead).
    if [ "${WEB_SERVER:-granian}" = "gunicorn" ]; then
      exec gunicorn apps.public_api.wsgi:application --bind "0.0.0.0:${PORT:-8000}" --workers "${WEB_WORKERS:-2}" \
        --threads "${WEB_THREADS:-1}" --timeout "${WEB_TIMEOUT:-60}" --max-requests "${WEB_MAX_REQUESTS:-5000}" \
        --max-requests-jitter 500 --preload --access-logfile -
    fi
    exec python -m config.serve ;;  # granian, application preloaded (platform/config/serve.py)
  worker)
    exec celery -A config worker --loglevel INFO --queues "${CELERY_TASK_DEFAULT_QUEUE:-cms}" \
      --concurrency "${WORKER_CONCURRENCY:-2}" ;;
  beat)
    exec celery -A config beat --loglevel INFO --schedule "${CELERY_BEAT_SCHEDULE_FILENAME:-/data/celerybeat-schedule}" ;;
  flower)
    # FLOWER_BASIC_AUTH=user:password is read by Flower itself; without it anyone could drive the workers.
    if [ -z "${FLOWER_BASIC_AUTH:-}" ]; then
      echo "Refusing to start: FLOWER_BASIC_AUTH is not set (user:password)" >&2; exit 2
    fi
    exec celery -A config flower --port="${FLOWER_PORT:-5555}" ;;
  migrate)
    python manage.py migrate_schemas --noinput
    if [ "${SEED_DEMO:-0}" = "1" ]; then python manage.py seed_demo; fi ;;
  *)
    exec "$@" ;;
esac
