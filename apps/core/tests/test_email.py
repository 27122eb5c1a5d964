"""Outgoing email through a real Celery worker to a real SMTP server (aiosmtpd)."""
from __future__ import annotations

import time

import pytest
from django.db import transaction

from apps.core import email as mail
from apps.core.mailcatcher import parts
from config.environment import email_settings
from tenants.models import OutgoingEmail


def _queue(**kw) -> OutgoingEmail:
    with transaction.atomic():
        return mail.email_queue(kind="password_reset", to=kw.pop("to", "ada@example.com"), company_name="Acme",
                                base_url="http://acme.example.test",
                                context={"username": "ada", "email": "ada@example.com",
                                         "url": "http://acme.example.test/reset-password?uid=a&token=b",
                                         "valid_for": "1 hour"}, **kw)


def _wait(predicate, timeout=20.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.1)
    return False


@pytest.mark.django_db(transaction=True)
def test_a_queued_email_arrives_once_with_a_text_and_an_html_part(smtp, mail_worker):
    queued = _queue()
    [message] = smtp.wait_for(1)
    text, html = parts(message)
    assert message["To"] == "ada@example.com" and message["Subject"] == "Reset your Acme password"
    assert message["Message-ID"] == queued.message_id
    assert "http://acme.example.test/reset-password?uid=a&token=b" in text and "Acme" in text
    assert 'href="http://acme.example.test/reset-password?uid=a&amp;token=b"' in html and "Acme" in html
    assert _wait(lambda: OutgoingEmail.objects.get(pk=queued.pk).sent_at is not None)
    # a second delivery of the same task (a retry, a redelivered message) sends nothing
    assert mail.email_send(email_id=str(queued.pk)) is False
    time.sleep(0.5)
    assert len(smtp.messages) == 1


@pytest.mark.django_db(transaction=True)
def test_a_server_failing_for_a_while_is_retried_and_the_message_arrives_once(smtp, mail_worker):
    smtp.refuse = 2  # "451 Try again later" twice
    queued = _queue(to="grace@example.com")
    [message] = smtp.wait_for(1, timeout=30)
    assert message["To"] == "grace@example.com"
    assert _wait(lambda: OutgoingEmail.objects.get(pk=queued.pk).sent_at is not None)
    assert OutgoingEmail.objects.get(pk=queued.pk).attempts == 3
    time.sleep(1.5)
    assert len(smtp.messages) == 1


@pytest.mark.django_db(transaction=True)
def test_a_server_that_never_answers_is_given_up_after_the_last_try(smtp, settings, monkeypatch):
    from conftest import WorkerProcess

    monkeypatch.setenv("EMAIL_MAX_ATTEMPTS", "3")
    smtp.refuse = 100
    from django.db import connection

    worker = WorkerProcess(connection.settings_dict["NAME"])
    worker.start()
    try:
        queued = _queue()
        assert _wait(lambda: OutgoingEmail.objects.get(pk=queued.pk).failed_at is not None, timeout=30)
    finally:
        worker.stop()
    row = OutgoingEmail.objects.get(pk=queued.pk)
    assert row.sent_at is None and row.attempts == 3 and "451" in row.last_error
    assert smtp.messages == []


@pytest.mark.parametrize(("url", "expected"), [
    ("smtp://127.0.0.1:1025", {"EMAIL_HOST": "127.0.0.1", "EMAIL_PORT": 1025, "EMAIL_USE_TLS": False,
                               "EMAIL_USE_SSL": False, "EMAIL_HOST_USER": ""}),
    ("smtp://user%40x.com:p%40ss@mail.example.com:587?tls=1",
     {"EMAIL_HOST": "mail.example.com", "EMAIL_PORT": 587, "EMAIL_USE_TLS": True, "EMAIL_HOST_USER": "user@x.com",
      "EMAIL_HOST_PASSWORD": "p@ss"}),
    ("smtps://u:p@mail.example.com", {"EMAIL_PORT": 465, "EMAIL_USE_SSL": True, "EMAIL_USE_TLS": False}),
    ("console://", {"EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend"}),
])
def test_email_url_forms(monkeypatch, url, expected):
    monkeypatch.setenv("EMAIL_URL", url)
    got = email_settings(debug=False)
    assert {key: got[key] for key in expected} == expected


def test_without_email_url_debug_prints_and_production_uses_local_smtp(monkeypatch):
    monkeypatch.delenv("EMAIL_URL", raising=False)
    monkeypatch.delenv("EMAIL_HOST", raising=False)
    assert email_settings(debug=True)["EMAIL_BACKEND"].endswith("console.EmailBackend")
    production = email_settings(debug=False)
    assert production["EMAIL_BACKEND"].endswith("smtp.EmailBackend") and production["EMAIL_HOST"] == "localhost"
    monkeypatch.setenv("EMAIL_URL", "ftp://x")
    with pytest.raises(ValueError):
        email_settings(debug=False)
