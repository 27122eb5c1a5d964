"""Settings, every value from the environment with a working default for a laptop.

docs/configuration.md lists each variable (and links to the per-feature lists). Nothing here needs a
file on disk to be edited.
"""
import json
import os
import sys
from pathlib import Path
from urllib.parse import urlsplit

import dj_database_url
from limits import parse as parse_rate

from config.environment import email_settings, env, env_bool, env_int, env_list
from config.signing_keys import (HOW_TO_MAKE_ONE, RefusedSetting, refuse_to_start, signing_settings,
                                 webhook_secret_problem)

BASE_DIR = Path(__file__).resolve().parents[2]
if str(BASE_DIR) not in sys.path:
    sys.path.insert(0, str(BASE_DIR))

from apps.core.pooler import validate_mode as validate_pool_mode  # noqa: E402


DEBUG = env_bool("DEBUG", False)
# Signing secrets: required with DEBUG off (config/signing_keys.py says what is refused).
# Key rotation: tokens signed with one of JWT_PREVIOUS_SECRETS are accepted until JWT_PREVIOUS_SECRETS_UNTIL.
SECRET_KEY, JWT_SECRET, JWT_PREVIOUS_SECRETS, JWT_PREVIOUS_SECRETS_UNTIL = signing_settings(debug=DEBUG)
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
    # lifecycle first: its migrate/migrate_schemas commands (which rebuild the provisioning
    # template) take precedence over django_tenants' own. It has no models: the company's lifecycle
    # (sign-up, verification, deletion, backup, spare schemas, operator commands) above `tenants`,
    # the ground floor (the Client and Domain models, addresses, the Host -> company middleware).
    "lifecycle",
    "tenants",
    "django_tenants",
    "django.contrib.contenttypes",
    "apps.core",
    "apps.plans",
    "lifecycle.operator",
]
TENANT_APPS = [
    "apps.accounts",
    "apps.plans.company",  # the plan's counters, in the company's schema (apps.plans.rules)
    "apps.content",
    "apps.media",
    "apps.analytics",
    "apps.ai",
    "apps.webhooks",
    "apps.audit",
    "apps.portability",
    "apps.integrations",
    "apps.newsletters",  # readers' newsletters and their sends (docs/newsletters.md)
    "apps.members",  # the company's readers (docs/members.md); never staff
]
INSTALLED_APPS = SHARED_APPS + [app for app in TENANT_APPS if app not in SHARED_APPS] + [
    "apps.public_api",
    "apps.ghost_api",
    "apps.feeds",
]
TENANT_MODEL = "tenants.Client"
TENANT_DOMAIN_MODEL = "tenants.Domain"
# What a web process answers: "all" (the dashboard, its API, the root domain and the public content
# API) or "content" (the public content API of every company host and the health check only:
# config.urls_content; a pool of lean workers for websites' reads, docs/scaling-engines.md: Content web pool).
WEB_ROUTES = env("WEB_ROUTES", "all").strip().lower()
if WEB_ROUTES not in ("all", "content"):
    refuse_to_start(RefusedSetting(f"WEB_ROUTES must be all or content, not {WEB_ROUTES!r}"))
PUBLIC_SCHEMA_URLCONF = "config.urls_public" if WEB_ROUTES == "all" else "config.urls_content"
ROOT_URLCONF = "config.urls" if WEB_ROUTES == "all" else "config.urls_content"
DATABASE_ROUTERS = ("django_tenants.routers.TenantSyncRouter",)
# The schema every new tenant is copied from (rebuilt by migrate_schemas).
TENANT_TEMPLATE_SCHEMA = env("TENANT_TEMPLATE_SCHEMA", "tenant_template")
# How migrate_schemas migrates company schemas that are behind: "multiprocessing" (parallel)
# or "standard" (one by one).
# Issue `SET search_path` only when the connection's schema changes, not before every query
# (django-tenants clears its record of the path on set_tenant, rollback, savepoint rollback and
# close, which are the ways the server's path can differ from it). The Host -> company middleware
# keeps a connection's schema when the next request is for the same company.
TENANT_LIMIT_SET_CALLS = env_bool("TENANT_LIMIT_SET_CALLS", True)
TENANT_MIGRATION_EXECUTOR = env("TENANT_MIGRATION_EXECUTOR", "multiprocessing")
TENANT_MULTIPROCESSING_MAX_PROCESSES = env_int("TENANT_MULTIPROCESSING_MAX_PROCESSES", 2)
TENANT_MULTIPROCESSING_CHUNKS = env_int("TENANT_MULTIPROCESSING_CHUNKS", 2)
# Company schemas that record the same migrations get the same SQL, collected once and run in each
# schema from TENANT_MIGRATION_THREADS connections (lifecycle/batch_migrate.py); plans with RunPython
# or non-atomic migrations still go through the executor above.
TENANT_MIGRATION_BATCH = env_bool("TENANT_MIGRATION_BATCH", True)
TENANT_MIGRATION_THREADS = env_int("TENANT_MIGRATION_THREADS", 4)
RESERVED_SUBDOMAINS = set(
    env_list(
        "RESERVED_SUBDOMAINS",
        "www,api,admin,app,apps,static,media,public,assets,cdn,mail,smtp,ftp,dashboard,"
        "auth,login,register,signup,status,help,support,docs,blog,dev,test,staging,root,"
        "system,internal,flower,metrics,health,tenant,template,default",
    )
)

# The whole stack, outermost first (the only place it is written).
MIDDLEWARE = [
    # CORS for the public API only (CORS_URLS_REGEX below); answers preflights.
    "corsheaders.middleware.CorsMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "apps.core.security.ContentSecurityPolicyMiddleware",
    # The dashboard's built assets are the same on every host, known or not.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "apps.core.middleware.RequestIdMiddleware",
    # Non-JSON error pages under /api (405 from a router, Django's own 404/500) become the envelope.
    "apps.core.middleware.ApiErrorEnvelopeMiddleware",
    # JSON bodies above their limit: 413 before they are read.
    "apps.core.middleware.BodySizeLimitMiddleware",
    "apps.core.middleware.TrailingSlashMiddleware",
    # PostgreSQL unreachable: 503 with Retry-After (the envelope under /api) instead of 500.
    "apps.core.middleware.DatabaseUnavailableMiddleware",
    "tenants.middleware.TenantMiddleware",
    "django.middleware.common.CommonMiddleware",
]
APPEND_SLASH = False

# Security headers (apps/core/security.py adds the Content-Security-Policy).
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = env("SECURE_REFERRER_POLICY", "strict-origin-when-cross-origin")
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# Served over HTTPS (PUBLIC_SCHEME=https): browsers are told to use HTTPS only for a year, and
# plain-HTTP requests are redirected, except the health check (probes call the pods directly).
_HTTPS = PUBLIC_SCHEME == "https"
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000 if _HTTPS else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", _HTTPS)
SECURE_REDIRECT_EXEMPT = [r"^api/health(?:/live|/ready)?/?$"]  # (apps.core.health.PATHS)
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if env_bool("TRUST_X_FORWARDED_PROTO") else None
# Asking browsers to put the root domain and every subdomain on their built-in HTTPS-only list
# cannot be undone quickly: the operator decides (SECURE_HSTS_PRELOAD=1).
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
# `manage.py check --deploy` (run by the tests with production settings) passes with two checks
# silenced: security.W003 asks for CsrfViewMiddleware, but no endpoint reads a cookie or a
# session (the APIs authenticate with a bearer token or an API key header, which a cross-site
# form cannot send); security.W021 asks for SECURE_HSTS_PRELOAD, the operator's decision above.
SILENCED_SYSTEM_CHECKS = ["security.W003", "security.W021"]
# Where the dashboard may load images from besides itself: media storage/CDN, YouTube thumbnails.
CSP_MEDIA_SOURCES = env_list("CSP_MEDIA_SOURCES", "https:,http://localhost:9000,https://i.ytimg.com")

