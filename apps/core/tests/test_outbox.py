"""The outbox (apps.core.outbox) with real parts: a private redis-server that is stopped and
restarted without persistence, gunicorn serving the app, Celery workers killed with SIGKILL, beat
running the relay, and a real SMTP server."""
from __future__ import annotations

import time
from datetime import timedelta
from urllib.parse import parse_qs, urlparse

import pytest
import requests
from django.conf import settings
from django.core.management import call_command
from django.db import connection, transaction
from django.utils import timezone

from apps.core import email as mail
from apps.core import testing
from apps.core.mailcatcher import links
from apps.core.models import OutboxMessage
from apps.core.outbox import outbox_relay
from apps.core.task_queue import celery_app
from apps.core.tests.hardening.services import (
    CeleryBeat,
    CeleryWorker,
    Gunicorn,
    HoldingProxy,
    PrivateRedis,
    free_port,
)
from tenants.models import OutgoingEmail

pytestmark = pytest.mark.timeout(180)


def _wait(predicate, timeout: float = 30.0, step: float = 0.1) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(step)
    return False


def _reset_row(tenant, email: str) -> OutboxMessage:
    """The outbox row of the forgot-password request of `tenant` for `email` (the lookup task's)."""
    [row] = OutboxMessage.objects.filter(key__startswith=f"password-reset:{tenant.schema_name}:", args__0=email)
    return row


def _resets(smtp, address: str) -> list:
    return [m for m in smtp.to(address) if "Reset your" in str(m["Subject"])]


class Stack:
    """gunicorn, a Celery worker and beat on this test's database, with a private redis-server as
    broker and cache (stopped and restarted by the tests), sending email to the `smtp` server."""

    def __init__(self, tmp_path, **extra: str):
        from conftest import child_process_env

        self.redis = PrivateRedis().start()
        self.env = child_process_env(
            connection.settings_dict["NAME"], TEST_REDIS_URL_BASE=f"redis://127.0.0.1:{self.redis.port}",
            TEST_REDIS_DB="0", LOG_LEVEL="INFO", REDIS_BREAKER_SECONDS="1", OUTBOX_RELAY_SECONDS="1", **extra)
        self.tmp = tmp_path
        self.web = self.worker = self.beat = None

    def start_web(self) -> "Stack":
        self.web = Gunicorn(self.env, workers=1, log=self.tmp / "gunicorn.log").start()
        return self

    def start_worker(self, *, beat: bool = True) -> "Stack":
        self.worker = CeleryWorker(self.env, queue=settings.CELERY_TASK_DEFAULT_QUEUE,
                                   log=self.tmp / "worker.log").start()
        if beat and self.beat is None:
            self.beat = CeleryBeat(self.env, log=self.tmp / "beat.log").start()
        return self

    def forgot_password(self, tenant, address: str) -> requests.Response:
        return requests.post(f"{self.web.base_url}/api/auth/forgot-password", json={"email": address},
                             headers={"Host": testing.host_of(tenant)}, timeout=30)

    def stop(self) -> None:
        for part in (self.beat, self.worker, self.web):
            if part is not None:
                part.stop()
        self.redis.stop()

    def logs(self) -> str:
        return "\n".join(path.read_text(errors="replace")[-3000:] for path in self.tmp.glob("*.log"))


@pytest.fixture
def stack_factory(tmp_path):
    made = []

    def factory(**extra: str) -> Stack:
        made.append(Stack(tmp_path, **extra))
        return made[-1]

    yield factory
    for stack in made:
        stack.stop()


