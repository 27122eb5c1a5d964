"""Members and labels of a company, made as the services make them (tests only)."""
from __future__ import annotations

import itertools
import uuid

from django.utils import timezone
from django_tenants.utils import schema_context

from apps.members.models import Label, Member
from apps.newsletters.models import Newsletter
from apps.newsletters.services import newsletter_first_ensure, newsletters_default

_n = itertools.count(1)


def member(tenant, *, email: str | None = None, name: str = "", status: str = "free", labels=(),
           newsletters=None, created_at=None, **fields) -> Member:
    """A member of `tenant`; `newsletters` None: the company's default newsletters."""
    with schema_context(tenant.schema_name):
        made = Member.objects.create(email=email or f"reader-{next(_n)}-{uuid.uuid4().hex[:6]}@example.com",
                                     name=name, status=status, created_at=created_at or timezone.now(), **fields)
        made.labels.set([label if isinstance(label, Label) else Label.objects.get_or_create(name=label)[0]
                         for label in labels])
        made.newsletters.set(newsletters_default() if newsletters is None else newsletters)
        return made


def newsletter(tenant, name: str = "Weekly", **fields) -> Newsletter:
    from apps.core.text import slugify

    with schema_context(tenant.schema_name):
        newsletter_first_ensure()  # the company's first newsletter, as a company has it
        return Newsletter.objects.create(name=name, slug=f"{slugify(name)}-{next(_n)}", **fields)


def default_newsletter(tenant) -> Newsletter:
    with schema_context(tenant.schema_name):
        newsletter_first_ensure()
        return Newsletter.objects.order_by("created_at").first()
