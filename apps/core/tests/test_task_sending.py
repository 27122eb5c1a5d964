"""A web process sends background work by name: it never imports the task modules (they load
Pillow and the providers), and Celery's registry there does not hold those tasks."""
from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import redis
from django.conf import settings
from django.db import connection

ROOT = Path(__file__).resolve().parents[3]

SCRIPT = """
import importlib, sys
import django
django.setup()
from django.conf import settings
importlib.import_module(settings.ROOT_URLCONF)  # what the web server loads
from apps.media import services as media
media._enqueue_renditions("00000000-0000-0000-0000-000000000001")
media.storage.delete_keys = lambda keys, prefix: (_ for _ in ()).throw(OSError("storage down"))
media.media_files_delete(["t_x/media/1/a.png"], "t_x/media/1/")
print(sorted(name for name in ("apps.media.tasks", "apps.ai.tasks") if name in sys.modules))
"""


@pytest.mark.django_db(transaction=True)
def test_a_web_process_sends_background_work_without_the_task_modules():
    from conftest import child_process_env

    client = redis.Redis.from_url(settings.REDIS_URL)
    queue = settings.CELERY_TASK_DEFAULT_QUEUE
    client.delete(queue)
    # The test database: sending writes the work's outbox row first (apps.core.outbox).
    env = child_process_env(connection.settings_dict["NAME"])
    result = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, env=env, capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.strip().splitlines()[-1] == "[]"  # no task module was imported
    messages = [json.loads(raw) for raw in client.lrange(queue, 0, -1)]
    assert sorted(m["headers"]["task"] for m in messages) == ["media.delete_files", "media.make_renditions"]
    assert all("_schema_name" in m["headers"] for m in messages)  # tenant-schemas-celery's header
    assert all(m["headers"]["outbox_key"] for m in messages)  # the outbox row each one works for
    bodies = {m["headers"]["task"]: json.loads(base64.b64decode(m["body"]))[0] for m in messages}
    assert bodies["media.make_renditions"] == ["00000000-0000-0000-0000-000000000001"]
