"""The company's audit log on the dashboard API (admins: capability audit.read)."""
from __future__ import annotations

from ninja import Query, Router, Schema
from pydantic import Field

from apps.audit import selectors
from apps.audit.models import ACTIONS
from apps.audit.schemas import AuditActionOut, AuditEntryOut, AuditListOut
from apps.core.pagination import page_params
from apps.core.permissions import requires
from apps.core.schemas import PaginationOut
from apps.core.selectors import paginate

router = Router(tags=["audit"])
CANNOT_READ = "Only administrators can see the activity log"


class AuditListQuery(Schema):
    user: str | None = None
    action: str | None = None
    objectType: str | None = None
    objectId: str | None = None
    date_from: str | None = Field(None, alias="from")
    date_to: str | None = Field(None, alias="to")
    page: int | None = None
    limit: int | None = None


@router.get("", response=AuditListOut)
@requires("audit.read", CANNOT_READ)
def list_entries(request, filters: Query[AuditListQuery]):
    """Who did what, when, newest first; `from`/`to`: days (YYYY-MM-DD, `to` included) or times."""
    page = page_params(filters.page, filters.limit, default_limit=25, max_limit=100)
    entries, total = paginate(selectors.audit_list(
        user=filters.user, action=filters.action, object_type=filters.objectType, object_id=filters.objectId,
        date_from=filters.date_from, date_to=filters.date_to), page)
    return AuditListOut(entries=[AuditEntryOut.of(e) for e in entries],
                        actions=[AuditActionOut(value=k, label=v) for k, v in ACTIONS.items()],
                        pagination=PaginationOut(**page.meta(total)))


ROUTES = [("/audit", router)]