DATABASE_URL = env("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/cms")
DATABASES = {
    "default": {
        **dj_database_url.parse(DATABASE_URL, conn_max_age=env_int("DB_CONN_MAX_AGE", 60)),
        "ENGINE": "django_tenants.postgresql_backend",
        "CONN_HEALTH_CHECKS": True,
    }
}
DATABASES["default"].setdefault("OPTIONS", {})
# A connection that has served this many companies is closed when its request ends (apps.core.db
# schema_visited: PostgreSQL keeps ~180 KB of catalog cache per company schema a connection touched).
DB_CONNECTION_MAX_SCHEMAS = env_int("DB_CONNECTION_MAX_SCHEMAS", 200)
# Periodic work that visits every company runs as one task per this many companies (apps.core.tenancy
# fan_out), spread over the workers; each chunk's connection is closed at its end.
COMPANIES_CHUNK_SIZE = env_int("COMPANIES_CHUNK_SIZE", 200)
DATABASES["default"]["OPTIONS"].setdefault("connect_timeout", env_int("DB_CONNECT_TIMEOUT", 5))
# Prepared statements for the hot reads run through apps.core.db.fetch_prepared (prepared on
# first use, once per connection, run on their generic plan); every other query is bound on the
# client and never prepared. Turn off behind a connection pooler in transaction mode that does
# not keep them (PgBouncer before 1.21).
DB_PREPARED_STATEMENTS = env_bool("DB_PREPARED_STATEMENTS", True)
DATABASES["default"]["OPTIONS"].setdefault("prepare_threshold", 0 if DB_PREPARED_STATEMENTS else None)
# PostgreSQL's JIT compiles a query whose estimated cost passes jit_above_cost: tens of
# milliseconds spent on statements that run in one (a category page's generic plan took 40 ms
# instead of 1). Off for the application's connections unless DB_JIT is set.
DB_JIT = env_bool("DB_JIT", False)
# How the app reaches PostgreSQL: "direct", or "session" behind PgBouncer in session mode (the
# session settings below are then sent with SET after connecting: PgBouncer refuses the startup
# `options`). Transaction and statement pooling are refused (apps/core/pooler.py says why), and
# DB_POOL_CHECK detects them at a process's first connection whatever this says.
DB_POOL_MODE = validate_pool_mode(env("DB_POOL_MODE", "direct"))
DB_POOL_CHECK = env_bool("DB_POOL_CHECK", True)
_session = [*([] if DB_JIT else ["-c jit=off"]),
            *(["-c plan_cache_mode=force_generic_plan"] if DB_PREPARED_STATEMENTS else [])]
if DB_POOL_MODE == "direct":
    DATABASES["default"]["OPTIONS"]["options"] = " ".join(
        [DATABASES["default"]["OPTIONS"].get("options", ""), *_session]).strip()
# django-tenants' backend builds on this one: Django's, with the pooler check (apps/core/pooler.py).
ORIGINAL_BACKEND = "apps.core.db_backend"
# Read replicas (zero or more): the public API's published-content reads go to a healthy one
# (apps/core/replicas.py); writes and reads that must see them stay on "default".
DATABASE_REPLICA_URLS = env_list("DATABASE_REPLICA_URLS", "")
DB_REPLICA_ALIASES = []
for _n, _url in enumerate(DATABASE_REPLICA_URLS):
    _alias = f"replica{_n}"
    DATABASES[_alias] = {**DATABASES["default"], **dj_database_url.parse(_url, conn_max_age=DATABASES["default"]["CONN_MAX_AGE"]),
                         "ENGINE": DATABASES["default"]["ENGINE"], "OPTIONS": dict(DATABASES["default"]["OPTIONS"]),
                         "TEST": {"MIRROR": "default"}}
    DB_REPLICA_ALIASES.append(_alias)
DB_REPLICA_MAX_LAG = float(env("DB_REPLICA_MAX_LAG", "5"))
DB_REPLICA_CHECK_SECONDS = float(env("DB_REPLICA_CHECK_SECONDS", "2"))
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
# Messages are acknowledged when a worker takes them; tasks that are idempotent say acks_late=True
# (acknowledged after they ran: a worker killed mid-task leaves them to be delivered again).
CELERY_TASK_ACKS_LATE = False
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_REJECT_ON_WORKER_LOST = True
# Redis gives a message taken and not acknowledged back after this many seconds: longer than the
# longest acks_late task (an AI job: at most AI_JOB_TIME_LIMIT) and than any countdown (a retry's
# wait; longer waits go through the outbox's due time), or a task still running is delivered again.
CELERY_VISIBILITY_TIMEOUT = env_int("CELERY_VISIBILITY_TIMEOUT", 600)
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": CELERY_VISIBILITY_TIMEOUT}
# Redis Sentinel (docs/scaling-engines.md#redis-sentinel): REDIS_SENTINELS lists the sentinels
# ("host:port,host:port,host:port") watching the primary named REDIS_SENTINEL_MASTER; REDIS_URL then
# gives only the database number and the password (its host is not used). The cache, the throttles,
# the apps' clients (apps.core.redis_conn) and Celery's broker (kombu's sentinel transport; unless
# CELERY_BROKER_URL is set) follow the primary through a failover. REDIS_SENTINEL_PASSWORD: the
# sentinels' own password, if they have one.
REDIS_SENTINELS = [(host.strip(), int(port)) for host, port in
                   (item.rsplit(":", 1) for item in env_list("REDIS_SENTINELS"))]
REDIS_SENTINEL_MASTER = env("REDIS_SENTINEL_MASTER", "cms")
REDIS_SENTINEL_PASSWORD = env("REDIS_SENTINEL_PASSWORD", "") or None
if REDIS_SENTINELS:
    CACHES["default"]["OPTIONS"]["pool_class"] = "apps.core.redis_conn.SentinelPool"
    if not env("CELERY_BROKER_URL", ""):
        _redis = urlsplit(REDIS_URL)
        _auth = _redis.netloc.rsplit("@", 1)[0] + "@" if "@" in _redis.netloc else ""
        CELERY_BROKER_URL = ";".join(f"sentinel://{_auth}{host}:{port}/{_redis.path.strip('/') or '0'}"
                                     for host, port in REDIS_SENTINELS)
    _sentinel_kwargs = {"socket_timeout": REDIS_SOCKET_TIMEOUT, "socket_connect_timeout": REDIS_SOCKET_TIMEOUT,
                        **({"password": REDIS_SENTINEL_PASSWORD} if REDIS_SENTINEL_PASSWORD else {})}
    CELERY_BROKER_TRANSPORT_OPTIONS.update(master_name=REDIS_SENTINEL_MASTER, sentinel_kwargs=_sentinel_kwargs)
# Periodic tasks; each app adds its entries (see apps/*/tasks.py and docs/).
CELERY_BEAT_SCHEDULE: dict = {}
# The outbox (apps.core.outbox): what must leave the system after a commit. The relay runs every
# OUTBOX_RELAY_SECONDS; a message sent and not finished in OUTBOX_LEASE_SECONDS (doubling for
# each further sending) is sent again, at most OUTBOX_MAX_DISPATCHES times before it shows as
# stuck; a retry due within OUTBOX_COUNTDOWN_MAX_SECONDS is also sent at once with a countdown.
# `manage.py outbox` counts as stuck what has been due or unfinished for OUTBOX_STUCK_SECONDS.
OUTBOX_RELAY_SECONDS = float(env("OUTBOX_RELAY_SECONDS", "5"))
OUTBOX_LEASE_SECONDS = env_int("OUTBOX_LEASE_SECONDS", 120)
OUTBOX_MAX_DISPATCHES = env_int("OUTBOX_MAX_DISPATCHES", 8)
OUTBOX_COUNTDOWN_MAX_SECONDS = env_int("OUTBOX_COUNTDOWN_MAX_SECONDS", 60)
OUTBOX_BATCH = env_int("OUTBOX_BATCH", 200)
OUTBOX_STUCK_SECONDS = env_int("OUTBOX_STUCK_SECONDS", 300)
CELERY_BEAT_SCHEDULE["core-outbox-relay"] = {
    "task": "core.outbox_relay",
    "schedule": OUTBOX_RELAY_SECONDS,
    "options": {"expires": OUTBOX_RELAY_SECONDS},
}
CELERY_BEAT_SCHEDULE_FILENAME = env("CELERY_BEAT_SCHEDULE_FILENAME", str(BASE_DIR / ".data" / "celerybeat-schedule"))