@pytest.mark.django_db(transaction=True)
def test_forgot_password_while_redis_is_down_answers_as_usual_and_the_email_arrives_once_it_is_back(
        make_tenant, smtp, stack_factory):
    """Today: 500 (`server_error`) and the stored email was never sent by anything."""
    tenant = make_tenant()
    admin = testing.tenant_admin(tenant)
    stack = stack_factory().start_web()
    assert stack.forgot_password(tenant, "nobody@example.com").status_code == 200  # the server has loaded the app
    stack.redis.stop()

    started = time.monotonic()
    answer = stack.forgot_password(tenant, admin.email)
    assert answer.status_code == 200, answer.text
    assert answer.json()["success"] is True and time.monotonic() - started < 10
    # The request stored its work (the lookup, which queues the email: the same work for every
    # address) in the outbox; it waits for the relay.
    row = _reset_row(tenant, admin.email)
    assert row.due_at <= timezone.now() and "broker unavailable" in row.last_error
    assert not OutgoingEmail.objects.filter(to=admin.email).exists()

    stack.redis.start()
    stack.start_worker()  # and beat: the relay runs every second here
    assert _wait(lambda: _resets(smtp, admin.email), timeout=40), stack.logs()
    [message] = _resets(smtp, admin.email)
    email = OutgoingEmail.objects.get(to=admin.email, kind="password_reset")
    assert message["Message-ID"] == email.message_id
    query = parse_qs(urlparse(links(message)[0]).query)
    check = testing.Api(tenant).post("/api/auth/reset-password/check", {"uid": query["uid"][0],
                                                                          "token": query["token"][0]})
    assert check.status_code == 200, check.content  # the link works
    assert _wait(lambda: not OutboxMessage.objects.filter(key=f"email:{email.pk}").exists(), timeout=10)
    time.sleep(2)
    assert len(_resets(smtp, admin.email)) == 1


@pytest.mark.django_db(transaction=True)
def test_an_email_held_by_a_worker_killed_mid_send_arrives_once_even_after_a_redis_restart(
        make_tenant, smtp, stack_factory):
    """Today: the message stays unacknowledged in Redis for the visibility timeout (an hour, after
    which the reset link has expired), and a Redis restart without persistence loses it."""
    tenant = make_tenant()
    admin = testing.tenant_admin(tenant)
    proxy = HoldingProxy(smtp.port).start()  # the worker reaches the SMTP server through it
    try:
        stack = stack_factory(EMAIL_URL=f"smtp://127.0.0.1:{proxy.port}", CELERY_VISIBILITY_TIMEOUT="3600",
                              OUTBOX_LEASE_SECONDS="3").start_web()
        proxy.hold()
        stack.start_worker(beat=False)
        assert stack.forgot_password(tenant, admin.email).status_code == 200
        assert proxy.held.wait(30), stack.logs()  # the worker holds the task, in the middle of sending
        stack.worker.kill()
        proxy.release()
        stack.redis.stop()  # no persistence: whatever the broker held is gone
        stack.redis.start()

        stack.start_worker()
        assert _wait(lambda: _resets(smtp, admin.email), timeout=40), stack.logs()
        time.sleep(3)
        [message] = _resets(smtp, admin.email)
        email = OutgoingEmail.objects.get(to=admin.email, kind="password_reset")
        assert message["Message-ID"] == email.message_id and email.sent_at is not None
    finally:
        proxy.stop()


