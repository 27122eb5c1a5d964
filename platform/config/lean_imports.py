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

PyJWT imports cryptography's RSA, EC and EdDSA support whenever cryptography is installed (it is:
two-factor sign-in encrypts its keys with Fernet), and with it cryptography's Rust bindings: 6.5 MB
in every worker with the dashboard's routes, for algorithms no token here uses (the dashboard's
session tokens and the Ghost Admin API's are HS256, which PyJWT computes with `hmac`).
`load_pyjwt_without_cryptography()` makes the process's first `import jwt` run with cryptography's
`hazmat` and `x509` packages unavailable, as if cryptography were not installed (PyJWT's own
fallback: its HMAC algorithms only); they are available again right after, so two-factor sign-in
loads Fernet on its first use. Only the production WSGI entry point calls it: the test suite, the
shell and Celery import PyJWT as installed. A worker that never imports PyJWT (the content pool)
never loads it.
"""
import importlib
import importlib.abc
import importlib.util
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


PYJWT = "jwt"
_CRYPTOGRAPHY_FOR_PYJWT = ("cryptography.hazmat", "cryptography.x509")  # what PyJWT imports of it


class _WithoutCryptography(importlib.abc.Loader):
    """PyJWT's own loader, run with cryptography's packages unavailable (an import of a name that
    sys.modules maps to None raises ModuleNotFoundError, which PyJWT catches)."""

    def __init__(self, loader):
        self.loader = loader

    def create_module(self, spec):
        return self.loader.create_module(spec)

    def exec_module(self, module):
        hidden = [name for name in _CRYPTOGRAPHY_FOR_PYJWT if name not in sys.modules]
        for name in hidden:
            sys.modules[name] = None
        try:
            self.loader.exec_module(module)
        finally:
            for name in hidden:
                if sys.modules.get(name, ...) is None:
                    del sys.modules[name]


class _PyJwtFinder(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name != PYJWT:
            return None
        sys.meta_path.remove(self)  # once: the first import decides
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.loader is not None:
            spec.loader = _WithoutCryptography(spec.loader)
        return spec


def load_pyjwt_without_cryptography() -> None:
    if PYJWT in sys.modules or any(isinstance(finder, _PyJwtFinder) for finder in sys.meta_path):
        return
    sys.meta_path.insert(0, _PyJwtFinder())
