from __future__ import annotations

from datetime import datetime
from typing import Any

from apps.core.schemas import InSchema, OutSchema, PaginationOut, SuccessOut
from apps.portability.models import ExportJob, ImportJob


class ImportStartIn(InSchema):
    downloadImages: bool = True  # noqa: N815
    inviteAuthors: bool = False  # noqa: N815 - email the accounts the import makes an invitation


class ImportJobOut(OutSchema):
    id: str
    status: str
    source: str
    sourceVersion: str  # noqa: N815
    fileName: str  # noqa: N815
    fileSize: int  # noqa: N815
    phase: str
    done: int
    total: int
    plan: dict[str, Any]
    report: dict[str, Any]
    error: str
    createdAt: datetime  # noqa: N815
    startedAt: datetime | None  # noqa: N815
    finishedAt: datetime | None  # noqa: N815

    @classmethod
    def of(cls, job: ImportJob, progress: tuple[str, int, int]) -> "ImportJobOut":
        phase, done, total = progress
        return cls(id=str(job.pk), status=job.status, source=job.source, sourceVersion=job.source_version,
                   fileName=job.file_name, fileSize=job.file_size, phase=phase, done=done, total=total,
                   plan=job.plan, report=job.report, error=job.error, createdAt=job.created_at,
                   startedAt=job.started_at, finishedAt=job.finished_at)


class ImportReplyOut(SuccessOut):
    job: ImportJobOut


class ImportListOut(SuccessOut):
    jobs: list[ImportJobOut]
    pagination: PaginationOut


class ImportReportOut(SuccessOut):
    fileName: str  # noqa: N815
    csv: str  # the counts (kind, outcome, count), a blank line, then every item (kind, item, outcome, reason)


class ExportJobOut(OutSchema):
    id: str
    status: str
    fileSize: int  # noqa: N815
    counts: dict[str, Any]
    error: str
    downloadUrl: str | None  # noqa: N815 - a signed link, valid EXPORT_LINK_HOURS
    createdAt: datetime  # noqa: N815
    finishedAt: datetime | None  # noqa: N815

    @classmethod
    def of(cls, job: ExportJob, download_url: str | None) -> "ExportJobOut":
        return cls(id=str(job.pk), status=job.status, fileSize=job.file_size, counts=job.counts, error=job.error,
                   downloadUrl=download_url, createdAt=job.created_at, finishedAt=job.finished_at)


class ExportReplyOut(SuccessOut):
    export: ExportJobOut


class MissingImageOut(OutSchema):
    url: str  # the old address, which the post shows meanwhile
    role: str  # content, featured_image, og_image or twitter_image
    reason: str
    attempts: int


class PostMissingImagesOut(OutSchema):
    postId: str  # noqa: N815
    title: str
    slug: str
    images: list[MissingImageOut]


class MissingImagesOut(SuccessOut):
    posts: list[PostMissingImagesOut]

    @classmethod
    def of(cls, rows) -> "MissingImagesOut":
        posts: dict = {}
        for row in rows:
            entry = posts.setdefault(row.post_id, PostMissingImagesOut(
                postId=str(row.post_id), title=row.post.title, slug=row.post.slug, images=[]))
            entry.images.append(MissingImageOut(url=row.url, role=row.role, reason=row.reason, attempts=row.attempts))
        return cls(posts=list(posts.values()))
