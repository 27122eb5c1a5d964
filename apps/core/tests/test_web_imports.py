"""A web worker loads what serving needs and nothing else (docs/contributing.md: Where each rule lives): no Celery
until it sends a task, no HTTP client of the webhooks sender, no storage or AI SDK, no test
package, no HTML sanitiser until a write needs it, no QR code maker until a two-factor set-up, no
password hash made before a sign-in needs one, no Babel before a language code is checked, no
cryptography (PyJWT without it: HS256 only; Fernet on the first two-factor step), no Ghost Admin API
view nor blog importer, parsers or exporter before a request needs them; and a content
worker (WEB_ROUTES=content) no members' sign-up before a member request and no PyJWT at all. Each
of these is megabytes in every worker (docs/performance.md)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]

SCRIPT = """
import importlib, sys
import apps.public_api.wsgi  # the production entry point (config.serve loads it before forking)
from django.conf import settings
for urlconf in (settings.ROOT_URLCONF, settings.PUBLIC_SCHEMA_URLCONF):
    importlib.import_module(urlconf)
heavy = ("celery", "kombu", "billiard", "requests", "urllib3", "jinja2", "django.test", "unittest", "boto3",
         "botocore", "PIL", "google.genai", "nh3", "segno", "argon2", "babel", "cryptography.hazmat",
         "cryptography.x509", "cryptography.fernet", "pyotp", "apps.ghost_api.admin.views",
         "apps.portability.importer", "apps.portability.parsers", "apps.portability.exporter", "xml.etree.ElementTree")
print(sorted(name for name in heavy if name in sys.modules))
from apps.core.task_queue import celery_app
print(celery_app().main, "celery" in sys.modules)
from apps.core.html import sanitize_html
from apps.accounts.two_factor import qr_svg
print(sanitize_html("<p>a<script>x</script></p>"), qr_svg("otpauth://totp/x").startswith("<svg"))
from apps.accounts.passwords import password_matches
from apps.core.languages import normalize
print(password_matches("x", None), "argon2" in sys.modules, normalize("pt-br"), "babel" in sys.modules)
from django.test import Client, TestCase  # the test package still imports normally afterwards
from django.test.signals import setting_changed
print(Client.__name__, TestCase.__name__, setting_changed is importlib.import_module("django.core.signals").setting_changed)
"""


def _env(**extra) -> dict:
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "platform"), str(ROOT)]),
            "DJANGO_SETTINGS_MODULE": "config.settings_test", **extra}


def test_the_web_process_does_not_load_what_it_never_uses():
    env = _env(FAST_PASSWORD_HASHER="0")  # the product's hashers (argon2 first), not the suite's
    result = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, env=env, capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr[-3000:]
    loaded, celery_line, used, first_use, test_package = result.stdout.strip().splitlines()[-5:]
    assert loaded == "[]"
    assert celery_line == "cms True"  # sending loads the product's app on first use
    assert used == "<p>a</p> True"  # and the sanitiser and the QR code maker theirs
    assert first_use == "False True pt-BR True"  # an unknown account's sign-in its hash, a language code Babel
    assert test_package == "Client TestCase True"


CONTENT_SCRIPT = """
import importlib, sys
import apps.public_api.wsgi
from django.conf import settings
for urlconf in (settings.ROOT_URLCONF, settings.PUBLIC_SCHEMA_URLCONF):
    importlib.import_module(urlconf)
later = ("apps.members.signup", "apps.members.services", "apps.newsletters.services", "apps.core.email", "babel",
         "jwt", "cryptography.hazmat")
print(settings.ROOT_URLCONF, sorted(name for name in later if name in sys.modules))
"""


def test_a_content_worker_loads_the_members_sign_up_on_first_use():
    """The members' routes are there (apps.members.public); the sign-up code they call is imported by
    the first member request (apps/members/tests send those requests)."""
    result = subprocess.run([sys.executable, "-c", CONTENT_SCRIPT], cwd=ROOT, env=_env(WEB_ROUTES="content"),
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.strip().splitlines()[-1] == "config.urls_content []"


JWT_SCRIPT = """
import base64, importlib, json, sys, uuid
from types import SimpleNamespace
import apps.public_api.wsgi
from django.conf import settings
for urlconf in (settings.ROOT_URLCONF, settings.PUBLIC_SCHEMA_URLCONF):
    importlib.import_module(urlconf)
