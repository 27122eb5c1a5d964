"""Moving a list from Ghost, Substack or Mailchimp: each export's real columns read into members, in
the encodings spreadsheets and services write (UTF-8 with or without a byte order mark, UTF-16,
Windows-1252) and separators (comma, semicolon, tab), a million rows read as a stream."""
from __future__ import annotations

import codecs
import io
import os
from datetime import datetime, timezone

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test.client import MULTIPART_CONTENT
from django_tenants.utils import schema_context

from apps.members import csvio, imports
from apps.members.csvio import MemberRow, RowProblem, read_members
from apps.members.models import Member

SUBSTACK = (
    "email,active_subscription,expiry,plan,email_disabled,created_at,first_payment_at\n"
    "free@example.com,false,,free,false,2022-05-01T08:30:00.000Z,\n"
    "paid@example.com,true,2025-01-01T00:00:00.000Z,yearly,false,2021-01-01T00:00:00.000Z,2021-01-01T00:00:00.000Z\n"
    "comp@example.com,false,,comp,false,2021-03-01T00:00:00.000Z,\n"
    "bounced@example.com,false,,free,true,2021-03-01T00:00:00.000Z,\n"
)
MAILCHIMP_HEAD = ('"Email Address","First Name","Last Name",MEMBER_RATING,OPTIN_TIME,OPTIN_IP,CONFIRM_TIME,CONFIRM_IP,'
                  'LATITUDE,LONGITUDE,GMTOFF,DSTOFF,TIMEZONE,CC,REGION,LAST_CHANGED,LEID,EUID,NOTES,TAGS')
MAILCHIMP = (
    MAILCHIMP_HEAD + "\n"
    'ada@example.com,Ada,Lovelace,4,"2020-02-03 10:11:12",,"2020-02-03 10:15:00",,,,,,,,,"2020-02-03 10:15:00",1,a1,'
    '"Met at the launch","""vip"",""2020 launch"""\n'
    'grace@example.com,Grace,,2,"2021-06-01 00:00:00",,,,,,,,,,,,2,b2,,\n'
)
MAILCHIMP_UNSUBSCRIBED = (
    MAILCHIMP_HEAD + ",UNSUB_TIME,UNSUB_CAMPAIGN_TITLE,UNSUB_CAMPAIGN_ID,UNSUB_REASON,UNSUB_REASON_OTHER\n"
    'gone@example.com,Gone,,1,"2020-01-01 00:00:00",,,,,,,,,,,,3,c3,,,"2023-01-01 00:00:00",Spring,x,"No longer interested",\n'
)
MAILCHIMP_CLEANED = (
    MAILCHIMP_HEAD + ",CLEAN_TIME,CLEAN_CAMPAIGN_TITLE,CLEAN_CAMPAIGN_ID\n"
    'dead@example.com,,,1,"2020-01-01 00:00:00",,,,,,,,,,,,4,d4,,,"2023-02-01 00:00:00",Spring,x\n'
)


def rows_of(data: bytes) -> tuple[str, list]:
    found = read_members(io.BytesIO(data))
    return found.source, list(found.rows)


def by_email(rows) -> dict[str, MemberRow]:
    return {row.email: row for row in rows if isinstance(row, MemberRow)}


def test_substacks_subscribers_export():
    source, rows = rows_of(SUBSTACK.encode())
    members = by_email(rows)
    assert source == "substack" and set(members) == {"free@example.com", "paid@example.com", "comp@example.com",
                                                     "bounced@example.com"}
    assert members["free@example.com"].comped is False and members["free@example.com"].subscribed is True
    assert members["free@example.com"].created_at == datetime(2022, 5, 1, 8, 30, tzinfo=timezone.utc)
    assert members["paid@example.com"].comped is True and members["paid@example.com"].remarks  # said in the report
    assert members["comp@example.com"].comped is True and not members["comp@example.com"].remarks
    bounced = members["bounced@example.com"]
    assert bounced.email_disabled is True and bounced.subscribed is False and "Substack" in bounced.disabled_reason


