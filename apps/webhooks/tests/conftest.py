import pytest

from apps.webhooks.tests.receiver import Receiver

# Fast retries, few tries, and the receiver on 127.0.0.1 allowed; in os.environ too, so the Celery
# worker started by celery_worker_process (it inherits os.environ) runs with the same values.
WORKER_SETTINGS = {
    "WEBHOOK_ALLOW_PRIVATE_NETWORKS": "1",
    "WEBHOOK_RETRY_BASE_SECONDS": "0.2",
    "WEBHOOK_RETRY_JITTER": "0.1",
    "WEBHOOK_MAX_ATTEMPTS": "4",
    "WEBHOOK_DISABLE_AFTER_FAILURES": "3",
}


@pytest.fixture(autouse=True)
def _webhook_settings(monkeypatch, settings):
    for name, value in WORKER_SETTINGS.items():
        monkeypatch.setenv(name, value)
    settings.WEBHOOK_ALLOW_PRIVATE_NETWORKS = True
    settings.WEBHOOK_RETRY_BASE_SECONDS = 0.2
    settings.WEBHOOK_RETRY_JITTER = 0.1
    settings.WEBHOOK_MAX_ATTEMPTS = 4
    settings.WEBHOOK_DISABLE_AFTER_FAILURES = 3


@pytest.fixture
def receiver():
    with Receiver() as server:
        yield server
