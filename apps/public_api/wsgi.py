"""The WSGI application to serve in production: Django, with the public API's cache-hit fast
path in front (apps.public_api.fastpath). `gunicorn apps.public_api.wsgi:application`."""
import sys
from pathlib import Path

_platform = str(Path(__file__).resolve().parents[2] / "platform")
if _platform not in sys.path:
    sys.path.insert(0, _platform)

from config.lean_imports import load_pyjwt_without_cryptography, load_test_signals_alone  # noqa: E402

load_test_signals_alone()
load_pyjwt_without_cryptography()  # HS256 only: no cryptography in a worker until two-factor sign-in needs it

from config.wsgi import application as django_application  # noqa: E402

from apps.core.metrics import MeteredApp  # noqa: E402
from apps.plans.metering import public_api_answered  # noqa: E402
from apps.public_api.fastpath import PublicApiFastPath  # noqa: E402

# Every request is counted (apps.core.metrics), the fast path's answers too, and each public API
# request answered is the company's usage (apps.plans.metering).
application = MeteredApp(PublicApiFastPath(django_application), on_public_api=public_api_answered)