# Ghost's members export as Ghost 5 writes it: `tiers` names the member's tiers (a paid member's, or the
# complimentary one); `stripe_customer_id` stays after a subscription ends.
GHOST_TIERS = (
    "id,email,name,note,subscribed_to_emails,complimentary_plan,stripe_customer_id,created_at,deleted_at,labels,tiers\n"
    "1,free@example.com,Free,,true,false,,2023-01-15T10:00:00.000Z,,,\n"
    "2,paid@example.com,Paid,,true,false,cus_P1,2023-01-15T10:00:00.000Z,,vip,Gold\n"
    "3,comp@example.com,Comp,,true,true,,2023-01-15T10:00:00.000Z,,,Gold\n"
    "4,lapsed@example.com,Lapsed,,true,false,cus_L1,2023-01-15T10:00:00.000Z,,,\n"
)
GHOST_PAID = "A paid Ghost member: comes in as a complimentary member (no payments here)"


@pytest.mark.parametrize(("data", "paid", "free"), [
    (GHOST_TIERS, {"paid@example.com"}, {"free@example.com", "lapsed@example.com"}),
    # Ghost 4 called the column `products`
    (GHOST_TIERS.replace(",tiers\n", ",products\n", 1), {"paid@example.com"}, {"free@example.com", "lapsed@example.com"}),
    # a `status` column (free, paid, comped), as Ghost's member lists show it: it decides
    ("email,name,status,subscribed_to_emails,complimentary_plan,stripe_customer_id,tiers\n"
     "free@example.com,Free,free,true,false,,\npaid@example.com,Paid,paid,true,false,,\n"
     "comp@example.com,Comp,comped,true,false,,Gold\nlapsed@example.com,Lapsed,free,true,false,cus_L1,\n",
     {"paid@example.com"}, {"free@example.com", "lapsed@example.com"}),
    # Ghost 3 wrote neither: a Stripe customer is a paying member
    ("id,email,name,note,subscribed_to_emails,complimentary_plan,stripe_customer_id,created_at,deleted_at,labels\n"
     "1,free@example.com,Free,,true,false,,,,\n2,paid@example.com,Paid,,true,false,cus_P1,,,\n"
     "3,comp@example.com,Comp,,true,true,,,,\n", {"paid@example.com"}, {"free@example.com"}),
])
def test_ghosts_paid_members_come_in_comped_with_a_remark(data, paid, free):
    source, rows = rows_of(data.encode())
    members = by_email(rows)
    assert source == "ghost"
    for email in paid:
        assert members[email].comped is True and members[email].remarks == (GHOST_PAID,), members[email]
    assert members["comp@example.com"].comped is True and not members["comp@example.com"].remarks
    for email in free:
        assert members[email].comped is False and not members[email].remarks, members[email]


def test_mailchimps_audience_exports():
    source, rows = rows_of(MAILCHIMP.encode())
    members = by_email(rows)
    assert source == "mailchimp"
    ada = members["ada@example.com"]
    assert ada.name == "Ada Lovelace" and ada.labels == ("vip", "2020 launch") and ada.note == "Met at the launch"
    assert ada.consent_at == datetime(2020, 2, 3, 10, 15, tzinfo=timezone.utc)
    assert ada.created_at == datetime(2020, 2, 3, 10, 11, 12, tzinfo=timezone.utc) and ada.subscribed
    assert members["grace@example.com"].name == "Grace" and members["grace@example.com"].consent_at.year == 2021
    gone = by_email(rows_of(MAILCHIMP_UNSUBSCRIBED.encode())[1])["gone@example.com"]
    assert gone.subscribed is False and gone.email_disabled is False
    dead = by_email(rows_of(MAILCHIMP_CLEANED.encode())[1])["dead@example.com"]
    assert dead.subscribed is False and dead.email_disabled is True and "Mailchimp" in dead.disabled_reason


GHOST = ("id,email,name,note,subscribed_to_emails,complimentary_plan,stripe_customer_id,created_at,deleted_at,labels\n"
         "1,jose@example.com,José Müller,Café crème,true,false,,,,Réseau\n")


