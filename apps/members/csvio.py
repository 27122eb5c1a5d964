"""Members CSV files in and out (docs/members.md: Moving your list). A file from outside is hostile:
it is read as a stream (a million rows never sit in memory), in whatever encoding it came in, and
each row is checked on its own; a row that cannot be read is reported, never an error of the whole
file (a file that is not a members CSV at all is one 400).

Reading: `open_text` finds the encoding (a byte order mark: UTF-8, UTF-16 LE/BE; else UTF-8 when
the first 64 KB decode as UTF-8, UTF-16 without a mark when every other byte of the start is NUL,
else Windows-1252); `read_members` finds the format from the header row (Ghost's members export,
Substack's subscribers export, Mailchimp's audience export, or any CSV with an email column) and
yields one `MemberRow` (or `RowProblem`) per line.

Writing: `export_rows` yields Ghost's members CSV, with every cell that a spreadsheet would run as
a formula (starting with = + - @, a tab or a carriage return) neutralised by a leading apostrophe.
"""
from __future__ import annotations

import codecs
import csv
import io
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timezone

from apps.core.text import xml_text
from apps.core.validation import clean_email

SAMPLE_BYTES = 64 * 1024
MAX_COLUMNS = 200
MAX_CELL = 64 * 1024  # characters of the header line read (a cell's limit is the csv module's, 128 KB)
MAX_LABELS = 50  # per row
NAME_MAX, NOTE_MAX, LABEL_MAX, REASON_MAX = 191, 2000, 191, 500

GHOST, SUBSTACK, MAILCHIMP, GENERIC = "ghost", "substack", "mailchimp", "csv"
SOURCES = (GHOST, SUBSTACK, MAILCHIMP, GENERIC)
SOURCE_NAMES = {GHOST: "Ghost", SUBSTACK: "Substack", MAILCHIMP: "Mailchimp", GENERIC: "CSV"}

# Ghost's members export, in its order (what we write, and what Ghost's importer reads).
GHOST_COLUMNS = ("id", "email", "name", "note", "subscribed_to_emails", "complimentary_plan", "stripe_customer_id",
                 "created_at", "deleted_at", "labels")

NOT_CSV = ("This file is not a members CSV: its first line must name the columns, one of them the email "
           "(Ghost: email; Substack: email; Mailchimp: Email Address)")


class NotMembersCsv(ValueError):
    pass


@dataclass(frozen=True)
class MemberRow:
    line: int
    email: str
    name: str = ""
    note: str = ""
    subscribed: bool = True
    comped: bool = False
    labels: tuple[str, ...] = ()
    created_at: datetime | None = None
    consent_at: datetime | None = None
    email_disabled: bool = False
    disabled_reason: str = ""
    remarks: tuple[str, ...] = field(default=())  # what was changed on the way in (a paid plan -> comped)


@dataclass(frozen=True)
class RowProblem:
    line: int
    reason: str
    email: str = ""
    skipped: bool = False  # left out on purpose (a deleted member), not an error


# --- encodings ---------------------------------------------------------------------------------------
def sniff_encoding(sample: bytes) -> tuple[str, int]:
    """(codec, bytes of byte order mark to skip) for a file starting with `sample`."""
    if sample.startswith(codecs.BOM_UTF8):
        return "utf-8", 3
    if sample.startswith(codecs.BOM_UTF16_LE):
        return "utf-16-le", 2
    if sample.startswith(codecs.BOM_UTF16_BE):
        return "utf-16-be", 2
    head = sample[:4096]
    if len(head) >= 4:
        even, odd = head[0::2], head[1::2]
        if odd.count(0) > len(odd) * 0.6 and even.count(0) < len(even) * 0.1:
            return "utf-16-le", 0
        if even.count(0) > len(even) * 0.6 and odd.count(0) < len(odd) * 0.1:
            return "utf-16-be", 0
    try:
        codecs.getincrementaldecoder("utf-8")().decode(sample, final=len(sample) < SAMPLE_BYTES)
        return "utf-8", 0
    except UnicodeDecodeError:
        return "cp1252", 0