# --- Auth ------------------------------------------------------------------------------------
JWT_EXPIRES_IN = env_int("JWT_EXPIRES_IN", 24 * 3600)
# The longest lifetime (exp - iat) a token may claim; longer ones are refused at verification.
JWT_MAX_LIFETIME = env_int("JWT_MAX_LIFETIME", 7 * 24 * 3600)
if JWT_EXPIRES_IN > JWT_MAX_LIFETIME:
    refuse_to_start(RefusedSetting(f"JWT_EXPIRES_IN ({JWT_EXPIRES_IN}) is above JWT_MAX_LIFETIME ({JWT_MAX_LIFETIME})"))
# Failed logins (apps.accounts.services.auth_login): per (company, email, client address) and per
# client address within LOGIN_FAILURE_WINDOW; per (company, email) from every address together within
# LOGIN_ACCOUNT_FAILURE_WINDOW, a ceiling on distributed guessing.
LOGIN_MAX_FAILURES = env_int("LOGIN_MAX_FAILURES", 5)
LOGIN_MAX_FAILURES_PER_IP = env_int("LOGIN_MAX_FAILURES_PER_IP", 5)
LOGIN_FAILURE_WINDOW = env_int("LOGIN_FAILURE_WINDOW", 15 * 60)
LOGIN_MAX_FAILURES_PER_ACCOUNT = env_int("LOGIN_MAX_FAILURES_PER_ACCOUNT", 50)
LOGIN_ACCOUNT_FAILURE_WINDOW = env_int("LOGIN_ACCOUNT_FAILURE_WINDOW", 3600)
PASSWORD_HASHERS = [
    "apps.accounts.hashers.Argon2idHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
]
if env_bool("FAST_PASSWORD_HASHER", False):
    # Test runs only: hashing cost is not what they measure.
    PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# --- Email (apps.core.email) -------------------------------------------------------------------
# Where mail goes: EMAIL_URL (smtp://, smtps://, console://) or the EMAIL_HOST family (see
# config.environment.email_settings). DEBUG without either prints messages on the worker's output.
globals().update(email_settings(DEBUG))
DEFAULT_FROM_EMAIL = env("DEFAULT_FROM_EMAIL", f"CMS <no-reply@{ROOT_DOMAIN}>")
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 10)
# Tries of one message (connection refused, timeouts, 4xx/5xx of the server), with a doubling
# delay from EMAIL_RETRY_BASE_SECONDS up to EMAIL_RETRY_MAX_SECONDS.
EMAIL_MAX_ATTEMPTS = env_int("EMAIL_MAX_ATTEMPTS", 6)
EMAIL_RETRY_BASE_SECONDS = float(env("EMAIL_RETRY_BASE_SECONDS", "30"))
EMAIL_RETRY_MAX_SECONDS = float(env("EMAIL_RETRY_MAX_SECONDS", "3600"))
# Password reset links (apps.accounts.links) stay valid this many seconds, and once only.
PASSWORD_RESET_TIMEOUT = env_int("PASSWORD_RESET_TIMEOUT", 3600)
# "Forgot password?" requests allowed per client address and per email (`limits` notation).
PASSWORD_RESET_RATE_PER_IP = env("PASSWORD_RESET_RATE_PER_IP", "10/hour")
PASSWORD_RESET_RATE_PER_EMAIL = env("PASSWORD_RESET_RATE_PER_EMAIL", "3/hour")
# Email verification at sign-up (lifecycle.verification): link lifetime (seconds), "Resend" rate per
# company, days after which a company still unverified is deleted (a daily beat task).
EMAIL_VERIFICATION_MAX_AGE = env_int("EMAIL_VERIFICATION_MAX_AGE", 3 * 24 * 3600)
VERIFICATION_RESEND_RATE = env("VERIFICATION_RESEND_RATE", "3/hour")
UNVERIFIED_COMPANY_DAYS = env_int("UNVERIFIED_COMPANY_DAYS", 7)
CELERY_BEAT_SCHEDULE["tenants-delete-unverified-companies"] = {
    "task": "tenants.delete_unverified_companies",
    "schedule": float(env_int("UNVERIFIED_COMPANY_CHECK_SECONDS", 24 * 3600)),
}
# Spare company schemas cloned ahead of sign-ups (lifecycle/provisioning.py); 0 turns the pool off.
SCHEMA_POOL_SIZE = env_int("SCHEMA_POOL_SIZE", 5)
CELERY_BEAT_SCHEDULE["tenants-refill-schema-pool"] = {
    "task": "tenants.refill_schema_pool",
    "schedule": float(env_int("SCHEMA_POOL_CHECK_SECONDS", 300)),
}
# Invitations by email (apps.accounts): days a link stays valid; accept attempts per client address.
INVITATION_DAYS = env_int("INVITATION_DAYS", 7)
INVITATION_ACCEPT_RATE_PER_IP = env("INVITATION_ACCEPT_RATE_PER_IP", "20/hour")
# Two-factor sign-in (apps.accounts.two_factor): lifetime of the login challenge (seconds); code
# attempts per challenge and per user (`limits` notation; setup, disable and regeneration count too).
TWO_FACTOR_CHALLENGE_SECONDS = env_int("TWO_FACTOR_CHALLENGE_SECONDS", 300)
TWO_FACTOR_RATE_PER_CHALLENGE = env("TWO_FACTOR_RATE_PER_CHALLENGE", "5/5minutes")
TWO_FACTOR_RATE_PER_USER = env("TWO_FACTOR_RATE_PER_USER", "10/15minutes")
TWO_FACTOR_ISSUER = env("TWO_FACTOR_ISSUER", "CMS")
# Sign-in on the root domain by email (tenants.directory): requests per client address and per email.
FIND_COMPANIES_RATE_PER_IP = env("FIND_COMPANIES_RATE_PER_IP", "10/hour")
FIND_COMPANIES_RATE_PER_EMAIL = env("FIND_COMPANIES_RATE_PER_EMAIL", "3/hour")

# --- Static files and the dashboard build ------------------------------------------------------
DASHBOARD_DIST = Path(env("DASHBOARD_DIST", str(BASE_DIR / "dashboard" / "dist")))
STATIC_URL = "/static/"
WHITENOISE_ROOT = DASHBOARD_DIST if DASHBOARD_DIST.is_dir() else None
WHITENOISE_AUTOREFRESH = DEBUG
# Vite names every built script, style sheet and image after its content (name-<8 chars>.ext):
# those are cached for a year as immutable. The build writes .br and .gz siblings of each
# (vite-plugin-compression2); WhiteNoise sends the smallest one the browser accepts.
WHITENOISE_IMMUTABLE_FILE_TEST = r"^/?assets/.+-[A-Za-z0-9_-]{8}\.[a-z0-9]+$"
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
# JSON bodies above these sizes get 413 before they are read (apps.core.middleware.body_limit):
# any API call, and the writes of a post (its whole HTML).
JSON_BODY_MAX_BYTES = env_int("JSON_BODY_MAX_BYTES", 1024 * 1024)
POST_BODY_MAX_BYTES = env_int("POST_BODY_MAX_BYTES", 5 * 1024 * 1024)

