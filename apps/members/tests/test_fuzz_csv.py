"""Hostile members CSVs, generated (Hypothesis; budget as the import parsers' fuzzing,
apps/portability/tests/fuzzing.py: `make fuzz-import` runs these with FUZZ_EXAMPLES). Whatever
the bytes, the reader ends in a members CSV's rows or in one refusal (NotMembersCsv); every row
it yields is one a member can be made of, or a reported problem; every exported cell is safe
to open in a spreadsheet; the upload answers 201 or 400, never 500, whatever its file and its form's
labels; the members API answers 2xx, 400 or 409 to any name, note, labels and address."""
from __future__ import annotations

import codecs
import csv
import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test.client import MULTIPART_CONTENT
from django_tenants.utils import schema_context
from hypothesis import given
from hypothesis import strategies as st

from apps.core.text import xml_text
from apps.members import csvio
from apps.members.csvio import MemberRow, NotMembersCsv, RowProblem, read_members
from apps.members.models import Member, MemberImport
from apps.portability.tests.fuzzing import fuzz_settings, junk, odd_text

HEADERS = {
    "ghost": list(csvio.GHOST_COLUMNS),
    "substack": ["email", "active_subscription", "expiry", "plan", "email_disabled", "created_at", "first_payment_at"],
    "mailchimp": ["Email Address", "First Name", "Last Name", "MEMBER_RATING", "OPTIN_TIME", "CONFIRM_TIME", "NOTES",
                  "TAGS", "UNSUB_TIME", "CLEAN_TIME"],
    "csv": ["email", "name", "note", "labels", "subscribed"],
}
ENCODINGS = ("utf-8", "utf-8-sig", "utf-16", "utf-16-le", "utf-16-be", "cp1252")

# 312 characters Django's validate_email accepts (up to 320) and no email column holds (254).
LONG_ADDRESS = "a" * 64 + "@" + ".".join(["b" * 60] * 4) + ".com"
addresses = st.one_of(st.emails().map(str), st.sampled_from(["", "not-an-address", "a@b", "@", "A@EXAMPLE.COM ",
                                                             "x" * 300 + "@example.com", LONG_ADDRESS]))

cells = st.one_of(odd_text, st.sampled_from(["true", "false", "", "comp", "yearly", "2023-01-15T10:00:00.000Z",
                                             "2020-02-03 10:11:12", "9999-99-99", "=cmd|' /C calc'!A0",
                                             '"vip","x"', "a,b,c", "\r\n", "\x00", LONG_ADDRESS]),
                  st.text(max_size=300), addresses)


def check_rows(found) -> list:
    """Every row is a member's or a problem, with text PostgreSQL and XML can hold."""
    rows = []
    for row in found.rows:
        assert isinstance(row, (MemberRow, RowProblem)), row
        if isinstance(row, MemberRow):
            assert "@" in row.email and row.email == row.email.lower().strip() and len(row.email) <= 254
            assert len(row.name) <= csvio.NAME_MAX and len(row.note) <= csvio.NOTE_MAX
            assert len(row.labels) <= csvio.MAX_LABELS and all(0 < len(label) <= csvio.LABEL_MAX for label in row.labels)
            for value in (row.email, row.name, row.note, row.disabled_reason, *row.labels):
                assert xml_text(value) == value  # no NUL, no lone surrogate, nothing XML forbids
        else:
            assert row.line >= 2 and row.reason
        rows.append(row)
    return rows


@fuzz_settings(300)
@given(st.binary(max_size=2000))
def test_any_bytes_are_rows_or_one_refusal(data):
    try:
        found = read_members(io.BytesIO(data))
    except NotMembersCsv:
        return
    check_rows(found)


@fuzz_settings(300)
@given(source=st.sampled_from(sorted(HEADERS)), encoding=st.sampled_from(ENCODINGS),
       delimiter=st.sampled_from([",", ";", "\t"]), data=st.data())
