"""Imports a web worker does not need to pay for (docs/contributing.md: Where each rule lives).

django-ninja's settings module (ninja/conf.py) imports `django.test.signals` for one signal,
`setting_changed`, which Django defines in `django.core.signals`. Importing any submodule of
`django.test` first runs `django/test/__init__.py`, which loads the test client, the test runner,
unittest and jinja2: about 18 MB in every web worker, for nothing.

`load_test_signals_alone()` loads that one submodule under a bare stand-in for its package, then
removes the stand-in: a later `import django.test` (the test suite, a shell) runs the real package
as usual and finds the submodule already loaded. Called by the production WSGI entry point
(apps.public_api.wsgi) before anything imports ninja; a test checks the web process stays lean and
that `django.test` still imports afterwards.
"""
import importlib
import sys
import types
from pathlib import Path


def load_test_signals_alone() -> None:
    if "django.test" in sys.modules or "django.test.signals" in sys.modules:
        return
    import django

    stand_in = types.ModuleType("django.test")
    stand_in.__path__ = [str(Path(django.__file__).parent / "test")]
    sys.modules["django.test"] = stand_in
    try:
        importlib.import_module("django.test.signals")
    finally:
        del sys.modules["django.test"]
        if getattr(django, "test", None) is stand_in:
            del django.test
