"""Settings of the Wagtail anchor: Wagtail's project template (`wagtail start`) as its production
settings leave it, on PostgreSQL, with the API (wagtail.api.v2) enabled and the database search
backend, which runs PostgreSQL's full-text search on PostgreSQL.

What differs from the template, each for the benchmark: the database from DATABASE_URL (as the
product reads its own), persistent connections (CONN_MAX_AGE 60 with health checks, as the product's
settings; a connection opened per request would slow Wagtail for nothing that Wagtail does), no
templates or static files of a site of its own (only the API is requested), a `blog` app in place of
the template's `home` and `search` apps.
"""
from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import unquote, urlsplit

BASE_DIR = Path(__file__).resolve().parents[1]

SECRET_KEY = os.environ.get("SECRET_KEY") or "bench-wagtail-anchor-not-a-secret"
DEBUG = os.environ.get("DEBUG", "0") not in ("", "0")
ALLOWED_HOSTS = ["*"]

INSTALLED_APPS = [
    "blog",
    "wagtail.api.v2",
    "rest_framework",
    "wagtail.contrib.forms",
    "wagtail.contrib.redirects",
    "wagtail.embeds",
    "wagtail.sites",
    "wagtail.users",
    "wagtail.snippets",
    "wagtail.documents",
    "wagtail.images",
    "wagtail.search",
    "wagtail.admin",
    "wagtail",
    "modelcluster",
    "taggit",
    "django_filters",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "wagtail.contrib.redirects.middleware.RedirectMiddleware",
]

ROOT_URLCONF = "benchsite.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.debug",
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "benchsite.wsgi.application"


def _database(url: str) -> dict:
    """postgres://user:password@host:port/name as Django's settings."""
    parts = urlsplit(url)
    return {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": unquote(parts.path.lstrip("/")),
        "USER": unquote(parts.username or ""),
        "PASSWORD": unquote(parts.password or ""),
        "HOST": parts.hostname or "",
        "PORT": str(parts.port or ""),
        "CONN_MAX_AGE": 60,
        "CONN_HEALTH_CHECKS": True,
    }


DATABASES = {"default": _database(os.environ.get("DATABASE_URL",
                                                 "postgres://postgres@127.0.0.1:5432/cms_bench_wagtail"))}

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_ROOT = BASE_DIR / "static"
STATIC_URL = "/static/"
MEDIA_ROOT = BASE_DIR / "media"
MEDIA_URL = "/media/"

DATA_UPLOAD_MAX_NUMBER_FIELDS = 10_000

WAGTAIL_SITE_NAME = "Wagtail anchor"
# PostgreSQL's full-text search (tsvector entries in the search index table, GIN-indexed).
WAGTAILSEARCH_BACKENDS = {"default": {"BACKEND": "wagtail.search.backends.database"}}
WAGTAILADMIN_BASE_URL = "http://localhost"
# As Wagtail's API documentation asks: the base of the API's absolute addresses.
WAGTAILAPI_BASE_URL = "http://localhost"