class _Peeked(io.RawIOBase):
    """A binary stream whose first bytes were read already (to sniff them) and are given back."""

    def __init__(self, head: bytes, rest):
        self._head, self._rest = head, rest

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        if self._head:
            n = min(len(buffer), len(self._head))
            buffer[:n], self._head = self._head[:n], self._head[n:]
            return n
        data = self._rest.read(len(buffer))
        n = len(data)
        buffer[:n] = data
        return n


def open_text(binary) -> tuple[io.TextIOBase, str]:
    """A text stream over the binary stream `binary` in its own encoding, and that encoding.
    Bytes that are not text in it are replaced (U+FFFD), never an error."""
    head = binary.read(SAMPLE_BYTES)
    codec, skip = sniff_encoding(head)
    raw = io.BufferedReader(_Peeked(head[skip:], binary), buffer_size=SAMPLE_BYTES)
    return io.TextIOWrapper(raw, encoding=codec, errors="replace", newline=""), codec


# --- cells ---------------------------------------------------------------------------------------------
_TRUE = {"true", "1", "yes", "y", "t", "subscribed"}


def _text(value: str | None, limit: int) -> str:
    """A cell as text PostgreSQL (and XML) can hold: NUL and the other forbidden characters out;
    a short field on one line."""
    value = xml_text(value or "")
    return " ".join(value.split())[:limit] if limit <= NAME_MAX else value.strip()[:limit]


def _flag(value: str | None) -> bool:
    return (value or "").strip().lower() in _TRUE


_DATE_FORMATS = ("%Y-%m-%dT%H:%M:%S.%fZ", "%Y-%m-%dT%H:%M:%SZ", "%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M:%S",
                 "%Y-%m-%d %H:%M", "%Y-%m-%d", "%m/%d/%Y %H:%M", "%m/%d/%Y")


def _date(value: str | None) -> datetime | None:
    """An instant as the exports write them (ISO 8601 with or without a zone, Mailchimp's
    "2024-01-31 10:00:00"); UTC when no zone is given; None when unreadable or absurd."""
    text = (value or "").strip()
    if not text or len(text) > 40:
        return None
    found = None
    try:
        found = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        for fmt in _DATE_FORMATS:
            try:
                found = datetime.strptime(text, fmt)
                break
            except ValueError:
                continue
    if found is None or not 1990 <= found.year <= 2200:
        return None
    return found.replace(tzinfo=timezone.utc) if found.tzinfo is None else found.astimezone(timezone.utc)


def _labels(value: str | None, *, quoted: bool = False) -> tuple[str, ...]:
    """Labels of one cell: comma-separated (Ghost, a generic file); Mailchimp's TAGS are quoted
    names separated by commas (`"vip","2024 launch"`)."""
    text = value or ""
    if quoted and '"' in text:
        parts = re.findall(r'"((?:[^"]|"")*)"', text)
        parts = [part.replace('""', '"') for part in parts]
    else:
        parts = text.split(",")
    seen: dict[str, str] = {}
    for part in parts:
        name = _text(part, LABEL_MAX)
        if name and name.lower() not in seen:
            seen[name.lower()] = name
        if len(seen) >= MAX_LABELS:
            break
    return tuple(seen.values())


# --- formats ---------------------------------------------------------------------------------------------
def detect_source(header: list[str]) -> str:
    names = {name.strip().lower() for name in header}
    if "email address" in names:
        return MAILCHIMP
    if "email" not in names:
        raise NotMembersCsv(NOT_CSV)
    if names & {"subscribed_to_emails", "complimentary_plan", "stripe_customer_id", "deleted_at"}:
        return GHOST
    if names & {"active_subscription", "expiry", "email_disabled"}:
        return SUBSTACK
    return GENERIC


def _row_dict(header: list[str], cells: list[str]) -> dict[str, str]:
    return {name: cells[i] if i < len(cells) else "" for i, name in enumerate(header)}


# The common shape of an address (a subset of what clean_email accepts, checked without it: a
# million rows); anything else goes through clean_email, the one rule.
_PLAIN_EMAIL = re.compile(r"[a-z0-9!#$%&'*+/=?^_`{|}~-]{1,64}(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]{1,64})*"
                          r"@(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}")


