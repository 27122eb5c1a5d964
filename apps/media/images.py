"""Image checks and re-encoding with Pillow. No database, no storage: bytes in, bytes out.

Upload rules (spec "Upload rules"):
- what a file is, is decided from its bytes, never from its name or the client's content type;
- only web raster formats are accepted (JPEG, PNG, GIF, WebP); SVG is refused (it can carry
  script, and no sanitiser we would trust is maintained for Python);
- the pixel count is read from the header and checked before anything is decoded, so a
  decompression bomb costs neither time nor memory;
- what is stored is re-encoded from the decoded pixels: EXIF (GPS included), XMP and IPTC
  metadata are dropped, the EXIF orientation is applied to the pixels first (so the picture
  keeps its orientation), the ICC colour profile is kept, and anything appended to the file
  (a polyglot payload) is gone.
"""
from __future__ import annotations

import io
import warnings
from dataclasses import dataclass

from django.conf import settings
from PIL import Image, ImageOps, UnidentifiedImageError

from apps.core.errors import ErrorCode, PayloadTooLarge, ValidationFailed

# Pillow's own decompression-bomb guard follows our pixel limit (it refuses outright above twice
# the value); uploads are checked against MEDIA_MAX_PIXELS before that. Set when Pillow is first
# needed (this module is loaded on the first upload, not when a web worker starts).
Image.MAX_IMAGE_PIXELS = settings.MEDIA_MAX_PIXELS

# Pillow format name -> (mime type, file extension)
FORMATS: dict[str, tuple[str, str]] = {
    "JPEG": ("image/jpeg", "jpg"),
    "PNG": ("image/png", "png"),
    "GIF": ("image/gif", "gif"),
    "WEBP": ("image/webp", "webp"),
}

NOT_AN_IMAGE = "Only image files are supported"
SVG_REFUSED = "SVG images are not supported. Please upload a JPEG, PNG, GIF or WebP image"
DAMAGED = "The image file is damaged or incomplete"
EMPTY = "File is empty"

EXIF_ORIENTATION = 0x0112


def size_text(max_bytes: int) -> str:
    """5242880 -> '5 MB', 1572864 -> '1.5 MB', 512000 -> '500 KB' (1 MB = 1024 * 1024 bytes)."""
    mb = max_bytes / (1024 * 1024)
    if mb >= 1:
        return f"{mb:.1f}".removesuffix(".0") + " MB"
    kb = max_bytes / 1024
    return f"{kb:.1f}".removesuffix(".0") + " KB"


def too_large_message(max_bytes: int) -> str:
    return f"File too large. Maximum size is {size_text(max_bytes)}"


def pixels_message(max_pixels: int) -> str:
    return f"Image dimensions are too large. Maximum is {max_pixels / 1_000_000:g} megapixels"


def looks_like_svg(data: bytes) -> bool:
    head = data[:4096].lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    if head.startswith(b"\x1f\x8b"):  # gzip: possibly an .svgz
        return True
    return head.startswith((b"<?xml", b"<svg", b"<!doctype svg", b"<!--")) and b"<svg" in data[:65536].lower()


@dataclass(frozen=True)
class PreparedImage:
    data: bytes
    format: str  # Pillow's name: JPEG, PNG, GIF, WEBP
    mime: str
    extension: str
    width: int
    height: int


def check_size(size: int, *, max_bytes: int) -> None:
    if size > max_bytes:
        raise PayloadTooLarge(too_large_message(max_bytes), detail=ErrorCode.FILE_TOO_LARGE)
    if size <= 0:
        raise ValidationFailed(EMPTY, field="file")