# Callables (dotted paths) that add sample content to the demo tenant; run by seed_demo.
DEMO_SEED_HOOKS: list[str] = []

# --- Plans -------------------------------------------------------------------------------------
SUBSCRIPTION_PLANS = ("trial", "starter", "business", "enterprise")
DEFAULT_SUBSCRIPTION_PLAN = env("DEFAULT_SUBSCRIPTION_PLAN", "trial")
# Company sign-ups allowed (limits notation: "5/hour", "100 per 10 minutes"): per client address,
# per contact email, and for the whole product; above them, 429 with Retry-After.
SIGNUP_RATE_PER_IP = env("SIGNUP_RATE_PER_IP", "5/hour")
SIGNUP_RATE_PER_EMAIL = env("SIGNUP_RATE_PER_EMAIL", "3/day")
SIGNUP_RATE_GLOBAL = env("SIGNUP_RATE_GLOBAL", "100/hour")
for _name in ("SIGNUP_RATE_PER_IP", "SIGNUP_RATE_PER_EMAIL", "SIGNUP_RATE_GLOBAL"):
    try:
        parse_rate(globals()[_name])
    except ValueError:
        refuse_to_start(RefusedSetting(f"{_name} is not a rate such as 5/hour: {globals()[_name]!r}"))
TRIAL_DAYS = env_int("TRIAL_DAYS", 14)
# What each plan allows (apps/plans, docs/plans-and-usage.md): staff accounts, posts, bytes of media
# originals, webhook endpoints, members (readers), newsletter emails a month (UTC calendar month), and
# its feature switches; None is no limit. The public API's requests per window and the AI's jobs per
# day are PUBLIC_API_RATE_LIMITS and AI_DAILY_QUOTA below.
# PLAN_LIMITS (JSON, e.g. {"trial": {"posts": 50}}) changes values; an operator overrides a limit
# for one company (Client.plan_overrides).
_GB = 1024 ** 3
PLANS: dict[str, dict] = {
    # A trial tries the product as a company would use it: every role, a whole blog imported.
    "trial": {"staff_seats": 10, "posts": 10_000, "media_bytes": 5 * _GB, "webhook_endpoints": 5,
              "members": 1_000, "emails_per_month": 10_000,
              "features": {"ai_writing": True, "webhooks": True}},
    "starter": {"staff_seats": 5, "posts": 1_000, "media_bytes": 5 * _GB, "webhook_endpoints": 5,
                "members": 10_000, "emails_per_month": 100_000,
                "features": {"ai_writing": True, "webhooks": True}},
    "business": {"staff_seats": 25, "posts": 25_000, "media_bytes": 50 * _GB, "webhook_endpoints": 20,
                 "members": 100_000, "emails_per_month": 1_000_000,
                 "features": {"ai_writing": True, "webhooks": True}},
    "enterprise": {"staff_seats": None, "posts": None, "media_bytes": None, "webhook_endpoints": None,
                   "members": None, "emails_per_month": None,
                   "features": {"ai_writing": True, "webhooks": True}},
}
try:
    for _plan, _values in json.loads(env("PLAN_LIMITS", "") or "{}").items():
        PLANS.setdefault(_plan, dict(PLANS["trial"])).update(_values)
except (ValueError, AttributeError):
    refuse_to_start(RefusedSetting("PLAN_LIMITS must be a JSON object of plans, e.g. {\"trial\": {\"posts\": 50}}"))
# The trial's end (apps/plans/trial.py): reminder emails this many days before; after the end the
# dashboard is read-only and the public API keeps serving for the grace period, then answers 402.
TRIAL_REMINDER_DAYS = [int(day) for day in env_list("TRIAL_REMINDER_DAYS", "7,1")]
TRIAL_PUBLIC_API_GRACE_DAYS = env_int("TRIAL_PUBLIC_API_GRACE_DAYS", 7)
# Usage per company per day (apps/plans/usage.py), kept this many days.
USAGE_RETENTION_DAYS = env_int("USAGE_RETENTION_DAYS", 400)
USAGE_FLUSH_SECONDS = float(env("USAGE_FLUSH_SECONDS", "5"))  # a web process sends its API request counts
CELERY_BEAT_SCHEDULE["plans-usage-fold"] = {
    "task": "plans.usage_fold",
    "schedule": float(env_int("USAGE_FOLD_SECONDS", 300)),
}
CELERY_BEAT_SCHEDULE["plans-usage-purge"] = {"task": "plans.usage_purge", "schedule": 24 * 3600.0}
# Counters checked against a count once a day (apps.plans.rules.plan_recount).
CELERY_BEAT_SCHEDULE["plans-recount"] = {"task": "plans.recount", "schedule": 24 * 3600.0}
CELERY_BEAT_SCHEDULE["plans-trial-reminders"] = {
    "task": "plans.trial_reminders",
    "schedule": float(env_int("TRIAL_REMINDER_SECONDS", 3600)),
}

# --- The operator console (/operator/ on the root domain, lifecycle/operator) ----------------------------
# Sign-in attempts (password and authenticator code steps) per client address and per email.
OPERATOR_SIGN_IN_RATE = env("OPERATOR_SIGN_IN_RATE", "10/15minutes")
# Requests per integration on Ghost's Admin API (apps.ghost_api.admin.views), reads and writes.
GHOST_ADMIN_API_RATE = env("GHOST_ADMIN_API_RATE", "300/minute")
# A console session (lifecycle/operator/session.py, kept on the server): it ends this long after its
# sign-in at the latest, after OPERATOR_SESSION_IDLE_SECONDS without a request, and the step between
# password and code lasts OPERATOR_PASSWORD_STEP_SECONDS (used once).
OPERATOR_SESSION_SECONDS = env_int("OPERATOR_SESSION_SECONDS", 8 * 3600)
OPERATOR_SESSION_IDLE_SECONDS = env_int("OPERATOR_SESSION_IDLE_SECONDS", 30 * 60)
OPERATOR_PASSWORD_STEP_SECONDS = env_int("OPERATOR_PASSWORD_STEP_SECONDS", 5 * 60)
for _name in ("OPERATOR_SESSION_SECONDS", "OPERATOR_SESSION_IDLE_SECONDS", "OPERATOR_PASSWORD_STEP_SECONDS"):
    if globals()[_name] <= 0:
        refuse_to_start(RefusedSetting(f"{_name} is a number of seconds above 0: {globals()[_name]!r}"))
# Support access (apps/accounts/support.py): a company admin grants it for 1 to this many hours; an
# operator's session as a user lasts at most SUPPORT_SESSION_SECONDS (and never past the grant);
# the console's link that opens it works once, within SUPPORT_LINK_SECONDS.
SUPPORT_GRANT_MAX_HOURS = env_int("SUPPORT_GRANT_MAX_HOURS", 24)
SUPPORT_SESSION_SECONDS = env_int("SUPPORT_SESSION_SECONDS", 3600)
SUPPORT_LINK_SECONDS = env_int("SUPPORT_LINK_SECONDS", 120)

# --- Logging and error reporting ---------------------------------------------------------------
LOG_LEVEL = env("LOG_LEVEL", "INFO")
# "json" (one JSON object per line, for log pipelines) or "plain".
LOG_FORMAT = env("LOG_FORMAT", "plain")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"context": {"()": "apps.core.logging.ContextFilter"}},
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s [%(tenant)s %(request_id)s] %(message)s"},
        "json": {
            "()": "pythonjsonlogger.json.JsonFormatter",
            "fmt": "%(asctime)s %(levelname)s %(name)s %(tenant)s %(request_id)s %(message)s",
            "rename_fields": {"asctime": "time", "levelname": "level", "name": "logger"},
        },
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": "json" if LOG_FORMAT == "json" else "plain",
            "filters": ["context"],
        }
    },
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {"django.db.backends": {"level": "WARNING"}},
}