@pytest.mark.parametrize(("data", "encoding"), [
    (GHOST.encode("utf-8"), "utf-8"),
    (codecs.BOM_UTF8 + GHOST.encode("utf-8"), "utf-8"),
    (codecs.BOM_UTF16_LE + GHOST.encode("utf-16-le"), "utf-16-le"),
    (codecs.BOM_UTF16_BE + GHOST.encode("utf-16-be"), "utf-16-be"),
    (GHOST.encode("utf-16-le"), "utf-16-le"),  # no mark
    (codecs.BOM_UTF16_LE + GHOST.replace(",", "\t").encode("utf-16-le"), "utf-16-le"),  # Excel's "Unicode text"
    (GHOST.replace(",", ";").encode("cp1252"), "cp1252"),  # Excel where the decimal mark is a comma
    (GHOST.replace("\n", "\r\n").encode("cp1252"), "cp1252"),
])
def test_every_encoding_and_separator_reads_the_same(data, encoding):
    found = read_members(io.BytesIO(data))
    [row] = list(found.rows)
    assert found.encoding == encoding and found.source == "ghost"
    assert (row.email, row.name, row.note, row.labels) == ("jose@example.com", "José Müller", "Café crème", ("Réseau",))


def test_bytes_that_are_not_text_in_the_encoding_become_replacement_characters():
    data = GHOST.encode("utf-8").replace("José".encode(), b"Jos\x81\x8d")  # undefined in Windows-1252
    [row] = list(read_members(io.BytesIO(data)).rows)
    assert row.email == "jose@example.com" and row.name.startswith("Jos")


class Generated(io.RawIOBase):
    """A members CSV of `count` rows made as it is read (never whole in memory)."""

    def __init__(self, count: int):
        self._lines = self._make(count)
        self._pending = b""

    @staticmethod
    def _make(count: int):
        yield GHOST.splitlines(keepends=True)[0].encode()
        for n in range(count):
            yield f"{n},reader{n}@example.com,Reader {n},,true,false,,2023-01-15T10:00:00.000Z,,\"a,b\"\n".encode()

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        while len(self._pending) < len(buffer):
            try:
                self._pending += next(self._lines)
            except StopIteration:
                break
        n = min(len(buffer), len(self._pending))
        buffer[:n], self._pending = self._pending[:n], self._pending[n:]
        return n


def _rss_bytes() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


@pytest.mark.slow
def test_a_million_rows_are_read_as_a_stream():
    found = read_members(io.BufferedReader(Generated(1_000_000)))
    before = _rss_bytes()
    count = 0
    for row in found.rows:
        assert isinstance(row, MemberRow)
        count += 1
    assert count == 1_000_000
    assert _rss_bytes() - before < 40 * 1024 * 1024  # a million rows held would be hundreds of MB


def test_lines_that_cannot_be_read_are_reported_and_reading_goes_on():
    data = (GHOST + '2,"unterminated@example.com,x\n' + "3,ok@example.com,Ok,,true,false,,,,\n").encode()
    source, rows = rows_of(data)
    assert "jose@example.com" in by_email(rows)


# --- through the dashboard API: a UTF-16 Mailchimp export, dry run and import -----------------------------
@pytest.fixture
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


