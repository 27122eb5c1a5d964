"""The image's web server (`python -m config.serve`): granian with the application imported
before the workers are forked, so that they share its memory."""
from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _smaps(pid: int) -> dict[str, int]:
    lines = Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()[1:]
    return {name: int(value.split()[0]) for name, value in (line.split(":", 1) for line in lines)}


@pytest.fixture
def server(django_db_setup, django_db_blocker):
    database = settings.DATABASES["default"]
    port = _free_port()
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT / "platform"), str(ROOT)]),
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": f"postgres://{database['USER'] or 'postgres'}@{database['HOST'] or '127.0.0.1'}:"
                        f"{database['PORT'] or 5432}/{database['NAME']}",
        "REDIS_URL": settings.REDIS_URL,
        "CELERY_BROKER_URL": settings.CELERY_BROKER_URL,
        "ROOT_DOMAIN": "localhost",
        "DEBUG": "0",
        "WEB_HOST": "127.0.0.1",
        "WEB_PORT": str(port),
        "WEB_WORKERS": "2",
        "WEB_ACCESS_LOG": "0",
        "WEB_LOG_LEVEL": "warning",
    }
    process = subprocess.Popen([sys.executable, "-m", "config.serve"], cwd=ROOT, env=env, start_new_session=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                break
        except OSError:
            if process.poll() is not None:
                pytest.fail(f"config.serve exited: {process.stderr.read().decode()[-2000:]}")
            time.sleep(0.2)
    yield process, port
    os.killpg(process.pid, signal.SIGTERM)
    process.wait(30)


def test_serves_the_application_from_workers_that_share_the_preloaded_code(server):
    process, port = server
    request = urllib.request.Request(f"http://127.0.0.1:{port}/api/health", headers={"Host": "localhost"})
    with urllib.request.urlopen(request, timeout=30) as response:
        assert response.status == 200
        assert json.loads(response.read())["checks"]["database"]["status"] == "ok"
        assert response.headers["X-Content-Type-Options"] == "nosniff"  # Django's middleware ran

    out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(process.pid)], capture_output=True, text=True).stdout
    workers = [int(pid) for pid in out.split()]
    assert len(workers) == 2
    for pid in workers:
        memory = _smaps(pid)
        # Pages written by the main process before the fork (the imported application) and not
        # written since: shared with it, not copied into each worker.
        assert memory["Shared_Dirty"] > 30 * 1024, memory
        assert memory["Pss"] < memory["Rss"] * 0.75, memory