# Seconds each dependency gets to answer GET /api/health.
HEALTH_CHECK_TIMEOUT = float(env("HEALTH_CHECK_TIMEOUT", "2"))
# Who sees each dependency's check (anyone else gets the overall status only): callers sending this
# token (empty: none), and callers from these networks (comma-separated CIDRs).
HEALTH_DETAIL_TOKEN = env("HEALTH_DETAIL_TOKEN", "")
HEALTH_DETAIL_NETWORKS = env("HEALTH_DETAIL_NETWORKS", "127.0.0.1/32,::1/128")
# Prometheus metrics at /metrics on the root domain (apps/core/metrics.py), for callers sending
# METRICS_TOKEN (Authorization: Bearer) or calling from METRICS_NETWORKS; outside development
# neither has a default, so the endpoint answers 403 until one is set.
METRICS_TOKEN = env("METRICS_TOKEN", "")
METRICS_NETWORKS = env("METRICS_NETWORKS", "127.0.0.1/32,::1/128" if DEBUG else "")

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
# Scheduled publishing: Celery beat checks every CONTENT_PUBLISH_INTERVAL seconds for posts whose
# scheduledPublishDate has come, in the companies (not suspended) the index names.
CONTENT_PUBLISH_INTERVAL = env_int("CONTENT_PUBLISH_INTERVAL", 60)
# A per-company publish task not started within this many seconds is dropped (the next run covers it).
CONTENT_PUBLISH_TASK_EXPIRES = env_int("CONTENT_PUBLISH_TASK_EXPIRES", 300)
CELERY_BEAT_SCHEDULE["content-publish-scheduled-posts"] = {
    "task": "content.publish_scheduled_posts",
    "schedule": float(CONTENT_PUBLISH_INTERVAL),
    "options": {"expires": CONTENT_PUBLISH_INTERVAL},
}
# The companies with a post due come from an index (apps.content.scheduling); every
# CONTENT_PUBLISH_SWEEP_SECONDS a sweep visits every company, publishes and repairs the index.
CONTENT_PUBLISH_SWEEP_SECONDS = env_int("CONTENT_PUBLISH_SWEEP_SECONDS", 3600)
CELERY_BEAT_SCHEDULE["content-publish-sweep"] = {
    "task": "content.publish_sweep",
    "schedule": float(CONTENT_PUBLISH_SWEEP_SECONDS),
    "options": {"expires": CONTENT_PUBLISH_SWEEP_SECONDS},
}
DEMO_SEED_HOOKS.append("apps.content.seed.seed_demo_content")
# Revisions: every save of a post keeps one; a daily task keeps the newest CONTENT_REVISIONS_KEEP of
# each post plus every one that left it published.
CONTENT_REVISIONS_KEEP = env_int("CONTENT_REVISIONS_KEEP", 50)
# Preview links of drafts (GET /api/v1/preview/{token}) expire this many days after they are made.
PREVIEW_LINK_DAYS = env_int("PREVIEW_LINK_DAYS", 7)
CELERY_BEAT_SCHEDULE["content-prune-revisions"] = {
    "task": "content.prune_revisions",
    "schedule": float(env_int("CONTENT_REVISIONS_PRUNE_SECONDS", 24 * 3600)),
}

# --- Media (apps.media) ----------------------------------------------------------------------
# Where media files live: "local" (MEDIA_ROOT, served at MEDIA_URL) or "s3" (any S3-compatible
# service: AWS S3, DigitalOcean Spaces, MinIO). Keys always start with the tenant's schema.
MEDIA_STORAGE = env("MEDIA_STORAGE", "local").strip().lower()
MEDIA_STORAGE_ALIAS = "media"
MEDIA_MAX_UPLOAD_BYTES = env_int("MEDIA_MAX_UPLOAD_BYTES", 5 * 1024 * 1024)
MEDIA_MAX_PIXELS = env_int("MEDIA_MAX_PIXELS", 40_000_000)
# Rendition widths in pixels: thumbnail, small, medium, large (never upscaled).
MEDIA_RENDITION_WIDTHS = dict(
    zip(("thumbnail", "small", "medium", "large"),
        (int(w) for w in env_list("MEDIA_RENDITION_WIDTHS", "150,480,960,1600")), strict=True)
)
MEDIA_JPEG_QUALITY = env_int("MEDIA_JPEG_QUALITY", 85)
MEDIA_WEBP_QUALITY = env_int("MEDIA_WEBP_QUALITY", 80)
# Public base URL in front of the files (a CDN); cdnUrl falls back to link when empty.
MEDIA_CDN_BASE_URL = env("MEDIA_CDN_BASE_URL", "").rstrip("/")
S3_ENDPOINT_URL = env("S3_ENDPOINT_URL", "")  # empty: AWS itself
S3_BUCKET = env("S3_BUCKET", "")
S3_REGION = env("S3_REGION", "us-east-1")
S3_ACCESS_KEY_ID = env("S3_ACCESS_KEY_ID", "")  # empty: boto3's own credential chain (IAM role...)
S3_SECRET_ACCESS_KEY = env("S3_SECRET_ACCESS_KEY", "")
S3_ADDRESSING_STYLE = env("S3_ADDRESSING_STYLE", "")  # "path" for MinIO; empty: boto3 decides
S3_DEFAULT_ACL = env("S3_DEFAULT_ACL", "")  # e.g. "public-read" on Spaces; empty: bucket policy decides


def s3_media_storage(*, bucket: str, endpoint_url: str = "", region: str = "us-east-1", access_key: str = "",
                     secret_key: str = "", addressing_style: str = "", default_acl: str = "") -> dict:
    """The STORAGES entry of an S3-compatible bucket (also used by the media tests)."""
    from botocore.config import Config as BotoConfig

    return {
        "BACKEND": "storages.backends.s3.S3Storage",
        "OPTIONS": {
            "bucket_name": bucket,
            "endpoint_url": endpoint_url or None,
            "region_name": region or None,
            "access_key": access_key or None,
            "secret_key": secret_key or None,
            "default_acl": default_acl or None,
            "querystring_auth": False,  # media URLs are public and stable
            "file_overwrite": True,  # keys are unique per upload: skip the existence check
            # Keys never change content, so caches may keep them for good.
            "object_parameters": {"CacheControl": "public, max-age=31536000, immutable"},
            "client_config": BotoConfig(
                s3={"addressing_style": addressing_style or "auto"},
                signature_version="s3v4",
                # Checksums only where S3 requires them: Spaces and older MinIO refuse the rest.
                request_checksum_calculation="when_required",
                response_checksum_validation="when_required",
                retries={"max_attempts": 4, "mode": "standard"},
                connect_timeout=5,
                read_timeout=30,
            ),
        },
    }


if MEDIA_STORAGE not in ("local", "s3") or (MEDIA_STORAGE == "s3" and not S3_BUCKET):
    raise ValueError("MEDIA_STORAGE must be 'local' or 's3'; 's3' needs S3_BUCKET")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    MEDIA_STORAGE_ALIAS: (
        s3_media_storage(
            bucket=S3_BUCKET, endpoint_url=S3_ENDPOINT_URL, region=S3_REGION, access_key=S3_ACCESS_KEY_ID,
            secret_key=S3_SECRET_ACCESS_KEY, addressing_style=S3_ADDRESSING_STYLE, default_acl=S3_DEFAULT_ACL,
        )
        if MEDIA_STORAGE == "s3"
        # MEDIA_ROOT and MEDIA_URL; keys are unique per upload, a re-made rendition replaces its file
        else {"BACKEND": "django.core.files.storage.FileSystemStorage", "OPTIONS": {"allow_overwrite": True}}
    ),
}

