import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
CODE = (
    "import django; django.setup(); import sentry_sdk; c = sentry_sdk.get_client(); "
    "print(c.is_active(), sorted(k for k in c.integrations if k in ('django', 'celery')))"
)


def run(extra_env):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "platform"), str(ROOT)]),
           "DJANGO_SETTINGS_MODULE": "config.settings", **extra_env}
    env.pop("SENTRY_DSN", None) if "SENTRY_DSN" not in extra_env else None
    out = subprocess.run([sys.executable, "-c", CODE], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def test_sentry_is_on_with_django_and_celery_integrations_when_a_dsn_is_set():
    assert run({"SENTRY_DSN": "http://public@127.0.0.1:9/1"}) == "True ['celery', 'django']"


def test_sentry_is_off_without_a_dsn():
    assert run({}).startswith("False")
