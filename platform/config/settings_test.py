"""Settings for the test suite: the real PostgreSQL and Redis, isolated per xdist worker."""
import os
import secrets

os.environ.setdefault("FAST_PASSWORD_HASHER", "1")
# Signing keys of this run (DEBUG is off here, as in production): random, and in os.environ so
# that every server and worker the tests start uses the same ones.
os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(48))
os.environ.setdefault("JWT_SECRET", secrets.token_urlsafe(48))

from config.settings import *  # noqa: E402,F403
from config.settings import CACHES, env, env_int  # noqa: E402

_worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
_index = int(_worker[2:]) if _worker[2:].isdigit() else 0
# Each xdist worker (and each checkout running tests at once) gets its own Redis database.
_redis_base = env("TEST_REDIS_URL_BASE", "redis://127.0.0.1:6379")
REDIS_URL = f"{_redis_base}/{env_int('TEST_REDIS_DB', 10) + _index}"
CACHES["default"]["LOCATION"] = REDIS_URL
CACHES["default"]["KEY_PREFIX"] = f"test-{_worker}"
CELERY_BROKER_URL = REDIS_URL
CELERY_TASK_DEFAULT_QUEUE = f"cms-test-{_worker}"
CELERY_BEAT_SCHEDULE_FILENAME = "/tmp/cms-test-celerybeat-schedule"  # noqa: S108
ROOT_DOMAIN = "testserver.local"
ALLOWED_HOSTS = [".testserver.local", "testserver.local", "testserver", "127.0.0.1", "localhost"]
PUBLIC_PORT = "80"
DEBUG = False
# No spare schemas unless a test asks for them (lifecycle/tests/test_schema_pool.py).
SCHEMA_POOL_SIZE = env_int("SCHEMA_POOL_SIZE", 0)
# Plans' limits (apps.plans): the suite's companies are not limited, so that a test may make as many
# users, posts and media as it needs; the tests of the limits (apps/plans/tests) put the product's
# values (PLANS_AS_SHIPPED) back, or set their own.
PLANS_AS_SHIPPED = PLANS  # noqa: F405
_LIMITED = ("staff_seats", "posts", "media_bytes", "webhook_endpoints", "members", "emails_per_month")
PLANS = {name: {**values, **dict.fromkeys(_LIMITED)}
         for name, values in PLANS_AS_SHIPPED.items()}