# --- Analytics and public content API (apps.analytics, apps.public_api) ---------------------
# After a Redis failure, skip Redis for this many seconds (serve uncached, write events to
# PostgreSQL) instead of paying the socket timeout on every request.
REDIS_BREAKER_SECONDS = float(env("REDIS_BREAKER_SECONDS", "2"))
# Page-view tracking: events wait in a per-tenant Redis stream until the flush task moves them
# to PostgreSQL (raw events kept ANALYTICS_RAW_RETENTION_DAYS) and rolls them up per day.
ANALYTICS_RAW_RETENTION_DAYS = env_int("ANALYTICS_RAW_RETENTION_DAYS", 90)
ANALYTICS_HASH_SECRET = env("ANALYTICS_HASH_SECRET", "") or SECRET_KEY  # visitor-hash key (daily salts)
ANALYTICS_STREAM_MAXLEN = env_int("ANALYTICS_STREAM_MAXLEN", 1_000_000)  # per tenant, approximate cap
ANALYTICS_FLUSH_BATCH = env_int("ANALYTICS_FLUSH_BATCH", 2000)
ANALYTICS_FLUSH_MAX_BATCHES = env_int("ANALYTICS_FLUSH_MAX_BATCHES", 50)  # per task run
ANALYTICS_FLUSH_SECONDS = env_int("ANALYTICS_FLUSH_SECONDS", 10)
# A company's flush counts as queued for this long: a flush that never ran (its worker died, its
# message was lost, the database refused it before it started) delays the next one by at most this.
# (0: three flush intervals).
ANALYTICS_FLUSH_QUEUED_TTL = env_int("ANALYTICS_FLUSH_QUEUED_TTL", 0)
ANALYTICS_ROLLUP_BATCH = env_int("ANALYTICS_ROLLUP_BATCH", 5000)
ANALYTICS_TOP_REFERRERS = env_int("ANALYTICS_TOP_REFERRERS", 20)
CELERY_BEAT_SCHEDULE["analytics-flush"] = {
    "task": "analytics.dispatch_flush",
    "schedule": float(ANALYTICS_FLUSH_SECONDS),
}
CELERY_BEAT_SCHEDULE["analytics-rollup"] = {
    "task": "analytics.dispatch_rollup",
    "schedule": float(env_int("ANALYTICS_ROLLUP_SECONDS", 300)),
}
CELERY_BEAT_SCHEDULE["analytics-purge"] = {
    "task": "analytics.dispatch_purge",
    "schedule": float(env_int("ANALYTICS_PURGE_SECONDS", 24 * 3600)),
}
# Public content API (/api/v1, x-api-key): responses cached in Redis per tenant, query, key
# kind and content version; browsers and CDNs may keep them PUBLIC_API_MAX_AGE seconds.
PUBLIC_API_CACHE = env_bool("PUBLIC_API_CACHE", True)
PUBLIC_API_CACHE_TTL = env_int("PUBLIC_API_CACHE_TTL", 600)
PUBLIC_API_MAX_AGE = env_int("PUBLIC_API_MAX_AGE", 60)
# How long a shared cache in front of the app (the Varnish tier, a CDN) keeps a reply (s-maxage):
# the app purges the company's replies on every change, so this only bounds a lost purge.
PUBLIC_API_EDGE_MAX_AGE = env_int("PUBLIC_API_EDGE_MAX_AGE", 300)
# The Varnish nodes the app purges (PURGE with xkey-purge), e.g. http://varnish-0:6081; empty: none.
EDGE_CACHE_URLS = env_list("EDGE_CACHE_URLS", "")
EDGE_PURGE_TIMEOUT = float(env("EDGE_PURGE_TIMEOUT", "2"))
EDGE_PURGE_MAX_RETRIES = env_int("EDGE_PURGE_MAX_RETRIES", 8)
PUBLIC_API_HOST_MAP_TTL = env_int("PUBLIC_API_HOST_MAP_TTL", 300)  # host -> tenant + key hashes (fast path)
# Bytes of replies each web worker keeps in memory, by ETag, so a cache hit whose body the worker
# already holds does not fetch it from Redis again (0 turns this off). 512 KB: a site's hot pages
# (about forty /api/v1 pages, eight Ghost pages); each worker's RSS counts it (docs/performance.md).
PUBLIC_API_LOCAL_CACHE_BYTES = env_int("PUBLIC_API_LOCAL_CACHE_BYTES", 512 * 1024)
# Milliseconds a web worker answers a cache hit it has just confirmed with Redis again without
# asking Redis (the same key, host and query; 0 turns this off; docs/performance.md). A write
# seen by Redis reaches every worker within this time (a write in the worker's own process at
# once); the key's rate limit counts these hits at the next round trip, at most one hundredth of
# the key's limit per worker and lease (a key under 100 requests per window gets no lease).
PUBLIC_API_LEASE_MS = env_int("PUBLIC_API_LEASE_MS", 10)
# Requests per key per window, by subscription plan ("plan:count,..."); others get the default.
PUBLIC_API_RATE_LIMIT = env_int("PUBLIC_API_RATE_LIMIT", 600)
PUBLIC_API_RATE_WINDOW = env_int("PUBLIC_API_RATE_WINDOW", 60)
PUBLIC_API_RATE_LIMITS = {
    plan.strip(): int(count)
    for plan, _, count in (item.partition(":") for item in env_list("PUBLIC_API_RATE_LIMITS", ""))
    if count.strip()
}
# CORS (django-cors-headers) for the public API only: any origin may read with the key header.
INSTALLED_APPS += ["corsheaders"]
CORS_URLS_REGEX = r"^/(?:api/v1|ghost/api/content)(?:/.*)?$"  # with the Ghost-compatible routes
CORS_ALLOW_ALL_ORIGINS = True
CORS_ALLOW_METHODS = ("GET", "HEAD", "POST", "OPTIONS")
CORS_ALLOW_HEADERS = ("accept", "content-type", "if-none-match", "x-api-key", "accept-version",
                      "x-member-token")  # a member's token (apps.members): members-only posts
CORS_EXPOSE_HEADERS = ("ETag", "Retry-After", "X-Cache", "Content-Version")
CORS_PREFLIGHT_MAX_AGE = 86400

# --- Feeds, sitemap, robots.txt (apps.feeds) --------------------------------------------------
FEEDS_ITEMS = env_int("FEEDS_ITEMS", 20)  # posts per feed
FEEDS_CACHE_TTL = env_int("FEEDS_CACHE_TTL", 3600)  # replies are also keyed on the content version
FEEDS_MAX_AGE = env_int("FEEDS_MAX_AGE", 300)  # Cache-Control max-age for readers, crawlers and CDNs
SITEMAP_MAX_URLS = env_int("SITEMAP_MAX_URLS", 50_000)  # past it, /sitemap.xml is an index of pages

