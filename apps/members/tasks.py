"""Members' background work (Celery; the company's schema travels with each task). The import's
tasks and the emails of sign-ups and sign-ins are sent through the outbox: a task whose worker
died is sent again when its lease ends."""
from __future__ import annotations

from celery import shared_task
from django.utils import timezone

from apps.core.tenancy import for_each_active_tenant
from apps.members import imports, signup
from apps.members.models import UsedLink
from apps.plans.rules import current_company


@shared_task(name=imports.ANALYSE_TASK, acks_late=True)
def members_import_analyse(job_id: str) -> str | None:
    job = imports.member_import_analyse(job_id=job_id)
    return job.status if job is not None else None


@shared_task(name=imports.RUN_TASK, acks_late=True)
def members_import_run(job_id: str) -> str | None:
    job = imports.member_import_run(job_id=job_id)
    return job.status if job is not None else None


@shared_task(name=signup.SUBSCRIBE_TASK, acks_late=True)
def members_subscribe_send(email: str, name: str = "", newsletter_ids: list | None = None) -> bool:
    return signup.subscribe_send(client=current_company(), email=email, name=name, newsletter_ids=newsletter_ids or [])


@shared_task(name=signup.SIGNIN_TASK, acks_late=True)
def members_signin_send(email: str, redirect: str = "") -> bool:
    return signup.signin_send(client=current_company(), email=email, redirect=redirect)


def _prune_used_links(company) -> int:
    return UsedLink.objects.filter(expires_at__lt=timezone.now()).delete()[0]


@shared_task(name="members.prune_used_links", ignore_result=True)
def members_prune_used_links() -> int:
    """The one-time links' nonces whose links have expired anyway (every company: beat, daily)."""
    return sum(for_each_active_tenant(_prune_used_links, include_suspended=True,
                                      what="pruning used member links").values())
