"""Newsletters' test helpers: posts to send, the send task run here."""
from __future__ import annotations

from django.utils import timezone
from django_tenants.utils import schema_context

from apps.content.models import Post
from apps.members.tests.helpers import run_outbox
from apps.newsletters import tasks as _tasks  # noqa: F401 - registers the tasks run here
from apps.newsletters.names import SEND_TASK


def post(tenant, *, title: str = "Spring issue", content: str = "<p>Hello readers</p>", status: str = "published",
         **fields) -> Post:
    with schema_context(tenant.schema_name):
        return Post.objects.create(title=title, slug=f"p-{timezone.now().timestamp()}".replace(".", ""),
                                   content=content, excerpt="An excerpt", status=status,
                                   published_at=timezone.now() if status == "published" else None, **fields)


def run_sends() -> int:
    return run_outbox(SEND_TASK)