def _email(value: str) -> str:
    """The address of a cell, lower case; ValueError for anything that is not one address."""
    plain = (value or "").strip().lower()
    if len(plain) <= 254 and _PLAIN_EMAIL.fullmatch(plain) and len(plain.split("@")[0]) <= 64:
        return plain
    return clean_email(value)


GHOST_PAID = "A paid Ghost member: comes in as a complimentary member (no payments here)"


def _ghost_plan(row: dict) -> tuple[bool, bool]:
    """(comped, paid) of a Ghost row. A `status` column (free, paid, comped) decides when the file has
    one; else `complimentary_plan`, then the member's tiers (`tiers`, Ghost 4's `products`: a paid
    member's tier; a subscription that ended leaves none, and its `stripe_customer_id`); a file with
    neither (Ghost 3) counts a Stripe customer as paying."""
    status = (row.get("status") or "").strip().lower()
    if status:
        return status in ("comped", "complimentary"), status == "paid"
    if _flag(row.get("complimentary_plan")):
        return True, False
    tiers = row.get("tiers", row.get("products"))
    if tiers is not None:
        return False, bool(tiers.strip())
    return False, bool((row.get("stripe_customer_id") or "").strip())


def _ghost(line: int, row: dict) -> MemberRow | RowProblem:
    email = row.get("email", "")
    if (row.get("deleted_at") or "").strip():
        return RowProblem(line, "Deleted in Ghost: left out", email=email[:254], skipped=True)
    subscribed = row.get("subscribed_to_emails", row.get("subscribed", "true"))
    comped, paid = _ghost_plan(row)
    return MemberRow(
        line=line, email=_email(email), name=_text(row.get("name"), NAME_MAX), note=_text(row.get("note"), NOTE_MAX),
        subscribed=_flag(subscribed) if subscribed.strip() else True, comped=comped or paid,
        labels=_labels(row.get("labels")), created_at=_date(row.get("created_at")),
        remarks=(GHOST_PAID,) if paid else ())


_SUBSTACK_PAID = {"monthly", "yearly", "annual", "founding", "paid"}


def _substack(line: int, row: dict) -> MemberRow:
    plan = (row.get("plan") or "").strip().lower()
    disabled = _flag(row.get("email_disabled"))
    remarks = ()
    comped = plan in {"comp", "comped", "complimentary", "gift"}
    if plan in _SUBSTACK_PAID or _flag(row.get("active_subscription")):
        comped = True
        remarks = ("A paid Substack subscriber: comes in as a complimentary member (no payments here)",)
    return MemberRow(
        line=line, email=_email(row.get("email", "")), name=_text(row.get("name"), NAME_MAX), subscribed=not disabled,
        comped=comped, created_at=_date(row.get("created_at")), email_disabled=disabled,
        disabled_reason="Email disabled in Substack (bounced or complained)" if disabled else "", remarks=remarks)


def _mailchimp(line: int, row: dict) -> MemberRow:
    lower = {key.strip().lower(): value for key, value in row.items()}
    name = " ".join(part for part in (_text(lower.get("first name"), NAME_MAX), _text(lower.get("last name"), NAME_MAX))
                    if part)[:NAME_MAX]
    cleaned = bool((lower.get("clean_time") or "").strip())
    unsubscribed = bool((lower.get("unsub_time") or "").strip())
    consent = _date(lower.get("confirm_time")) or _date(lower.get("optin_time"))
    return MemberRow(
        line=line, email=_email(lower.get("email address", "")), name=name, note=_text(lower.get("notes"), NOTE_MAX),
        subscribed=not (cleaned or unsubscribed),
        labels=_labels(lower.get("tags"), quoted=True), created_at=_date(lower.get("optin_time")) or consent,
        consent_at=consent, email_disabled=cleaned,
        disabled_reason="Cleaned in Mailchimp (the address bounced)" if cleaned else "")