@pytest.mark.django_db(transaction=True)
def test_an_email_the_smtp_server_accepted_is_not_sent_again_when_its_worker_is_killed(smtp, monkeypatch, settings):
    """Today: a message was recorded as sent only after its connection was closed (QUIT); a worker
    killed while a slow server answered QUIT left it unrecorded, and its redelivery sent it again."""
    from conftest import WorkerProcess

    settings.OUTBOX_LEASE_SECONDS = 2
    monkeypatch.setenv("CELERY_VISIBILITY_TIMEOUT", "1")  # the broker gives it back at once, too
    smtp.quit_delay = 10
    worker = WorkerProcess(connection.settings_dict["NAME"])
    worker.start()
    try:
        with transaction.atomic():
            queued = mail.email_queue(kind="password_reset", to="ada@example.com", company_name="Acme",
                                      base_url="http://acme.example.test",
                                      context={"username": "ada", "email": "ada@example.com",
                                               "url": "http://acme.example.test/reset-password?uid=a&token=b",
                                               "valid_for": "1 hour"})
        smtp.wait_for(1)  # accepted; the worker now waits for the answer to QUIT
        time.sleep(0.5)
        worker.kill()
        time.sleep(2.5)  # past the lease and the visibility timeout
        outbox_relay()
        worker.start()
        assert _wait(lambda: not OutboxMessage.objects.filter(key=f"email:{queued.pk}").exists(), timeout=20)
        time.sleep(8)  # a second copy, if one were sent, arrives now
    finally:
        worker.stop()
    assert len(smtp.messages) == 1
    row = OutgoingEmail.objects.get(pk=queued.pk)
    assert row.sent_at is not None and row.attempts == 1 and row.failed_at is None

    # The same task delivered once more (a stray copy): nothing is sent.
    from apps.core.tasks import send_email

    send_email.apply(args=[str(queued.pk)], headers={"outbox_key": f"email:{queued.pk}"})
    time.sleep(0.5)
    assert len(smtp.messages) == 1


@pytest.mark.django_db(transaction=True)
def test_an_accepted_email_is_recorded_through_a_database_outage_not_sent_again(smtp, monkeypatch):
    """The database went away between the SMTP server's acceptance and the record (a PostgreSQL
    restart). Today: the task failed unrecorded and the message was sent again."""
    from django.db import OperationalError

    with transaction.atomic():
        queued = mail.email_queue(kind="password_reset", to="ada@example.com", company_name="Acme",
                                  base_url="http://acme.example.test",
                                  context={"username": "ada", "email": "ada@example.com", "url": "http://x/r",
                                           "valid_for": "1 hour"})
    save = OutgoingEmail.save
    failures = []

    def save_after_a_restart(self, *args, **kwargs):
        if not failures:
            failures.append(self.pk)
            raise OperationalError("terminating connection due to administrator command")
        return save(self, *args, **kwargs)

    monkeypatch.setattr(OutgoingEmail, "save", save_after_a_restart)
    assert mail.email_send(email_id=str(queued.pk)) is True
    assert failures == [queued.pk] and len(smtp.wait_for(1)) == 1
    row = OutgoingEmail.objects.get(pk=queued.pk)
    assert row.sent_at is not None and row.attempts == 1
    assert mail.email_send(email_id=str(queued.pk)) is False  # the relay's next sending: nothing
    time.sleep(0.3)
    assert len(smtp.messages) == 1


def _broker_down(monkeypatch) -> None:
    """The broker refuses connections (a port nothing listens on)."""
    monkeypatch.setattr(celery_app().conf, "broker_url", f"redis://127.0.0.1:{free_port()}/0")


@pytest.mark.django_db(transaction=True)
def test_the_relay_sends_what_the_broker_refused_and_what_it_lost(make_tenant, smtp, monkeypatch):
    """Rows stranded by a broker outage at commit time, and a message lost with the broker's
    queue after it was sent (its lease runs out), are sent by the relay: each arrives once."""
    import redis
    from conftest import WorkerProcess

    tenant = make_tenant()
    admin = testing.tenant_admin(tenant)
    api = testing.Api(tenant)
    with monkeypatch.context() as patch:
        _broker_down(patch)
        assert api.post("/api/auth/forgot-password", {"email": admin.email}).status_code == 200
    stranded = _reset_row(tenant, admin.email)
    assert stranded.dispatches == 0 and stranded.due_at <= timezone.now() and stranded.last_error

    # Sent, then lost with the queue (a Redis restart without persistence): no worker has taken it.
    other = testing.create_user(tenant, "editor", email="grace@example.com")
    assert api.post("/api/auth/forgot-password", {"email": other.email}).status_code == 200
    lost = _reset_row(tenant, other.email)
    assert lost.dispatches == 1 and lost.due_at > timezone.now()  # leased
    redis.Redis.from_url(settings.REDIS_URL).delete(settings.CELERY_TASK_DEFAULT_QUEUE)
    assert outbox_relay() == 1  # the stranded one; the lost one is still within its lease
    OutboxMessage.objects.filter(pk=lost.pk).update(due_at=timezone.now() - timedelta(seconds=1))
    assert outbox_relay() == 1
    assert OutboxMessage.objects.get(pk=lost.pk).dispatches == 2

    worker = WorkerProcess(connection.settings_dict["NAME"])
    worker.start()
    try:
        assert _wait(lambda: _resets(smtp, admin.email) and _resets(smtp, other.email))
        assert _wait(lambda: not OutboxMessage.objects.filter(pk__in=[stranded.pk, lost.pk]).exists(), timeout=10)
        time.sleep(1)
    finally:
        worker.stop()
    assert len(_resets(smtp, admin.email)) == len(_resets(smtp, other.email)) == 1


