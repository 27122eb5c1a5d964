"""A web worker loads what serving needs and nothing else (docs/contributing.md: Where each rule lives): no Celery
until it sends a task, no HTTP client of the webhooks sender, no storage or AI SDK, no test
package, no HTML sanitiser until a write needs it, no QR code maker until a two-factor set-up. Each
of these is megabytes in every worker."""
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
         "botocore", "PIL", "google.genai", "nh3", "segno")
print(sorted(name for name in heavy if name in sys.modules))
from apps.core.task_queue import celery_app
print(celery_app().main, "celery" in sys.modules)
from apps.core.html import sanitize_html
from apps.accounts.two_factor import qr_svg
print(sanitize_html("<p>a<script>x</script></p>"), qr_svg("otpauth://totp/x").startswith("<svg"))
from django.test import Client, TestCase  # the test package still imports normally afterwards
from django.test.signals import setting_changed
print(Client.__name__, TestCase.__name__, setting_changed is importlib.import_module("django.core.signals").setting_changed)
"""


def test_the_web_process_does_not_load_what_it_never_uses():
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "platform"), str(ROOT)]),
           "DJANGO_SETTINGS_MODULE": "config.settings_test"}
    result = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, env=env, capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr[-3000:]
    loaded, celery_line, used, test_package = result.stdout.strip().splitlines()[-4:]
    assert loaded == "[]"
    assert celery_line == "cms True"  # sending loads the product's app on first use
    assert used == "<p>a</p> True"  # and the sanitiser and the QR code maker theirs
    assert test_package == "Client TestCase True"
