"""Newsletters' background work (Celery; the company's schema travels with each task), sent through
the outbox: a task whose worker died is sent again when its lease ends (docs/newsletters.md#sending)."""
from __future__ import annotations

import uuid

from celery import shared_task
from django.db import connection

from apps.content.models import Post
from apps.newsletters import delivery, names, rendering, sending
from apps.newsletters.models import Newsletter, Send
from apps.plans.rules import current_company
from apps.site.selectors import site_view


@shared_task(name=names.SEND_TASK, acks_late=True)
def newsletters_send_run(send_id: str) -> str | None:
    return delivery.send_run(send_id=send_id)


@shared_task(name=names.HELP_TASK)
def newsletters_send_help(send_id: str, threads: int) -> int:
    """Another worker process sending rows of a send beside its own task (delivery.send_help)."""
    return delivery.send_help(send_id=send_id, threads=threads)


@shared_task(name=names.TEST_TASK, acks_late=True)
def newsletters_send_test(post_id: str, newsletter_id: str, to: str) -> bool:
    """A test email: the send's email as it would be, to one staff address (its member links lead
    nowhere: there is no member)."""
    post = Post.objects.filter(pk=post_id).select_related("author").first()
    newsletter = Newsletter.objects.filter(pk=newsletter_id).first()
    if post is None or newsletter is None:
        return False
    company = current_company()
    draft = Send(id=uuid.uuid4(), subject=post.title, newsletter=newsletter)
    rendered = rendering.render(post=post, newsletter=newsletter, client=company, markers=rendering.Markers.of(draft.id))
    draft.subject, draft.html, draft.text = rendered.subject, rendered.html, rendered.text
    template = sending.Template.of(send=draft, newsletter=newsletter, client=company, schema=connection.schema_name,
                                   site_title=site_view(company).title)
    provider = sending.open_connection()
    try:
        provider.send_messages([template.message(member_id=uuid.uuid4(), email=to, connection=provider,
                                                 subject_prefix="[Test] ")])
    finally:
        provider.close()
    return True
