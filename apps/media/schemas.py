from __future__ import annotations

from datetime import datetime

from pydantic import field_validator

from apps.core.schemas import InSchema, OutSchema, PaginationOut, SuccessOut, omitted
from apps.core.languages import clean_code
from apps.core.validation import text
from apps.media.models import Media
from apps.media.storage import MediaUrls

ALT_TEXT_MAX = 500
ALT_TEXT_TOO_LONG = f"Alt text must be at most {ALT_TEXT_MAX} characters"
RENDITION_NAMES = ("thumbnail", "small", "medium", "large")


def clean_alt_text(value) -> str:
    value = text(value, "Alt text must be text").strip()
    if len(value) > ALT_TEXT_MAX:
        raise ValueError(ALT_TEXT_TOO_LONG)
    return value


ALT_TEXTS_INVALID = "Alt texts must map language codes to text"


class MediaUpdateIn(InSchema):
    altText: str | None = ""  # null clears it, as "" does
    # (+) the alt text in other languages (docs/translations.md), {"fr": "..."}; replaces them all when given
    altTexts: dict | None = None

    @field_validator("altText", mode="before")
    @classmethod
    def _alt_text(cls, value):
        return clean_alt_text(value)

    @field_validator("altTexts", mode="before")
    @classmethod
    def _alt_texts(cls, value):
        if value is None:
            return None
        if not isinstance(value, dict) or not all(isinstance(text, str) for text in value.values()):
            raise ValueError(ALT_TEXTS_INVALID)
        return {clean_code(code): clean_alt_text(text) for code, text in value.items() if clean_alt_text(text)}


class UploaderOut(OutSchema):
    """Nulls once the uploader's account is deleted."""

    id: str | None
    username: str | None


class RenditionsOut(OutSchema):
    """URLs of the resized copies; null until the rendition task has made them."""

    thumbnail: str | None
    small: str | None
    medium: str | None
    large: str | None


class MediaOut(OutSchema):
    """The Media object of the wire contract (docs/api/index.md, Objects; built by `media_out`)."""

    id: str
    fileName: str
    fileType: str
    fileSize: int
    altText: str
    width: int | None
    height: int | None
    spacesKey: str
    link: str
    cdnUrl: str
    renditions: RenditionsOut  # WebP
    renditionsOriginalFormat: RenditionsOut  # (+) in the original's format
    uploadedBy: UploaderOut
    uploadedAt: datetime
    createdAt: datetime
    # (+) when it has any (docs/translations.md)
    altTexts: dict[str, str] = omitted(description="The alt text in other languages")


class MediaListOut(SuccessOut):
    media: list[MediaOut]
    page: int
    limit: int
    totalItems: int
    totalPages: int
    pagination: PaginationOut  # (+)


class MediaReplyOut(SuccessOut):
    media: MediaOut


class MediaSavedOut(SuccessOut):
    """POST media/upload (201), PUT media/{id}"""

    message: str
    media: MediaOut


def media_out(media: Media, urls: MediaUrls) -> MediaOut:
    """The Media object of a row. `renditions` are WebP URLs (null until the rendition task made them);
    `renditionsOriginalFormat` (+) the same sizes in the original's format."""
    webp: dict[str, str | None] = dict.fromkeys(RENDITION_NAMES)
    original: dict[str, str | None] = dict.fromkeys(RENDITION_NAMES)
    for name in RENDITION_NAMES:
        entry = (media.renditions or {}).get(name)
        if entry:
            webp[name] = urls.cdn(entry["webp"])
            original[name] = urls.cdn(entry.get("original") or entry["webp"])
    user = media.uploaded_by
    return MediaOut(
        id=str(media.id),
        fileName=media.file_name,
        fileType=media.file_type,
        fileSize=media.file_size,
        altText=media.alt_text,
        width=media.width,
        height=media.height,
        spacesKey=media.storage_key,
        link=urls.link(media.storage_key),
        cdnUrl=urls.cdn(media.storage_key),
        renditions=webp,
        renditionsOriginalFormat=original,
        uploadedBy={"id": str(user.id) if user else None, "username": user.username if user else None},
        uploadedAt=media.uploaded_at,
        createdAt=media.created_at,
        **({"altTexts": media.alt_texts} if getattr(media, "alt_texts", None) else {}),
    )
