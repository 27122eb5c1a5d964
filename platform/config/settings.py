"""Settings, every value from the environment with a working default for a laptop.

README.md lists each variable. Nothing here needs a file on disk to be edited.
"""
import os
import sys
from pathlib import Path

import dj_database_url

BASE_DIR = Path(__file__).resolve().parents[2]
if str(BASE_DIR) not in sys.path:
    sys.path.insert(0, str(BASE_DIR))


def env(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name)
    return int(value) if value not in (None, "") else default


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in env(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG", False)
SECRET_KEY = env("SECRET_KEY", "dev-insecure-secret-key-change-me-in-production-0123456789")
ROOT_DOMAIN = env("ROOT_DOMAIN", "localhost")
# The scheme and port used to build absolute URLs (login URL after sign-up, media links, API docs).
PUBLIC_SCHEME = env("PUBLIC_SCHEME", "http")
PUBLIC_PORT = env("PUBLIC_PORT", "8000")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", f".{ROOT_DOMAIN},{ROOT_DOMAIN},127.0.0.1")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")
# Number of reverse proxies in front of the app whose X-Forwarded-For is trusted.
TRUSTED_PROXY_COUNT = env_int("TRUSTED_PROXY_COUNT", 0)

# --- Tenancy -----------------------------------------------------------------------------
SHARED_APPS = [
    # tenants first: its migrate/migrate_schemas commands (which rebuild the provisioning
    # template) take precedence over django_tenants' own.
    "tenants",
    "django_tenants",
    "django.contrib.contenttypes",
    "apps.core",
]
TENANT_APPS = [
    "apps.accounts",
    "apps.content",
    "apps.media",
    "apps.analytics",
    "apps.ai",
]
INSTALLED_APPS = SHARED_APPS + [app for app in TENANT_APPS if app not in SHARED_APPS] + [
    "apps.public_api",
]
TENANT_MODEL = "tenants.Client"
TENANT_DOMAIN_MODEL = "tenants.Domain"
PUBLIC_SCHEMA_URLCONF = "config.urls_public"
ROOT_URLCONF = "config.urls"
DATABASE_ROUTERS = ("django_tenants.routers.TenantSyncRouter",)
# The schema every new tenant is copied from (rebuilt by migrate_schemas).
TENANT_TEMPLATE_SCHEMA = env("TENANT_TEMPLATE_SCHEMA", "tenant_template")
RESERVED_SUBDOMAINS = set(
    env_list(
        "RESERVED_SUBDOMAINS",
        "www,api,admin,app,apps,static,media,public,assets,cdn,mail,smtp,ftp,dashboard,"
        "auth,login,register,signup,status,help,support,docs,blog,dev,test,staging,root,"
        "system,internal,flower,metrics,health,tenant,template,default",
    )
)

MIDDLEWARE = [
    "apps.core.middleware.RequestIdMiddleware",
    "apps.core.middleware.TrailingSlashMiddleware",
    "tenants.middleware.TenantMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.middleware.common.CommonMiddleware",
]
APPEND_SLASH = False

DATABASE_URL = env("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/cms")
DATABASES = {
    "default": {
        **dj_database_url.parse(DATABASE_URL, conn_max_age=env_int("DB_CONN_MAX_AGE", 60)),
        "ENGINE": "django_tenants.postgresql_backend",
        "CONN_HEALTH_CHECKS": True,
    }
}
DATABASES["default"].setdefault("OPTIONS", {})
DATABASES["default"]["OPTIONS"].setdefault("connect_timeout", env_int("DB_CONNECT_TIMEOUT", 5))
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Redis: cache, throttles, broker -------------------------------------------------------
REDIS_URL = env("REDIS_URL", "redis://127.0.0.1:6379/0")
REDIS_SOCKET_TIMEOUT = float(env("REDIS_SOCKET_TIMEOUT", "0.5"))
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": REDIS_URL,
        "KEY_FUNCTION": "django_tenants.cache.make_key",
        "KEY_PREFIX": env("CACHE_KEY_PREFIX", "cms"),
        "OPTIONS": {
            "socket_timeout": REDIS_SOCKET_TIMEOUT,
            "socket_connect_timeout": REDIS_SOCKET_TIMEOUT,
        },
    }
}