# --- AI writing (apps.ai) ----------------------------------------------------------------------
# The key stays on the server: browsers never see it. Without a key the offline provider writes
# deterministic drafts, so the product works without any external service.
GEMINI_API_KEY = env("GEMINI_API_KEY", "")
GEMINI_MODEL = env("GEMINI_MODEL", "gemini-2.5-flash")
GEMINI_BASE_URL = env("GEMINI_BASE_URL", "")  # empty: Google's endpoint; set for proxies and tests
GEMINI_API_VERSION = env("GEMINI_API_VERSION", "v1beta")
GEMINI_TIMEOUT_SECONDS = env_int("GEMINI_TIMEOUT_SECONDS", 60)  # one HTTP call
# Thinking tokens count against the output budget; 0 turns thinking off (2.5 Flash), "" keeps
# the model's default (needed for models that cannot turn it off).
GEMINI_THINKING_BUDGET = env("GEMINI_THINKING_BUDGET", "0")
AI_PROVIDER = env("AI_PROVIDER", "gemini" if GEMINI_API_KEY else "offline")  # gemini | offline
AI_BLOG_MAX_OUTPUT_TOKENS = env_int("AI_BLOG_MAX_OUTPUT_TOKENS", 8192)
AI_SEO_MAX_OUTPUT_TOKENS = env_int("AI_SEO_MAX_OUTPUT_TOKENS", 1024)
# How long POST ai/generate-* waits for the job before answering 202 with the job to poll.
# Keep it under the web server's request timeout.
AI_WAIT_SECONDS = float(env("AI_WAIT_SECONDS", "25"))
# Generations per tenant per UTC day, by subscription plan ("plan:count,..."); failed jobs do
# not count. Plans not listed get AI_DAILY_QUOTA_DEFAULT.
AI_DAILY_QUOTA = {
    plan.strip(): int(count)
    for plan, _, count in (item.partition(":") for item in env_list(
        "AI_DAILY_QUOTA", "trial:20,starter:100,business:500,enterprise:2000"))
    if count.strip()
}
AI_DAILY_QUOTA_DEFAULT = env_int("AI_DAILY_QUOTA_DEFAULT", 20)
AI_MAX_RUNNING_PER_TENANT = env_int("AI_MAX_RUNNING_PER_TENANT", 3)  # queued + running jobs
AI_MAX_INPUT_CHARS = env_int("AI_MAX_INPUT_CHARS", 5000)
# Retries of one provider call (Gemini 429/500/503/504 and network errors): total attempts,
# exponential backoff with jitter, a server-sent retry delay is honoured; a delay above
# AI_RETRY_MAX_DELAY fails the job instead of waiting.
AI_RETRY_ATTEMPTS = env_int("AI_RETRY_ATTEMPTS", 4)
AI_RETRY_INITIAL_DELAY = float(env("AI_RETRY_INITIAL_DELAY", "1.0"))
AI_RETRY_MAX_DELAY = float(env("AI_RETRY_MAX_DELAY", "30"))
AI_RETRY_JITTER = float(env("AI_RETRY_JITTER", "1.0"))
# A job interrupted by a worker crash is re-run; after this many runs it fails instead.
AI_MAX_RUNS = env_int("AI_MAX_RUNS", 2)
# Seconds one run of a job may take (its provider calls and their retries: about 330 s at worst);
# then it fails. Below CELERY_VISIBILITY_TIMEOUT, or a job still running would be delivered again.
AI_JOB_TIME_LIMIT = env_int("AI_JOB_TIME_LIMIT", 420)
# Jobs still queued or running after this long are failed by the periodic sweep.
AI_JOB_STALE_SECONDS = env_int("AI_JOB_STALE_SECONDS", 900)
AI_QUEUE = env("AI_QUEUE", "")  # empty: the default queue
CELERY_BEAT_SCHEDULE["ai-fail-stale-jobs"] = {
    "task": "ai.fail_stale_jobs",
    "schedule": float(env_int("AI_STALE_SWEEP_SECONDS", 300)),
}

# --- Webhooks (apps.webhooks) ------------------------------------------------------------------
# Signed POSTs to the companies' websites when content changes (docs/webhooks.md).
WEBHOOK_CONNECT_TIMEOUT = float(env("WEBHOOK_CONNECT_TIMEOUT", "3"))  # seconds to connect
WEBHOOK_TIMEOUT = float(env("WEBHOOK_TIMEOUT", "5"))  # seconds to wait for the answer
WEBHOOK_MAX_ATTEMPTS = env_int("WEBHOOK_MAX_ATTEMPTS", 6)  # tries of one delivery (5xx, 408, 429, network)
WEBHOOK_RETRY_BASE_SECONDS = float(env("WEBHOOK_RETRY_BASE_SECONDS", "10"))  # doubles on each retry
WEBHOOK_RETRY_MAX_SECONDS = float(env("WEBHOOK_RETRY_MAX_SECONDS", "3600"))
WEBHOOK_RETRY_JITTER = float(env("WEBHOOK_RETRY_JITTER", "0.5"))  # up to this fraction of the delay added at random
# Failed tries in a row (across deliveries) after which an endpoint is turned off.
WEBHOOK_DISABLE_AFTER_FAILURES = env_int("WEBHOOK_DISABLE_AFTER_FAILURES", 10)
WEBHOOK_RESPONSE_EXCERPT_BYTES = env_int("WEBHOOK_RESPONSE_EXCERPT_BYTES", 1024)  # kept in the delivery log
WEBHOOK_LOG_DAYS = env_int("WEBHOOK_LOG_DAYS", 30)
# Off: URLs resolving to loopback, private, link-local (cloud metadata) or other non-public
# addresses are refused when saved and when sent. On only for a private deployment (and tests).
WEBHOOK_ALLOW_PRIVATE_NETWORKS = env_bool("WEBHOOK_ALLOW_PRIVATE_NETWORKS", False)
CELERY_BEAT_SCHEDULE["webhooks-prune-deliveries"] = {
    "task": "webhooks.prune_deliveries",
    "schedule": float(env_int("WEBHOOK_PRUNE_SECONDS", 24 * 3600)),
}

# --- Import and export (apps.portability) ------------------------------------------------------
# docs/import-export.md. An uploaded WordPress or Ghost export larger than this is refused (413).
IMPORT_MAX_BYTES = env_int("IMPORT_MAX_BYTES", 200 * 1024 * 1024)
# Images of an imported blog are fetched through the webhooks' address guard; "host:port" entries
# here are reached even on a private address (tests start a local server; empty in production).
IMPORT_FETCH_ALLOWED_HOSTS = env_list("IMPORT_FETCH_ALLOWED_HOSTS", "")
IMPORT_FETCH_CONNECT_TIMEOUT = float(env("IMPORT_FETCH_CONNECT_TIMEOUT", "3"))
IMPORT_FETCH_TIMEOUT = float(env("IMPORT_FETCH_TIMEOUT", "10"))
IMPORT_FETCH_MAX_REDIRECTS = env_int("IMPORT_FETCH_MAX_REDIRECTS", 3)
# Images an import fetches, checks and resizes at once (threads of the import job); their writes
# stay in the job's one transaction.
IMPORT_IMAGE_WORKERS = env_int("IMPORT_IMAGE_WORKERS", 4)
# Seconds an import task may run before the outbox sends it again (a worker that died mid-way:
# the import's transaction rolled back, and the next run starts over, recognising nothing twice).
IMPORT_LEASE_SECONDS = env_int("IMPORT_LEASE_SECONDS", 3600)
EXPORT_LINK_HOURS = env_int("EXPORT_LINK_HOURS", 24)  # a signed download link of an export works this long

# --- Audit log (apps.audit) --------------------------------------------------------------------
AUDIT_LOG_DAYS = env_int("AUDIT_LOG_DAYS", 365)  # entries kept this many days
CELERY_BEAT_SCHEDULE["audit-prune"] = {
    "task": "audit.prune",
    "schedule": float(env_int("AUDIT_PRUNE_SECONDS", 24 * 3600)),
}