def _generic(line: int, row: dict) -> MemberRow:
    lower = {key.strip().lower(): value for key, value in row.items()}
    subscribed = lower.get("subscribed", lower.get("subscribed_to_emails", ""))
    return MemberRow(
        line=line, email=_email(lower.get("email", "")), name=_text(lower.get("name"), NAME_MAX),
        note=_text(lower.get("note"), NOTE_MAX), subscribed=_flag(subscribed) if subscribed.strip() else True,
        labels=_labels(lower.get("labels")), created_at=_date(lower.get("created_at")))


_READERS = {GHOST: _ghost, SUBSTACK: _substack, MAILCHIMP: _mailchimp, GENERIC: _generic}


@dataclass
class MembersCsv:
    """An opened members CSV: its format, encoding and rows (read once, as a stream)."""

    source: str
    encoding: str
    header: list[str]
    rows: Iterator[MemberRow | RowProblem]


def _cells(reader) -> Iterator[tuple[int, list[str] | None, str]]:
    """(line, cells, error) of each record (lines counted from the header's, line 1); a record the
    csv module refuses is an error, and reading goes on with the next line."""
    while True:
        try:
            cells = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            yield reader.line_num + 1, None, f"Unreadable line: {exc}"
            continue
        yield reader.line_num + 1, cells, ""


DELIMITERS = (",", ";", "\t")


def _delimiter(line: str) -> str:
    """The separator of a header line: the one of , ; TAB found most often outside quotes (Excel
    writes ; where the decimal mark is a comma, and TAB in its UTF-16 "Unicode text")."""
    outside = re.sub(r'"[^"]*"', "", line)
    counts = {delimiter: outside.count(delimiter) for delimiter in DELIMITERS}
    best = max(counts, key=counts.get)
    return best if counts[best] else ","


def read_members(binary) -> MembersCsv:
    """Open a members CSV (a binary stream). NotMembersCsv when its first line names no email column."""
    text, encoding = open_text(binary)
    first = text.readline(MAX_CELL)
    if not first.strip():
        raise NotMembersCsv(NOT_CSV)
    delimiter = _delimiter(first)
    try:
        header = next(csv.reader([first], delimiter=delimiter, strict=False))
    except (StopIteration, csv.Error) as exc:
        raise NotMembersCsv(NOT_CSV) from exc
    reader = csv.reader(text, delimiter=delimiter, strict=False)
    header = [_text(name, 100) for name in header[:MAX_COLUMNS]]
    if header and header[0].startswith("\ufeff"):
        header[0] = header[0][1:]
    source = detect_source(header)
    keys = [name.strip().lower() for name in header] if source in (GHOST, SUBSTACK) else header
    read = _READERS[source]

    def rows() -> Iterator[MemberRow | RowProblem]:
        for line, cells, error in _cells(reader):
            if cells is None:
                yield RowProblem(line, error)
                continue
            if not any(cell.strip() for cell in cells):
                continue  # a blank line
            row = _row_dict(keys, cells[:MAX_COLUMNS])
            try:
                yield read(line, row)
            except ValueError:
                email = next((v for k, v in row.items() if k.strip().lower() in ("email", "email address")), "")
                yield RowProblem(line, "Not a valid email address", email=_text(email, 254))

    return MembersCsv(source=source, encoding=encoding, header=header, rows=rows())


# --- export ---------------------------------------------------------------------------------------------
_FORMULA = ("=", "+", "-", "@", "\t", "\r")


def neutralise(value: str) -> str:
    """A cell a spreadsheet shows as text, never runs: a leading = + - @ tab or CR gets an apostrophe."""
    return "'" + value if value.startswith(_FORMULA) else value


class _Line:
    def __init__(self):
        self.value = ""

    def write(self, text: str) -> None:
        self.value = text


def csv_lines(rows: Iterable[Iterable[str]]) -> Iterator[str]:
    """Each row as one CSV line (quoted as needed), every cell neutralised."""
    buffer = _Line()
    writer = csv.writer(buffer, lineterminator="\r\n")
    for row in rows:
        writer.writerow([neutralise(str(cell)) for cell in row])
        yield buffer.value