def test_exports_of_each_service_with_odd_cells(source, encoding, delimiter, data):
    header = HEADERS[source]
    rows = data.draw(st.lists(st.lists(cells, min_size=0, max_size=len(header) + 2), max_size=6))
    planted = data.draw(st.emails().map(str))
    rows.append([planted] + ["x"] * (len(header) - 1))
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=delimiter)
    writer.writerow(header)
    for row in rows:
        writer.writerow(row)
    found = read_members(io.BytesIO(buffer.getvalue().encode(encoding, errors="replace")))
    assert found.source == source
    got = check_rows(found)
    if encoding != "cp1252" and planted.isascii():
        emails = [row.email for row in got if isinstance(row, MemberRow)]
        if source != "ghost":  # Ghost's last row may be a deleted member (its deleted_at is "x")
            assert planted.strip().lower() in emails or any(
                isinstance(row, RowProblem) and row.reason == "Not a valid email address" for row in got)


@fuzz_settings(500)
@given(st.text())
def test_an_exported_cell_never_starts_a_formula(value):
    cell = csvio.neutralise(value)
    assert not cell.startswith(("=", "+", "-", "@", "\t", "\r"))
    [line] = list(csvio.csv_lines([[value, "x"]]))
    assert next(csv.reader(io.StringIO(line)))[0] == cell


@pytest.fixture
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


@fuzz_settings(25, share=0.1)
@given(data=st.one_of(st.binary(max_size=600), st.sampled_from([codecs.BOM_UTF8, codecs.BOM_UTF16_LE, b"email\n",
                                                                b'"Email Address"\r\n\x00'])))
def test_an_upload_is_201_or_400_never_500(api, tenant, media, data):
    reply = api.post("/api/members/imports", {"file": SimpleUploadedFile("m.csv", data)},
                     content_type=MULTIPART_CONTENT)
    assert reply.status_code in (201, 400), reply.content
    with schema_context(tenant.schema_name):
        MemberImport.objects.update(active=None)  # the next example may upload again


# Text a form or a body may carry: long, on several lines, with NUL and other controls, commas.
_NO_SURROGATE = st.characters(exclude_categories=("Cs",))  # a form's text is UTF-8: it cannot hold one
hostile_text = st.one_of(
    odd_text, st.text(_NO_SURROGATE, max_size=300),
    st.lists(st.text(_NO_SURROGATE, max_size=250), max_size=120).map(",".join),
    st.sampled_from(["", " , ,", "\r\n", "vip\r\nBcc: x@example.com", "\x00", "a" * 192, "a" * 2001,
                     ",".join(f"l{n}" for n in range(101)), ",".join(["x" * 191] * 100)]),
    st.integers(1, 5000).map(lambda n: "x" * n))


@fuzz_settings(25, share=0.1)
@given(labels=hostile_text.map(lambda value: "".join(ch for ch in value if not "\ud800" <= ch <= "\udfff")))
def test_the_uploads_labels_are_201_or_400_never_500(api, tenant, media, labels):
    reply = api.post("/api/members/imports", {"file": SimpleUploadedFile("m.csv", b"email\na@example.com\n"),
                                              "labels": labels}, content_type=MULTIPART_CONTENT)
    assert reply.status_code in (201, 400), reply.content
    if reply.status_code == 201:
        assert all(0 < len(name) <= csvio.LABEL_MAX and "," not in name for name in reply.json()["job"]["labels"])
        assert len(reply.json()["job"]["labels"]) <= 100
    with schema_context(tenant.schema_name):
        MemberImport.objects.update(active=None)


@fuzz_settings(25, share=0.1)
@given(email=addresses, name=st.one_of(hostile_text, junk), note=st.one_of(hostile_text, junk),
       labels=st.one_of(st.lists(hostile_text, max_size=120), junk), change=st.booleans())
def test_the_members_api_answers_any_name_note_labels_and_address_without_500(api, tenant, email, name, note, labels,
                                                                             change):
    body = {"email": email, "name": name, "note": note, "labels": labels}
    if change:
        with schema_context(tenant.schema_name):
            member = Member.objects.first() or Member.objects.create(email="fuzz@example.com")
        reply = api.put(f"/api/members/{member.pk}", body)
    else:
        reply = api.post("/api/members", body)
    assert reply.status_code in (200, 201, 400, 409), reply.content
    if reply.status_code in (200, 201):
        member = reply.json()["member"]
        assert len(member["email"]) <= 254 and len(member["name"]) <= 191 and len(member["note"]) <= 2000
        assert all(0 < len(label["name"]) <= 191 for label in member["labels"])