# --- Members (apps.members; docs/members.md) ----------------------------------------------------
# A members CSV larger than this is refused (413); it is read as a stream, MEMBERS_IMPORT_BATCH rows
# per transaction; a task not finished in MEMBERS_IMPORT_LEASE_SECONDS is sent again (it goes on
# from its last batch). A link to the members export works MEMBERS_EXPORT_LINK_SECONDS.
MEMBERS_IMPORT_MAX_BYTES = env_int("MEMBERS_IMPORT_MAX_BYTES", 500 * 1024 * 1024)
MEMBERS_IMPORT_BATCH = env_int("MEMBERS_IMPORT_BATCH", 2000)
MEMBERS_IMPORT_LEASE_SECONDS = env_int("MEMBERS_IMPORT_LEASE_SECONDS", 900)
MEMBERS_EXPORT_LINK_SECONDS = env_int("MEMBERS_EXPORT_LINK_SECONDS", 600)
# Sign-ups from the website (double opt-in) and members' sign-in (apps.members.signup): the emailed
# links' lifetimes (each works once), the member token's (X-Member-Token), and the throttles (`limits`
# notation) per address, per client address and per company; the session exchange per client address.
MEMBERS_CONFIRM_LINK_SECONDS = env_int("MEMBERS_CONFIRM_LINK_SECONDS", 48 * 3600)
MEMBERS_SIGNIN_LINK_SECONDS = env_int("MEMBERS_SIGNIN_LINK_SECONDS", 15 * 60)
MEMBERS_SESSION_SECONDS = env_int("MEMBERS_SESSION_SECONDS", 24 * 3600)
MEMBERS_SUBSCRIBE_RATE_PER_EMAIL = env("MEMBERS_SUBSCRIBE_RATE_PER_EMAIL", "3/hour")
MEMBERS_SUBSCRIBE_RATE_PER_IP = env("MEMBERS_SUBSCRIBE_RATE_PER_IP", "20/hour")
MEMBERS_SUBSCRIBE_RATE_PER_COMPANY = env("MEMBERS_SUBSCRIBE_RATE_PER_COMPANY", "500/hour")
MEMBERS_SIGNIN_RATE_PER_EMAIL = env("MEMBERS_SIGNIN_RATE_PER_EMAIL", "5/hour")
MEMBERS_SIGNIN_RATE_PER_IP = env("MEMBERS_SIGNIN_RATE_PER_IP", "20/hour")
MEMBERS_SIGNIN_RATE_PER_COMPANY = env("MEMBERS_SIGNIN_RATE_PER_COMPANY", "1000/hour")
MEMBERS_SESSION_RATE_PER_IP = env("MEMBERS_SESSION_RATE_PER_IP", "30/hour")
for _name in ("MEMBERS_SUBSCRIBE_RATE_PER_EMAIL", "MEMBERS_SUBSCRIBE_RATE_PER_IP", "MEMBERS_SUBSCRIBE_RATE_PER_COMPANY",
              "MEMBERS_SIGNIN_RATE_PER_EMAIL", "MEMBERS_SIGNIN_RATE_PER_IP", "MEMBERS_SIGNIN_RATE_PER_COMPANY",
              "MEMBERS_SESSION_RATE_PER_IP"):
    try:
        parse_rate(globals()[_name])
    except ValueError:
        refuse_to_start(RefusedSetting(f"{_name} is not a rate such as 5/hour: {globals()[_name]!r}"))
CELERY_BEAT_SCHEDULE["members-prune-used-links"] = {"task": "members.prune_used_links", "schedule": 24 * 3600.0}

# --- Newsletters (apps.newsletters; docs/newsletters.md) ------------------------------------------
# Newsletters go through django-anymail's interface: NEWSLETTER_EMAIL_BACKEND names the backend
# (empty: EMAIL_BACKEND, the SMTP server of EMAIL_URL; an ESP: e.g. anymail.backends.mailgun.EmailBackend,
# or apps.newsletters.backends.ResendBackend, which sends each email's idempotency key), ANYMAIL (JSON)
# its settings and the webhook's secrets (docs/newsletters.md: Deliverability).
# (anymail is not an installed app: its app only adds checks, and loads an HTTP client in every web worker.)
NEWSLETTER_EMAIL_BACKEND = env("NEWSLETTER_EMAIL_BACKEND", "")
try:
    ANYMAIL = json.loads(env("ANYMAIL", "") or "{}")
    if not isinstance(ANYMAIL, dict):
        raise ValueError
except ValueError:
    refuse_to_start(RefusedSetting('ANYMAIL must be a JSON object, e.g. {"MAILGUN_API_KEY": "..."}'))
# A provider (any backend but Django's own) reports bounces and complaints to its webhook, which anymail
# opens to unauthenticated events without WEBHOOK_SECRET: outside development, no start without it.
if not DEBUG and NEWSLETTER_EMAIL_BACKEND and not NEWSLETTER_EMAIL_BACKEND.startswith("django.core.mail."):
    _problem = webhook_secret_problem(ANYMAIL)
    if _problem:
        refuse_to_start(RefusedSetting(
            f"{_problem}: NEWSLETTER_EMAIL_BACKEND is a provider, whose bounce and complaint webhook would "
            f'take anyone\'s events; set ANYMAIL\'s "WEBHOOK_SECRET" to "hooks:<a long random password>" (put '
            f"the same in the webhook's address at the provider), e.g. a password made by: {HOW_TO_MAKE_ONE}"))
# The From address of newsletters (its name is the newsletter's sender name); empty: DEFAULT_FROM_EMAIL's.
NEWSLETTER_FROM_EMAIL = env("NEWSLETTER_FROM_EMAIL", "")
# The mailbox of List-Unsubscribe's mailto (a provider's or a script reading it); empty: the From address.
NEWSLETTER_UNSUBSCRIBE_MAILTO = env("NEWSLETTER_UNSUBSCRIBE_MAILTO", "")
# A send's senders: NEWSLETTER_SEND_CONNECTIONS threads (each its own connection to the provider and to
# PostgreSQL) claim NEWSLETTER_BATCH deliveries at a time, leased NEWSLETTER_BATCH_LEASE_SECONDS (a sender
# that dies leaves them to be claimed again then); the send's task is sent again by the outbox when it has
# not reported for NEWSLETTER_SEND_LEASE_SECONDS. A delivery the provider refuses for a while is tried
# NEWSLETTER_MAX_ATTEMPTS times, NEWSLETTER_RETRY_SECONDS apart (doubling).
# 8: each email is four round trips to PostgreSQL and four to the provider, so a sender thread mostly waits;
# 8 connections sent 100,000 emails at 58 % of a bare smtplib sender's rate over as many, 4 at 46-52 %
# (docs/benchmarks.md). Lower it for a provider that takes fewer connections at once.
NEWSLETTER_SEND_CONNECTIONS = env_int("NEWSLETTER_SEND_CONNECTIONS", 8)
# The worker processes a send runs on: its task keeps its share of the NEWSLETTER_SEND_CONNECTIONS
# threads and asks NEWSLETTER_SEND_PROCESSES - 1 other processes to send with the rest (a help task
# each, best effort: the send's own task sends and finishes whatever they leave), so that one send
# is not bound by one interpreter's lock (apps.newsletters.delivery.send_run).
NEWSLETTER_SEND_PROCESSES = env_int("NEWSLETTER_SEND_PROCESSES", 2)
# Seconds a help task sends before it queues itself again behind the tasks that came meanwhile.
NEWSLETTER_HELP_SECONDS = float(env("NEWSLETTER_HELP_SECONDS", "15"))
NEWSLETTER_BATCH = env_int("NEWSLETTER_BATCH", 100)
NEWSLETTER_BATCH_LEASE_SECONDS = env_int("NEWSLETTER_BATCH_LEASE_SECONDS", 120)
NEWSLETTER_SEND_LEASE_SECONDS = env_int("NEWSLETTER_SEND_LEASE_SECONDS", 180)
NEWSLETTER_MAX_ATTEMPTS = env_int("NEWSLETTER_MAX_ATTEMPTS", 5)
NEWSLETTER_RETRY_SECONDS = float(env("NEWSLETTER_RETRY_SECONDS", "60"))
NEWSLETTER_TIMEOUT = env_int("NEWSLETTER_TIMEOUT", 30)  # seconds for one exchange with the provider
# Added to the nice value of a send's sender threads (0: as the worker; apps.newsletters.delivery._yield_cpu).
NEWSLETTER_SEND_NICE = env_int("NEWSLETTER_SEND_NICE", 10)
NEWSLETTER_TEST_RATE = env("NEWSLETTER_TEST_RATE", "10/hour")  # test emails per staff user
# Opens (or clicks) counted per member per send, in the `limits` notation (apps.newsletters.tracking_views).
NEWSLETTER_TRACKING_RATE = env("NEWSLETTER_TRACKING_RATE", "60/hour")

# --- Hardening (apps/core/tests/hardening, bench/load.py) ---------------------------------------