CELERY_BROKER_URL = env("CELERY_BROKER_URL", REDIS_URL)
CELERY_RESULT_BACKEND = env("CELERY_RESULT_BACKEND", "") or None
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)
CELERY_TASK_DEFAULT_QUEUE = env("CELERY_TASK_DEFAULT_QUEUE", "cms")
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": env_int("CELERY_VISIBILITY_TIMEOUT", 3600)}
# Periodic tasks; each app adds its entries (see apps/*/tasks.py and README).
CELERY_BEAT_SCHEDULE: dict = {}
CELERY_BEAT_SCHEDULE_FILENAME = env("CELERY_BEAT_SCHEDULE_FILENAME", str(BASE_DIR / ".data" / "celerybeat-schedule"))

# --- Auth ------------------------------------------------------------------------------------
JWT_SECRET = env("JWT_SECRET", SECRET_KEY)
JWT_EXPIRES_IN = env_int("JWT_EXPIRES_IN", 24 * 3600)
LOGIN_MAX_FAILURES = env_int("LOGIN_MAX_FAILURES", 5)
LOGIN_MAX_FAILURES_PER_IP = env_int("LOGIN_MAX_FAILURES_PER_IP", 5)
LOGIN_FAILURE_WINDOW = env_int("LOGIN_FAILURE_WINDOW", 15 * 60)
PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
]
if env_bool("FAST_PASSWORD_HASHER", False):
    # Test runs only: hashing cost is not what they measure.
    PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# --- Static files and the dashboard build ------------------------------------------------------
DASHBOARD_DIST = Path(env("DASHBOARD_DIST", str(BASE_DIR / "dashboard" / "dist")))
STATIC_URL = "/static/"
WHITENOISE_ROOT = DASHBOARD_DIST if DASHBOARD_DIST.is_dir() else None
WHITENOISE_AUTOREFRESH = DEBUG
MEDIA_URL = "/media/"
MEDIA_ROOT = Path(env("MEDIA_ROOT", str(BASE_DIR / ".data" / "media")))
# Serve MEDIA_ROOT at /media from Django (local-disk storage without a front web server).
SERVE_MEDIA = env_bool("SERVE_MEDIA", True)

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {"context_processors": []},
    }
]
WSGI_APPLICATION = "config.wsgi.application"
USE_TZ = True
TIME_ZONE = "UTC"
LANGUAGE_CODE = "en-us"
DATA_UPLOAD_MAX_MEMORY_SIZE = env_int("DATA_UPLOAD_MAX_MEMORY_SIZE", 10 * 1024 * 1024)

# Callables (dotted paths) that add sample content to the demo tenant; run by seed_demo.
DEMO_SEED_HOOKS: list[str] = []

# --- Plans -------------------------------------------------------------------------------------
SUBSCRIPTION_PLANS = ("trial", "starter", "business", "enterprise")
DEFAULT_SUBSCRIPTION_PLAN = env("DEFAULT_SUBSCRIPTION_PLAN", "trial")
TRIAL_DAYS = env_int("TRIAL_DAYS", 14)

# --- Logging and error reporting ---------------------------------------------------------------
LOG_LEVEL = env("LOG_LEVEL", "INFO")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {"django.db.backends": {"level": "WARNING"}},
}

SENTRY_DSN = env("SENTRY_DSN", "")
if SENTRY_DSN:
    import sentry_sdk
    from sentry_sdk.integrations.celery import CeleryIntegration
    from sentry_sdk.integrations.django import DjangoIntegration

    sentry_sdk.init(
        dsn=SENTRY_DSN,
        integrations=[DjangoIntegration(), CeleryIntegration()],
        environment=env("SENTRY_ENVIRONMENT", "production"),
        traces_sample_rate=float(env("SENTRY_TRACES_SAMPLE_RATE", "0")),
        send_default_pii=False,
    )

# =============================================================================================
# Per-app settings. Each app keeps its settings in its own section below.
# =============================================================================================

# --- Content (apps.content) ------------------------------------------------------------------

# --- Media (apps.media) ----------------------------------------------------------------------

# --- Analytics and public content API (apps.analytics, apps.public_api) ---------------------

# --- AI writing (apps.ai) ----------------------------------------------------------------------