def open_checked(data: bytes, *, max_pixels: int) -> Image.Image:
    """Open (header only) and check format and pixel count; nothing is decoded here."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data), formats=list(FORMATS))
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
        raise ValidationFailed(pixels_message(max_pixels), field="file") from exc
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError) as exc:
        if looks_like_svg(data):
            raise ValidationFailed(SVG_REFUSED, field="file", detail=ErrorCode.UNSUPPORTED_FILE_TYPE) from exc
        raise ValidationFailed(NOT_AN_IMAGE, field="file", detail=ErrorCode.UNSUPPORTED_FILE_TYPE) from exc
    width, height = image.size
    if width <= 0 or height <= 0:
        raise ValidationFailed(DAMAGED, field="file")
    frames = getattr(image, "n_frames", 1) or 1
    if width * height * frames > max_pixels:
        raise ValidationFailed(pixels_message(max_pixels), field="file")
    return image


def _is_lossless_webp(data: bytes) -> bool:
    # A lossy WebP holds "VP8 " chunks, a lossless one "VP8L" chunks.
    return b"VP8L" in data and b"VP8 " not in data


def _orientation(image: Image.Image) -> int:
    try:
        return int(image.getexif().get(EXIF_ORIENTATION, 1) or 1)
    except Exception:  # noqa: BLE001 - a broken EXIF block is treated as "no orientation"
        return 1


def prepare_upload(data: bytes, *, max_bytes: int, max_pixels: int, jpeg_quality: int = 90,
                   webp_quality: int = 90) -> PreparedImage:
    """Validate an upload and return the clean bytes to store. Raises PayloadTooLarge or
    ValidationFailed with the spec's messages."""
    check_size(len(data), max_bytes=max_bytes)
    image = open_checked(data, max_pixels=max_pixels)
    fmt = image.format
    mime, extension = FORMATS[fmt]
    animated = bool(getattr(image, "is_animated", False))
    icc = image.info.get("icc_profile")
    out = io.BytesIO()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            if animated:
                # Frames are kept; no animated format here carries EXIF GPS once re-encoded.
                options = {"save_all": True}
                if "loop" in image.info:
                    options["loop"] = image.info["loop"]
                if fmt == "WEBP":
                    options["lossless"] = _is_lossless_webp(data)
                    options["quality"] = webp_quality
                image.save(out, fmt, **options)
                width, height = image.size
            else:
                image.load()
                orientation = _orientation(image)
                if orientation != 1:
                    image = ImageOps.exif_transpose(image)
                options = {}
                if icc:
                    options["icc_profile"] = icc
                if fmt == "JPEG":
                    if orientation == 1:
                        # Re-use the source's quantisation tables: no visible generation loss.
                        options.update(quality="keep", subsampling="keep")
                    else:
                        options.update(quality=jpeg_quality)
                    options["optimize"] = True
                elif fmt == "WEBP":
                    options.update(lossless=_is_lossless_webp(data), quality=webp_quality)
                elif fmt == "PNG":
                    if "transparency" in image.info:
                        options["transparency"] = image.info["transparency"]
                elif fmt == "GIF":
                    if "transparency" in image.info:
                        options["transparency"] = image.info["transparency"]
                image.save(out, fmt, **options)
                width, height = image.size
    except ValidationFailed:
        raise
    except (OSError, ValueError, SyntaxError, EOFError, Image.DecompressionBombWarning) as exc:
        raise ValidationFailed(DAMAGED, field="file") from exc
    finally:
        image.close()
    return PreparedImage(data=out.getvalue(), format=fmt, mime=mime, extension=extension, width=width,
                         height=height)


@dataclass(frozen=True)
class Rendition:
    name: str
    width: int
    height: int
    webp: bytes
    original: bytes | None  # None when the original format is WebP (the WebP file serves both)


def _flatten(image: Image.Image) -> Image.Image:
    """RGB on white for formats without alpha."""
    if image.mode in ("RGBA", "LA") or (image.mode == "P" and "transparency" in image.info):
        rgba = image.convert("RGBA")
        background = Image.new("RGB", rgba.size, (255, 255, 255))
        background.paste(rgba, mask=rgba.getchannel("A"))
        return background
    return image.convert("RGB")


def make_renditions(data: bytes, widths: dict[str, int], *, max_pixels: int, webp_quality: int = 80,
                    jpeg_quality: int = 85) -> list[Rendition]:
    """Resized copies of a stored image (first frame of an animation), never upscaled:
    a target wider than the image gets the image's own width. Largest first, each made from
    the previous one, so a big original is resampled once at full size."""
    image = open_checked(data, max_pixels=max_pixels)
    fmt = image.format
    with image:
        image.seek(0)
        if fmt == "JPEG":
            # Decode at a reduced DCT scale when even the largest rendition is much smaller.
            target = min(max(widths.values()), image.width)
            image.draft(None, (target, max(1, round(image.height * target / image.width))))
        image.load()
        icc = image.info.get("icc_profile")
        has_alpha = image.mode in ("RGBA", "LA", "PA") or "transparency" in image.info
        working = image.convert("RGBA" if has_alpha else "RGB")
    results: list[Rendition] = []
    for name, target in sorted(widths.items(), key=lambda item: -item[1]):
        width = min(target, working.width)
        height = max(1, round(working.height * width / working.width))
        if results and results[-1].width == width:
            # Same size as the previous one (a small original): the same files serve both.
            previous = results[-1]
            results.append(Rendition(name=name, width=width, height=previous.height, webp=previous.webp,
                                     original=previous.original))
            continue
        if (width, height) != working.size:
            working = working.resize((width, height), Image.Resampling.LANCZOS, reducing_gap=3.0)
        webp = io.BytesIO()
        working.save(webp, "WEBP", quality=webp_quality, method=4, **({"icc_profile": icc} if icc else {}))
        original = None
        if fmt != "WEBP":
            buffer = io.BytesIO()
            if fmt == "JPEG":
                _flatten(working).save(buffer, "JPEG", quality=jpeg_quality, optimize=True, progressive=True,
                                       **({"icc_profile": icc} if icc else {}))
            elif fmt == "PNG":
                working.save(buffer, "PNG", optimize=False, **({"icc_profile": icc} if icc else {}))
            else:  # GIF
                frame = working.convert("RGBA").quantize(colors=255) if has_alpha else working.quantize(colors=256)
                frame.save(buffer, "GIF")
            original = buffer.getvalue()
        results.append(Rendition(name=name, width=width, height=height, webp=webp.getvalue(), original=original))
    return results