import jwt
print("jwt" in sys.modules, jwt.algorithms.has_crypto, "cryptography.hazmat" in sys.modules)
from apps.accounts.tokens import TokenInvalid, key_id, token_decode, token_issue
user = SimpleNamespace(id=uuid.uuid4(), username="a", role="admin", token_version=1)
token, _ = token_issue(user=user, schema_name="t_acme")
print(token_decode(token)["tenant"])
part = lambda value: base64.urlsafe_b64encode(json.dumps(value).encode()).decode().rstrip("=")
claims = json.loads(base64.urlsafe_b64decode(token.split(".")[1] + "=="))
for alg in ("RS256", "ES256", "none"):
    forged = ".".join([part({"alg": alg, "typ": "JWT", "kid": key_id(settings.JWT_SECRET)}), part(claims), "c2ln"])
    try:
        token_decode(forged)
        print(alg, "accepted")
    except TokenInvalid as exc:
        print(alg, exc.message)
from apps.ghost_api.admin import auth as ghost_auth
from apps.accounts.two_factor import secret_new, secret_open, secret_seal
key = secret_new()
print(secret_open(secret_seal(key)) == key, "cryptography.hazmat" in sys.modules, jwt.algorithms.has_crypto)
print(token_decode(token)["tenant"])
"""


def test_the_web_process_loads_pyjwt_without_cryptography():
    """PyJWT without cryptography's RSA/EC support (its bindings are 6.5 MB a worker): HS256 tokens
    are made and checked as before, other algorithms refused as before, and the first two-factor step
    loads Fernet (cryptography) normally."""
    result = subprocess.run([sys.executable, "-c", JWT_SCRIPT], cwd=ROOT, env=_env(), capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.strip().splitlines()[-7:] == [
        "True False False",  # loaded by the URL conf, without cryptography
        "t_acme",
        "RS256 Invalid authentication token",
        "ES256 Invalid authentication token",
        "none Invalid authentication token",
        "True True False",  # two-factor's Fernet on first use; PyJWT keeps its HMAC algorithms only
        "t_acme",
    ]


PRELOAD_SCRIPT = """
import hashlib
from config.serve import preload
preload()
from apps.core import digests, ratelimit
from apps.public_api import cache, keys, selectors
print(ratelimit._limiter.cache_info().currsize)
print(type(digests.sha1()).__module__, type(digests.sha256()).__module__)
print(keys.key_hash("cms_live_x") == hashlib.sha256(b"cms_live_x").hexdigest()[:32],
      cache.query_hash("/api/v1/posts/", "page=1") == hashlib.sha1(b"/api/v1/posts?page=1").hexdigest())
print(keys.sha256 is digests.sha256, cache.digests is digests, selectors.digests is digests,
      "hashlib" in vars(keys) or "hashlib" in vars(selectors))
"""


def test_a_worker_computes_no_openssl_digest_of_its_own():
    """OpenSSL's digest code is 1 MB of a worker's pages, brought in by its first digest: the public
    API's per-request hashes are CPython's own (apps.core.digests, the same values), and the
    throttles' storage, whose scripts' SHA-1s are hashlib's, is built before the workers are forked."""
    result = subprocess.run([sys.executable, "-c", PRELOAD_SCRIPT], cwd=ROOT, env=_env(WEB_ROUTES="content"),
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.strip().splitlines()[-4:] == ["1", "_sha1 _sha256", "True True", "True True True False"]


TASK_WORKER_SCRIPT = """
import sys
from config.celery import app
app.loader.init_worker()  # what a Celery worker does at start: its task modules, Django's fix-ups
apis = ("config.urls", "config.api", "apps.content.api", "apps.content.schemas", "apps.accounts.api", "apps.members.api",
        "apps.ghost_api.views", "apps.public_api.api", "lifecycle.api")
apis = sorted(name for name in apis if name in sys.modules)
print(sum(not name.startswith("celery.") for name in app.tasks) > 10, apis)  # the product's tasks are registered
"""


def test_a_task_worker_starts_without_the_api_modules():
    """Celery runs Django's system checks when a worker starts, and the checks import every URLconf
    (every API module and schema: 17 MB per worker process). config.celery starts workers without
    them; the release step's migrate_schemas runs the checks."""
    env = _env()
    env.pop("CELERY_SKIP_CHECKS", None)  # as a worker is started: nothing set but the product's own
    result = subprocess.run([sys.executable, "-c", TASK_WORKER_SCRIPT], cwd=ROOT, env=env, capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.strip().splitlines()[-1] == "True []"
