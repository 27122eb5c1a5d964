"""Outgoing messages of the company (admins, capability settings.manage): what the outbox
(apps.core.outbox) holds for it per kind of work, and its emails that failed or are stuck, each of
which can be sent again. Webhook deliveries have their own log and Redeliver (apps.webhooks)."""
from __future__ import annotations

from django.db import connection
from ninja import Router

from apps.core import content_version
from apps.core import email as mail
from apps.core import outbox
from apps.core.permissions import requires
from apps.core.schemas import MessageOut, OutgoingEmailOut, OutgoingKindOut, OutgoingOut

router = Router(tags=["outgoing"])
CANNOT_VIEW = "Only administrators can see outgoing messages"
EMAIL_QUEUED = "The email will be sent again"
LABELS = {mail.SEND_TASK: "Emails", "webhooks.deliver": "Webhook deliveries", "core.edge_purge": "Cache purges",
          "media.make_renditions": "Image sizes", "media.delete_files": "File removals",
          content_version.BUMP_TASK: "Content API refreshes"}


@router.get("", response=OutgoingOut)
@requires("settings.manage", CANNOT_VIEW)
def outgoing(request):
    schema = connection.schema_name
    kinds = [OutgoingKindOut(kind=row["task"], label=LABELS.get(row["task"], row["task"]), waiting=row["waiting"],
                             sending=row["in_flight"] + row["due"], stuck=row["stuck"])
             for row in outbox.outbox_counts(schema_name=schema)]
    emails = [OutgoingEmailOut(id=str(email.pk), kind=email.kind, to=email.to, subject=email.subject,
                               status="failed" if email.failed_at else "stuck", attempts=email.attempts,
                               lastError=email.last_error, createdAt=email.created_at)
              for email in mail.email_problems(schema_name=schema)]
    return OutgoingOut(kinds=kinds, emails=emails)


@router.post("/emails/{email_id}/retry", response={202: MessageOut})
@requires("settings.manage", CANNOT_VIEW)
def retry_email(request, email_id: str):
    """Send a failed or stuck email again (the same message, from its first try)."""
    mail.email_retry(email=mail.email_unsent_get(schema_name=connection.schema_name, email_id=email_id))
    return 202, MessageOut(message=EMAIL_QUEUED)


ROUTES = [("/outgoing", router)]
