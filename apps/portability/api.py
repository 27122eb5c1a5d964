"""Dashboard API of blog import and export (admins; docs/import-export.md).

POST imports                 upload a WordPress or Ghost export: stored and analysed (the dry run)
GET  imports                 the company's imports, newest first
GET  imports/{id}            one import: its dry run, progress (phase, done of total) and report
POST imports/{id}/start      import it (a background job; one per company at a time)
GET  imports/missing-images  the images imports could not bring, per post (?post=, ?job=)
POST imports/{id}/fetch-missing  try those of an import again (a background job)
GET  imports/{id}/report     the report as CSV (in a JSON reply: the dashboard saves it as a file)
POST exports                 build a zip of everything (a background job; emailed when ready)
GET  exports/{id}            its state and, when ready, a signed download link (EXPORT_LINK_HOURS)

The download link itself (`GET /api/exports/download/<token>`, no sign-in: the signed token is the
key) is a plain Django view (apps.portability.views): it answers a file, not JSON.
"""
from __future__ import annotations

from ninja import File, Router
from ninja.files import UploadedFile

from apps.core.pagination import page_params
from apps.core.permissions import requires
from apps.core.schemas import PaginationOut
from apps.core.selectors import paginate
from apps.portability import selectors, services
from apps.portability.schemas import (ExportJobOut, ExportReplyOut, ImportJobOut, ImportListOut, ImportReplyOut,
                                      ImportReportOut, ImportStartIn, MissingImagesOut)

imports_router = Router(tags=["import and export"])


def _out(job) -> ImportJobOut:
    return ImportJobOut.of(job, services.import_progress(job))


@imports_router.post("", response={201: ImportReplyOut})
@requires("settings.manage", services.CANNOT_IMPORT)
def upload_import(request, file: File[UploadedFile] = None, images: File[UploadedFile] = None):
    """The export (`file`) and, optionally, its images archive (`images`: a zip of Ghost's
    content/images or WordPress's wp-content/uploads)."""
    data, name = services.read_upload(file)
    images_data, images_name = services.read_upload(images)
    job = services.import_upload(actor=request.auth, data=data, file_name=name, images=images_data,
                                 images_name=images_name)
    return 201, ImportReplyOut(job=_out(job))


@imports_router.get("", response=ImportListOut)
@requires("settings.manage", services.CANNOT_IMPORT)
def list_imports(request, page: int | None = None, limit: int | None = None):
    """The company's imports, newest first (page, limit: at most 50)."""
    params = page_params(page, limit, default_limit=20, max_limit=50)
    jobs, total = paginate(selectors.import_list(), params)
    return ImportListOut(jobs=[_out(job) for job in jobs], pagination=PaginationOut(**params.meta(total)))


@imports_router.get("/missing-images", response=MissingImagesOut)
@requires("settings.manage", services.CANNOT_IMPORT)
def list_missing_images(request, post: str | None = None, job: str | None = None):
    """(+) The images imports could not bring, per post (of one post, of one import, or all): each
    post keeps their old address until "Fetch missing images" brings them."""
    rows = services.missing_images_list(actor=request.auth, post_id=post, job_id=job)
    return MissingImagesOut.of(rows)


@imports_router.get("/{job_id}", response=ImportReplyOut)
@requires("settings.manage", services.CANNOT_IMPORT)
def get_import(request, job_id: str):
    return ImportReplyOut(job=_out(services.import_get(actor=request.auth, job_id=job_id)))


@imports_router.post("/{job_id}/start", response={202: ImportReplyOut})
@requires("settings.manage", services.CANNOT_IMPORT)
def start_import(request, job_id: str, payload: ImportStartIn | None = None):
    job = services.import_start(actor=request.auth, job_id=job_id,
                                download_images=payload.downloadImages if payload else True,
                                invite_authors=payload.inviteAuthors if payload else False)
    return 202, ImportReplyOut(job=_out(job))


@imports_router.post("/{job_id}/fetch-missing", response={202: ImportReplyOut})
@requires("settings.manage", services.CANNOT_IMPORT)
def fetch_missing_images(request, job_id: str):
    """(+) Try again the images this import could not bring (a background job); the posts are
    rewritten as each one arrives. 409 before the import has completed."""
    job = services.import_fetch_missing_request(actor=request.auth, job_id=job_id)
    return 202, ImportReplyOut(job=_out(job))


@imports_router.get("/{job_id}/report", response=ImportReportOut)
@requires("settings.manage", services.CANNOT_IMPORT)
def import_report(request, job_id: str):
    job = services.import_get(actor=request.auth, job_id=job_id)
    return ImportReportOut(fileName=f"import-report-{job.pk}.csv", csv=services.import_report_csv(job))


exports_router = Router(tags=["import and export"])


@exports_router.post("", response={202: ExportReplyOut})
@requires("settings.manage", services.CANNOT_IMPORT)
def request_export(request):
    job = services.export_request(actor=request.auth)
    return 202, ExportReplyOut(export=ExportJobOut.of(job, None))


@exports_router.get("/{job_id}", response=ExportReplyOut)
@requires("settings.manage", services.CANNOT_IMPORT)
def get_export(request, job_id: str):
    job = services.export_get(actor=request.auth, job_id=job_id)
    return ExportReplyOut(export=ExportJobOut.of(job, services.export_link(job)))


ROUTES = [("/imports", imports_router), ("/exports", exports_router)]
