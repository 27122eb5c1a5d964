from __future__ import annotations

import socket
from contextlib import contextmanager

import pytest

from apps.ai.providers.gemini import GeminiProvider
from apps.ai.providers.retry import RetryPolicy
from apps.ai.tests.fake_gemini import FakeGemini

# Small delays so retry tests run in well under a second while still measurable.
FAST_RETRY = RetryPolicy(attempts=4, initial_delay=0.05, max_delay=2.0, jitter=0.02)


@pytest.fixture
def fake_gemini():
    fake = FakeGemini().start()
    yield fake
    fake.stop()


@pytest.fixture
def gemini(fake_gemini):
    """The gemini provider, through the real google-genai client, talking to the fake server."""
    return GeminiProvider(api_key="test-key", model="gemini-test", base_url=fake_gemini.url,
                          api_version="v1beta", timeout_seconds=10, retry=FAST_RETRY)


@pytest.fixture
def offline_ai(settings):
    settings.AI_PROVIDER = "offline"
    settings.AI_DAILY_QUOTA = {"trial": 1000}
    settings.AI_MAX_RUNNING_PER_TENANT = 1000
    return settings


@pytest.fixture
def eager_celery():
    """Tasks run inline when enqueued (needs a transactional test: they are sent on commit)."""
    from config.celery import app

    before = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield app
    app.conf.task_always_eager = before


@pytest.fixture
def gemini_env(fake_gemini, monkeypatch):
    """Environment for worker subprocesses: the gemini provider on the fake server, fast retries."""
    for name, value in {
        "AI_PROVIDER": "gemini",
        "GEMINI_API_KEY": "test-key",
        "GEMINI_MODEL": "gemini-test",
        "GEMINI_BASE_URL": fake_gemini.url,
        "GEMINI_TIMEOUT_SECONDS": "60",
        "AI_RETRY_ATTEMPTS": "3",
        "AI_RETRY_INITIAL_DELAY": "0.05",
        "AI_RETRY_JITTER": "0.02",
        "AI_QUEUE": "",
    }.items():
        monkeypatch.setenv(name, value)
    return fake_gemini


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def _celery_broker(url: str):
    """The Celery app publishing to `url` (its pooled broker connections dropped before and after)."""
    from config.celery import app

    def drop_pools():
        app._pool = None
        app.amqp._producer_pool = None

    before = app.conf.broker_url
    app.conf.broker_url = url
    drop_pools()
    try:
        yield url
    finally:
        app.conf.broker_url = before
        drop_pools()


@pytest.fixture
def broker_down():
    """The broker at a closed local port: every publish is refused (Redis stopped)."""
    with _celery_broker(f"redis://127.0.0.1:{_free_port()}/0") as url:
        yield url


@pytest.fixture
def broker_silent():
    """The broker at a port that accepts connections and never answers (Redis frozen, a dead
    proxy): without socket timeouts a publish would wait forever."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(64)
        with _celery_broker(f"redis://127.0.0.1:{listener.getsockname()[1]}/0") as url:
            yield url
