"""Dashboard API of the media library (docs/media.md: GET media, GET/PUT/DELETE media/{id},
POST media/upload)."""
from __future__ import annotations

from ninja import File, Form, Router
from ninja.files import UploadedFile

from apps.core.pagination import page_params
from apps.core.permissions import requires
from apps.core.selectors import paginate
from apps.core.schemas import MessageOut, PaginationOut
from apps.media import selectors, services
from apps.media.schemas import MediaListOut, MediaReplyOut, MediaSavedOut, MediaUpdateIn, media_out
from apps.media.storage import MediaUrls

router = Router(tags=["media"])


@router.get("", response=MediaListOut)
@requires("content.read")
def list_media(request, page: int | None = None, limit: int | None = None, search: str = ""):
    params = page_params(page, limit, default_limit=20, max_limit=100)
    rows, total = paginate(selectors.media_list(search=search), params)
    urls = MediaUrls.current()
    meta = PaginationOut(**params.meta(total))
    return MediaListOut(
        media=[media_out(media, urls) for media in rows],
        page=params.page,
        limit=params.limit,
        totalItems=total,
        totalPages=meta.totalPages,
        pagination=meta,
    )


@router.post("/upload", response={201: MediaSavedOut})
@requires("media.upload", services.UPLOAD_DENIED)
def upload_media(
    request,
    file: File[UploadedFile],
    fileName: Form[str] = "",  # noqa: N803 - wire names are camelCase
    fileType: Form[str] = "",  # noqa: N803 - informational: the bytes decide the type
    fileSize: Form[str] = "",  # noqa: N803 - informational: the bytes decide the size
    altText: Form[str] = "",  # noqa: N803
):
    media = services.media_upload(uploaded_file=file, file_name=fileName, alt_text=altText, uploaded_by=request.auth)
    return MediaSavedOut(message="File uploaded successfully", media=media_out(media, MediaUrls.current()))


@router.get("/{media_id}", response=MediaReplyOut)
@requires("content.read")
def get_media(request, media_id: str):
    media = selectors.media_get(media_id)
    return MediaReplyOut(media=media_out(media, MediaUrls.current()))


@router.put("/{media_id}", response=MediaSavedOut)
@requires("media.edit_own", services.EDIT_DENIED)
def update_media(request, media_id: str, payload: MediaUpdateIn):
    media = services.media_update(actor=request.auth, media_id=media_id, alt_text=payload.altText)
    return MediaSavedOut(message="Media updated successfully", media=media_out(media, MediaUrls.current()))


@router.delete("/{media_id}", response=MessageOut)
@requires("media.edit_own", services.DELETE_DENIED)
def delete_media(request, media_id: str):
    services.media_delete(actor=request.auth, media_id=media_id)
    return MessageOut(message="Media deleted successfully")


ROUTES = [("/media", router)]
