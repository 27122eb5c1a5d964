"""Running what the outbox holds in the test's own process (no worker), and reading the emails the
product queued (tenants.OutgoingEmail) and the links in them."""
from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

from django.db import connection
from django_tenants.utils import schema_context

from apps.core.models import OutboxMessage
from apps.core.task_queue import celery_app
from apps.members import tasks as _members_tasks  # noqa: F401 - registers the tasks run here
from tenants.models import OutgoingEmail


def run_outbox(task: str) -> int:
    """Run the outbox's rows of `task` here, each in its company's schema; returns how many."""
    app = celery_app()
    rows = list(OutboxMessage.objects.filter(task=task).order_by("id"))
    for row in rows:
        with schema_context(row.schema_name):
            app.tasks[row.task].run(*row.args, **row.kwargs)
        OutboxMessage.objects.filter(pk=row.pk).delete()
    connection.set_schema_to_public()
    return len(rows)


def outbox_count(task: str) -> int:
    return OutboxMessage.objects.filter(task=task).count()


def emails(kind: str, to: str | None = None) -> list[OutgoingEmail]:
    found = OutgoingEmail.objects.filter(kind=kind).order_by("created_at")
    return list(found.filter(to=to) if to else found)


def link_in(email: OutgoingEmail) -> str:
    return re.search(r"https?://\S+token=\S+", email.text).group(0)


def token_of(url: str) -> str:
    return parse_qs(urlsplit(url).query)["token"][0]


def path_of(url: str) -> str:
    parts = urlsplit(url)
    return parts.path + ("?" + parts.query if parts.query else "")
