"""Members on the dashboard API (docs/members.md#dashboard-api): every role reads them (members.read);
editors and admins add, change, label, import, export and delete them (members.manage).

GET    members                     search, label, status, newsletter (an id or "none"), emailDisabled,
                                   page, limit (<= 100)
POST   members                     add one (201)
GET    members/{id}                one member
PUT    members/{id}                change the fields given
DELETE members/{id}
POST   members/bulk/labels         add labels (by name) to, or take labels (by id) off, up to 1000 members
GET    members/labels              the labels with their member counts
POST   members/labels              a new label (201)
PUT    members/labels/{id}         rename
DELETE members/labels/{id}         the label goes (its members stay)
POST   members/imports             upload a CSV (Ghost, Substack, Mailchimp, any with an email column): 201,
                                   its dry run runs in the background
GET    members/imports/{id}        the job: dry run, progress, report
POST   members/imports/{id}/start  import it (202)
GET    members/export              a link to the CSV (Ghost's format) of the members the filters name
"""
from __future__ import annotations

from django.db import transaction
from ninja import File, Form, Query, Router, Schema
from ninja.files import UploadedFile

from apps.core.pagination import page_params
from apps.core.permissions import requires
from apps.core.schemas import MessageOut, PaginationOut, SuccessOut
from apps.core.selectors import as_uuid, paginate
from apps.members import exporting, imports, selectors, services
from apps.members.schemas import (BulkLabelIn, BulkLabelOut, ImportCountsOut, ImportForm, ImportProblemOut,
                                  LabelCountOut, LabelIn, LabelListOut, LabelOut, LabelSavedOut, MemberImportOut,
                                  MemberImportReplyOut, MemberIn, MemberListOut, MemberOut, MemberReplyOut,
                                  MemberSavedOut, MemberUpdateIn)

router = Router(tags=["members"])
CANNOT_MANAGE = "Only editors and administrators can manage members"
CANNOT_READ = "You don't have permission to see members"


class MembersFilterQuery(Schema):
    """The filters of the list and of the export (the export takes every member they name: no page)."""

    search: str = ""
    label: str = ""
    status: str = ""
    newsletter: str = ""
    emailDisabled: bool | None = None

    def wanted(self) -> selectors.MemberFilter:
        return selectors.MemberFilter(search=self.search.strip()[:200], label=self.label.strip(),
                                      status=self.status.strip(), newsletter=self.newsletter.strip(),
                                      email_disabled=self.emailDisabled)


class MembersQuery(MembersFilterQuery):
    page: int | None = None
    limit: int | None = None


@router.get("", response=MemberListOut)
@requires("members.read", CANNOT_READ)
def list_members(request, query: Query[MembersQuery]):
    params = page_params(query.page, query.limit, default_limit=20, max_limit=100)
    members, total = paginate(selectors.member_list(query.wanted()), params)
    return MemberListOut(members=[MemberOut.of(m) for m in members], pagination=PaginationOut(**params.meta(total)))


@router.post("", response={201: MemberSavedOut})
@requires("members.manage", CANNOT_MANAGE)
def create_member(request, payload: MemberIn):
    member = services.member_create(email=payload.email, name=payload.name, note=payload.note, status=payload.status,
                                    labels=payload.labels, newsletter_ids=payload.newsletters, actor=request.auth)
    return 201, MemberSavedOut(message="Member added", member=MemberOut.of(selectors.member_get(member.pk)))


@router.post("/bulk/labels", response=BulkLabelOut)
@requires("members.manage", CANNOT_MANAGE)
def label_members(request, payload: BulkLabelIn):
    """Add labels (names; made when new) to these members, take labels (ids) off them."""
    services.bulk_ids_check(payload.memberIds)
    updated = services.members_label(member_ids=[i for i in map(as_uuid, payload.memberIds) if i],
                                     add=payload.add, remove=[i for i in map(as_uuid, payload.remove) if i],
                                     actor=request.auth)
    return BulkLabelOut(message=f"Labels changed on {updated} members", updated=updated)


@router.get("/labels", response=LabelListOut)
@requires("members.read", CANNOT_READ)
def list_labels(request):
    return LabelListOut(labels=[LabelCountOut(id=str(label.id), name=label.name, members=label.member_count)
                                for label in selectors.label_list()])


@router.post("/labels", response={201: LabelSavedOut})
@requires("members.manage", CANNOT_MANAGE)
def create_label(request, payload: LabelIn):
    label = services.label_create(name=payload.name)
    return 201, LabelSavedOut(message="Label created", label=LabelOut.of(label))