def test_a_mailchimp_export_in_utf16_is_imported(tenant, api, media, settings):
    settings.MEMBERS_IMPORT_BATCH = 2  # several batches
    data = codecs.BOM_UTF16_LE + (MAILCHIMP + 'zoe@example.com,Zoë,Ünal,1,"2022-01-01 00:00:00",,,,,,,,,,,,5,e5,,\n'
                                  ).replace(",", "\t").encode("utf-16-le")
    reply = api.post("/api/members/imports", {"file": SimpleUploadedFile("audience.txt", data)},
                     content_type=MULTIPART_CONTENT)
    assert reply.status_code == 201, reply.content
    job_id = reply.json()["job"]["id"]
    assert reply.json()["job"]["source"] == "mailchimp"
    with schema_context(tenant.schema_name):
        imports.member_import_analyse(job_id=job_id)
    job = api.get(f"/api/members/imports/{job_id}").json()["job"]
    assert job["encoding"] == "utf-16-le" and job["dryRun"]["created"] == 3
    api.post(f"/api/members/imports/{job_id}/start")
    with schema_context(tenant.schema_name):
        imports.member_import_run(job_id=job_id)
        assert Member.objects.get(email="zoe@example.com").name == "Zoë Ünal"
        ada = Member.objects.get(email="ada@example.com")
        assert sorted(ada.labels.values_list("name", flat=True)) == ["2020 launch", "vip"]
        assert ada.consent_at == datetime(2020, 2, 3, 10, 15, tzinfo=timezone.utc) and ada.source == "import"


def test_a_ghost_export_with_a_paid_member_says_so_in_the_dry_run_and_the_report(tenant, api, media):
    reply = api.post("/api/members/imports", {"file": SimpleUploadedFile("members.csv", GHOST_TIERS.encode())},
                     content_type=MULTIPART_CONTENT)
    job_id = reply.json()["job"]["id"]
    with schema_context(tenant.schema_name):
        imports.member_import_analyse(job_id=job_id)
    assert api.get(f"/api/members/imports/{job_id}").json()["job"]["remarks"] == [GHOST_PAID]
    api.post(f"/api/members/imports/{job_id}/start")
    with schema_context(tenant.schema_name):
        imports.member_import_run(job_id=job_id)
        assert dict(Member.objects.values_list("email", "status")) == {
            "free@example.com": "free", "paid@example.com": "comped", "comp@example.com": "comped",
            "lapsed@example.com": "free"}
    job = api.get(f"/api/members/imports/{job_id}").json()["job"]
    assert job["status"] == "completed" and job["remarks"] == [GHOST_PAID]


def test_a_run_that_died_goes_on_from_its_last_batch(tenant, api, media, settings):
    """The outbox sends the task again after a worker died mid-import: the batches written stay,
    the rest is written, the counts are the file's."""
    settings.MEMBERS_IMPORT_BATCH = 2
    data = (GHOST.splitlines(keepends=True)[0] + "".join(
        f"{n},r{n}@example.com,R{n},,true,false,,,,\n" for n in range(7))).encode()
    job_id = api.post("/api/members/imports", {"file": SimpleUploadedFile("m.csv", data)},
                      content_type=MULTIPART_CONTENT).json()["job"]["id"]
    with schema_context(tenant.schema_name):
        imports.member_import_analyse(job_id=job_id)
    api.post(f"/api/members/imports/{job_id}/start")
    calls = {"n": 0}
    real = imports._write

    def dies_on_the_third_batch(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 3:
            raise SystemExit("worker killed")
        return real(*args, **kwargs)

    with schema_context(tenant.schema_name):
        imports._write = dies_on_the_third_batch
        try:
            with pytest.raises(SystemExit):
                imports.member_import_run(job_id=job_id)
        finally:
            imports._write = real
        assert Member.objects.count() == 4  # two batches written
        imports.member_import_run(job_id=job_id)  # sent again
        assert Member.objects.count() == 7
    job = api.get(f"/api/members/imports/{job_id}").json()["job"]
    assert job["status"] == "completed" and job["result"]["created"] == 7 and job["result"]["rows"] == 7


def test_a_problem_row_keeps_its_line_number():
    data = (GHOST + "2,not-an-address,X,,true,false,,,,\n").encode()
    rows = rows_of(data)[1]
    [problem] = [row for row in rows if isinstance(row, RowProblem)]
    assert problem.line == 3 and problem.reason == "Not a valid email address"


def test_the_import_pass_is_the_formats_one_rule(tmp_path):
    """Every source name the dry run can report is one csvio knows (the dashboard shows its name)."""
    assert set(csvio.SOURCE_NAMES) == set(csvio.SOURCES)
