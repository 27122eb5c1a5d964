"""The members API's bodies (dashboard: docs/members.md#dashboard-api)."""
from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import AfterValidator, BeforeValidator, Field, StrictBool, field_validator

from apps.core.schemas import InSchema, OutSchema, PaginationOut, SuccessOut
from apps.core.validation import Email, OptionalEmail, clean_min_length, text
from apps.members.fields import Ids, clean_ids
from apps.members.models import NAME_MAX, NOTE_MAX, Label, Member

NAME_TOO_LONG = f"Name must be at most {NAME_MAX} characters"
NOTE_TOO_LONG = f"Note must be at most {NOTE_MAX} characters"
LABEL_REQUIRED = "Label name is required"
LABEL_TOO_LONG = f"Label names must be at most {NAME_MAX} characters"
TOO_MANY_LABELS = "At most 100 labels"


def _name(value) -> str:
    return clean_min_length(value, 0, NAME_TOO_LONG, maximum=NAME_MAX, too_long=NAME_TOO_LONG)


def _optional(clean):
    return lambda value: None if value is None else clean(value)


def _note(value) -> str:
    return clean_min_length(value, 0, NOTE_TOO_LONG, maximum=NOTE_MAX, too_long=NOTE_TOO_LONG)


def _label_name(value) -> str:
    return " ".join(clean_min_length(value, 1, LABEL_REQUIRED, maximum=NAME_MAX, too_long=LABEL_TOO_LONG).split())


def _label_names(value) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise ValueError("Labels must be a list of names")
    if len(value) > 100:
        raise ValueError(TOO_MANY_LABELS)
    return [_label_name(item) for item in value]


STATUS_MESSAGE = "Status must be free or comped"


def _status(value) -> str:
    if value not in ("free", "comped"):
        raise ValueError(STATUS_MESSAGE)
    return value


Status = Annotated[Literal["free", "comped"], BeforeValidator(_status)]
MemberName = Annotated[str, BeforeValidator(_name)]
MemberNote = Annotated[str, BeforeValidator(_note)]
LabelName = Annotated[str, BeforeValidator(_label_name)]
LabelNames = Annotated[list[str], BeforeValidator(_label_names)]


class MemberIn(InSchema):
    email: Email
    name: MemberName = ""
    note: MemberNote = ""
    status: Status = "free"
    labels: LabelNames = Field(default_factory=list, description="Label names (made when new)")
    newsletters: Ids | None = Field(None, description="Newsletter ids; left out: the default newsletters")


class MemberUpdateIn(InSchema):
    """Every field optional: what is left out stays as it is."""

    email: OptionalEmail = None
    name: Annotated[str | None, BeforeValidator(_optional(_name))] = None
    note: Annotated[str | None, BeforeValidator(_optional(_note))] = None
    status: Annotated[Literal["free", "comped"] | None, BeforeValidator(_optional(_status))] = None
    emailDisabled: StrictBool | None = Field(None, description="false: send to the address again (clears the reason)")
    labels: Annotated[list[str] | None, BeforeValidator(_optional(_label_names))] = None
    newsletters: Annotated[list[str] | None, BeforeValidator(_optional(clean_ids))] = None

    @field_validator("emailDisabled")
    @classmethod
    def _only_clear(cls, value):
        if value is True:
            raise ValueError("Only the email provider disables an address; send false to enable it again")
        return value


def _label_list(value) -> str:
    """The upload form's labels: names separated by commas, under LabelNames' rule (at most 100, each
    at most NAME_MAX characters); kept as the tidied names, comma-separated (a name holds no comma)."""
    names = text(value, "Labels must be names separated by commas").split(",")
    return ",".join(_label_names([name for name in names if name.strip()]))


class ImportForm(InSchema):
    labels: Annotated[str, AfterValidator(_label_list)] = ""  # names, comma-separated: given to every imported member

    def label_names(self) -> list[str]:
        return [name for name in self.labels.split(",") if name]


class LabelIn(InSchema):
    name: LabelName = ""


class BulkLabelIn(InSchema):
    memberIds: Ids
    add: LabelNames = Field(default_factory=list, description="Label names to add (made when new)")
    remove: Ids = Field(default_factory=list, description="Label ids to take off")


class LabelOut(OutSchema):
    id: str
    name: str

    @staticmethod
    def of(label: Label) -> "LabelOut":
        return LabelOut(id=str(label.id), name=label.name)


class LabelCountOut(LabelOut):
    members: int


class MemberNewsletterOut(OutSchema):
    id: str
    name: str


class MemberOut(OutSchema):
    id: str
    email: str
    name: str
    note: str
    status: Literal["free", "comped"]
    emailDisabled: bool
    emailDisabledReason: str
    source: Literal["website", "import", "admin"]
    consentAt: datetime | None
    consentIp: str | None
    labels: list[LabelOut]
    newsletters: list[MemberNewsletterOut]
    createdAt: datetime
    updatedAt: datetime

    @staticmethod
    def of(member: Member) -> "MemberOut":
        return MemberOut(
            id=str(member.id), email=member.email, name=member.name, note=member.note, status=member.status,
            emailDisabled=member.email_disabled, emailDisabledReason=member.email_disabled_reason,
            source=member.source, consentAt=member.consent_at, consentIp=member.consent_ip,
            labels=[LabelOut.of(label) for label in member.labels.all()],
            newsletters=[MemberNewsletterOut(id=str(n.id), name=n.name) for n in member.newsletters.all()],
            createdAt=member.created_at, updatedAt=member.updated_at)


class MemberReplyOut(SuccessOut):
    member: MemberOut


class MemberSavedOut(MemberReplyOut):
    message: str


class MemberListOut(SuccessOut):
    members: list[MemberOut]
    pagination: PaginationOut


class LabelListOut(SuccessOut):
    labels: list[LabelCountOut]


class LabelSavedOut(SuccessOut):
    message: str
    label: LabelOut


class BulkLabelOut(SuccessOut):
    message: str
    updated: int


class ImportCountsOut(OutSchema):
    rows: int  # lines with a member (blank lines not counted)
    created: int
    updated: int  # already members: labels and subscriptions added, empty fields filled
    duplicates: int  # the same address again further down the file
    skipped: int  # left out on purpose (a member deleted in Ghost)
    invalid: int  # not an address, or an unreadable line


class ImportProblemOut(OutSchema):
    line: int
    email: str
    reason: str


class MemberImportOut(OutSchema):
    id: str
    source: str  # ghost, substack, mailchimp, csv ("" until the dry run has read the header)
    encoding: str
    fileName: str
    fileSize: int
    status: Literal["analysing", "analysed", "queued", "running", "completed", "failed"]
    labels: list[str]
    rowsRead: int
    dryRun: ImportCountsOut | None  # what the import would do
    result: ImportCountsOut | None  # what it did
    problems: list[ImportProblemOut]  # the first lines left out, with why (at most 100)
    remarks: list[str]  # what was changed on the way in (e.g. paid Substack subscribers come in comped)
    error: str
    createdAt: datetime
    startedAt: datetime | None
    finishedAt: datetime | None


class MemberImportReplyOut(SuccessOut):
    job: MemberImportOut


class MemberImportStartIn(InSchema):
    pass
