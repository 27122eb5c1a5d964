"""The members export: Ghost's members CSV (csvio.GHOST_COLUMNS), so the list moves to Ghost or
back here as it is. The dashboard asks for a link (GET /api/members/export, the list's filters);
the link (`/api/members/export/download/<token>`, a plain view, no sign-in: the signed token names
the company and the filters, valid MEMBERS_EXPORT_LINK_SECONDS) streams the file, a page of rows
at a time. Every cell is neutralised against spreadsheet formulas (csvio.neutralise)."""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import asdict

from django.conf import settings
from django.core import signing
from django.db import connection
from django_tenants.utils import schema_context

from apps.core.email import company_of_connection
from apps.core.errors import NotFound
from apps.members import csvio
from apps.members.models import Member
from apps.members.selectors import MemberFilter, member_list

SALT = "members.export"
LINK_INVALID = "This download link has expired or is not valid"
CHUNK = 2000


def export_token(wanted: MemberFilter) -> str:
    return signing.dumps({"s": connection.schema_name, "f": asdict(wanted)}, salt=SALT, compress=True)


def export_link(wanted: MemberFilter) -> str:
    _, base_url = company_of_connection()
    return f"{base_url}/api/members/export/download/{export_token(wanted)}"


def export_filter(token: str) -> MemberFilter:
    """The filters a download link names; 404 for a link forged, expired or of another company."""
    try:
        value = signing.loads(token, salt=SALT, max_age=settings.MEMBERS_EXPORT_LINK_SECONDS)
    except signing.BadSignature as exc:  # SignatureExpired is one
        raise NotFound(LINK_INVALID) from exc
    if not isinstance(value, dict) or value.get("s") != connection.schema_name:
        raise NotFound(LINK_INVALID)
    try:
        return MemberFilter(**value["f"])
    except (TypeError, KeyError) as exc:
        raise NotFound(LINK_INVALID) from exc


def _row(member: Member) -> list[str]:
    return [str(member.id), member.email, member.name, member.note,
            "true" if member.newsletters.all() and not member.email_disabled else "false",
            "true" if member.status == Member.Status.COMPED else "false", "",
            member.created_at.strftime("%Y-%m-%dT%H:%M:%S.000Z"), "",
            ",".join(label.name for label in member.labels.all())]


def export_lines(wanted: MemberFilter) -> Iterator[str]:
    """The CSV's lines: the header, then one per member, oldest first (read in the schema of the
    connection when this is called, whenever the lines are taken)."""
    schema = connection.schema_name

    def lines() -> Iterator[str]:
        yield from csvio.csv_lines([csvio.GHOST_COLUMNS])
        with schema_context(schema):
            members = member_list(wanted).order_by("created_at", "id")
            yield from csvio.csv_lines(_row(member) for member in members.iterator(chunk_size=CHUNK))

    return lines()