@router.put("/labels/{label_id}", response=LabelSavedOut)
@requires("members.manage", CANNOT_MANAGE)
def update_label(request, label_id: str, payload: LabelIn):
    label = services.label_update(label=selectors.label_get(label_id), name=payload.name)
    return LabelSavedOut(message="Label renamed", label=LabelOut.of(label))


@router.delete("/labels/{label_id}", response=MessageOut)
@requires("members.manage", CANNOT_MANAGE)
def delete_label(request, label_id: str):
    services.label_delete(label=selectors.label_get(label_id))
    return MessageOut(message="Label deleted")


# --- import and export ---------------------------------------------------------------------------------
def _counts(counts: dict | None) -> ImportCountsOut | None:
    if not counts:
        return None
    return ImportCountsOut(**{name: int(counts.get(name) or 0) for name in imports.COUNTS})


def _job_out(job) -> MemberImportOut:
    dry, done = job.plan or {}, job.report or {}
    shown = done if done.get("counts") else dry
    return MemberImportOut(
        id=str(job.id), source=job.source, encoding=dry.get("encoding", ""), fileName=job.file_name,
        fileSize=job.file_size, status=job.status, labels=list(job.labels or []), rowsRead=job.done,
        dryRun=_counts(dry.get("counts")), result=_counts(done.get("counts")) if job.status == "completed" else None,
        problems=[ImportProblemOut(**p) for p in shown.get("problems", [])], remarks=list(shown.get("remarks", [])),
        error=job.error, createdAt=job.created_at, startedAt=job.started_at, finishedAt=job.finished_at)


@router.post("/imports", response={201: MemberImportReplyOut})
@requires("members.manage", CANNOT_MANAGE)
def upload_import(request, form: Form[ImportForm], file: File[UploadedFile] = None):
    """Upload a members CSV (at most MEMBERS_IMPORT_MAX_BYTES); its dry run starts in the background:
    poll the job until `status` is analysed."""
    job = imports.member_import_upload(actor=request.auth, uploaded=file, labels=form.label_names())
    return 201, MemberImportReplyOut(job=_job_out(job))


@router.get("/imports/{job_id}", response=MemberImportReplyOut)
@requires("members.manage", CANNOT_MANAGE)
def get_import(request, job_id: str):
    return MemberImportReplyOut(job=_job_out(imports.member_import_get(job_id)))


@router.post("/imports/{job_id}/start", response={202: MemberImportReplyOut})
@requires("members.manage", CANNOT_MANAGE)
def start_import(request, job_id: str):
    job = imports.member_import_start(job_id=job_id)
    return 202, MemberImportReplyOut(job=_job_out(job))


class ExportOut(SuccessOut):
    url: str  # the CSV's address: valid MEMBERS_EXPORT_LINK_SECONDS, no sign-in needed
    fileName: str


@router.get("/export", response=ExportOut)
@requires("members.manage", CANNOT_MANAGE)
def export_members(request, query: Query[MembersFilterQuery]):
    """A link to the CSV (Ghost's members format) of the members the list's filters name."""
    wanted = query.wanted()
    selectors.member_list(wanted)  # the filters' 400s now, not in the download
    return ExportOut(url=exporting.export_link(wanted), fileName="members.csv")


# --- one member (after the fixed paths) ----------------------------------------------------------------
@router.get("/{member_id}", response=MemberReplyOut)
@requires("members.read", CANNOT_READ)
def get_member(request, member_id: str):
    return MemberReplyOut(member=MemberOut.of(selectors.member_get(member_id)))


@router.put("/{member_id}", response=MemberSavedOut)
@requires("members.manage", CANNOT_MANAGE)
def update_member(request, member_id: str, payload: MemberUpdateIn):
    with transaction.atomic():
        member = services.member_update(
            member=selectors.member_get(member_id), actor=request.auth, email=payload.email, name=payload.name,
            note=payload.note, status=payload.status, email_disabled=payload.emailDisabled, labels=payload.labels,
            newsletter_ids=payload.newsletters)
    return MemberSavedOut(message="Member updated", member=MemberOut.of(selectors.member_get(member.pk)))


@router.delete("/{member_id}", response=MessageOut)
@requires("members.manage", CANNOT_MANAGE)
def delete_member(request, member_id: str):
    services.member_delete(member=selectors.member_get(member_id), actor=request.auth)
    return MessageOut(message="Member deleted")


ROUTES = [("/members", router)]