@pytest.mark.django_db(transaction=True)
def test_a_row_sent_too_often_without_an_answer_is_stuck_and_the_command_shows_and_retries_it(make_tenant,
                                                                                              settings):
    from io import StringIO

    tenant = make_tenant()
    with transaction.atomic():
        email = mail.email_queue(kind="password_reset", to="lin@example.com", company_name="Acme",
                                 base_url="http://acme.example.test",
                                 context={"username": "lin", "email": "lin@example.com", "url": "http://x/r",
                                          "valid_for": "1 hour"})
    row = OutboxMessage.objects.get(key=f"email:{email.pk}")
    OutboxMessage.objects.filter(pk=row.pk).update(
        dispatches=settings.OUTBOX_MAX_DISPATCHES, due_at=timezone.now() - timedelta(hours=1),
        schema_name=tenant.schema_name, last_error="worker lost")
    assert outbox_relay() == 0  # the relay no longer sends it

    out = StringIO()
    call_command("outbox", stdout=out)
    text = out.getvalue()
    assert mail.SEND_TASK in text and tenant.schema_name in text and "stuck" in text
    out = StringIO()
    call_command("outbox", "--stuck", stdout=out)
    assert f"email:{email.pk}" in out.getvalue() and "worker lost" in out.getvalue()

    out = StringIO()
    call_command("outbox", "--retry", "--schema", tenant.schema_name, stdout=out)
    assert "1 message(s) made due again" in out.getvalue()
    retried = OutboxMessage.objects.get(pk=row.pk)
    assert retried.dispatches == 1 and retried.due_at > timezone.now()  # sent again by the command's relay run


def test_a_broker_error_where_the_work_cannot_be_stored_is_503_with_retry_after(db, make_tenant, monkeypatch):
    """Today: 500 (`server_error`)."""
    import kombu.exceptions

    from apps.content import selectors

    tenant = make_tenant()
    client = testing.Api(tenant, user=testing.tenant_admin(tenant))
    client.http.raise_request_exception = False

    def refused(*args, **kwargs):
        raise kombu.exceptions.OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(selectors, "post_list", refused)
    response = client.get("/api/posts")
    assert response.status_code == 503 and response["Retry-After"] == "5"
    assert response.json() == {"success": False, "error": "unavailable",
                               "message": "A background service is unavailable. Please try again shortly"}


@pytest.mark.django_db
def test_a_forgot_password_lookup_delivered_twice_queues_one_email(tenant):
    """A redelivered lookup task (a worker lost after it queued the email) queues nothing more."""
    from django_tenants.utils import schema_context

    from apps.accounts.services import password_reset_email

    admin = testing.tenant_admin(tenant)
    with schema_context(tenant.schema_name):
        assert password_reset_email(email=admin.email, request_id="a1b2")
        password_reset_email(email=admin.email, request_id="a1b2")
        password_reset_email(email=admin.email, request_id="c3d4")  # another request: its own email
    assert OutgoingEmail.objects.filter(to=admin.email, kind="password_reset").count() == 2
