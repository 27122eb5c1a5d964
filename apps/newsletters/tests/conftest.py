"""Fixtures of the newsletters' tests: a real SMTP server that refuses chosen recipients, set as the
provider (Django's SMTP backend through anymail's interface) of this process and of any worker
started afterwards; one sender (the test's own connection) unless a test asks for more."""
from __future__ import annotations

import pytest

from apps.newsletters.tests.smtp import RefusingCatcher


@pytest.fixture
def smtp_server(monkeypatch, settings):
    with RefusingCatcher() as catcher:
        monkeypatch.setenv("EMAIL_URL", catcher.url)
        settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
        settings.NEWSLETTER_EMAIL_BACKEND = ""
        settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", catcher.port
        settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
        settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
        settings.NEWSLETTER_SEND_CONNECTIONS = 1
        yield catcher
