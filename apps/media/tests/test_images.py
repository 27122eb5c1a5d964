"""Upload rules, checked on the image module itself (no database): what the bytes are decides,
bombs are refused from the header, SVG is refused, metadata is stripped."""
from __future__ import annotations

import io
import json
import os
import struct
import subprocess
import sys
import time
import zlib
from pathlib import Path

import pytest
from PIL import Image

from apps.core.errors import PayloadTooLarge, ValidationFailed
from apps.media import images
from apps.media.tests.conftest import make_image

ROOT = Path(__file__).resolve().parents[3]
LIMITS = {"max_bytes": 5 * 1024 * 1024, "max_pixels": 40_000_000}
GPS_IFD = 0x8825


def png_chunk(kind: bytes, payload: bytes) -> bytes:
    return struct.pack(">I", len(payload)) + kind + payload + struct.pack(">I", zlib.crc32(kind + payload))


def png_bomb(width: int, height: int, *, rows: int | None = None) -> bytes:
    """A valid PNG of width x height RGB pixels, all black: a few hundred KB that would decode
    to width*height*3 bytes. `rows` < height writes only that many rows (header-only bomb)."""
    compressor = zlib.compressobj(9)
    row = b"\x00" * (1 + width * 3)
    data = b"".join(compressor.compress(row) for _ in range(height if rows is None else rows))
    data += compressor.flush()
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", header) + png_chunk(b"IDAT", data) + png_chunk(b"IEND", b"")


def jpeg_with_gps_and_orientation() -> bytes:
    image = Image.new("RGB", (400, 200), (200, 30, 30))
    exif = image.getexif()
    exif[0x0112] = 6  # rotate 90 degrees clockwise when shown
    exif[0x010F] = "CameraMaker"
    gps = exif.get_ifd(GPS_IFD)
    gps[1], gps[2], gps[3], gps[4] = "N", (48.0, 51.0, 29.0), "E", (2.0, 17.0, 40.0)
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", exif=exif, quality=90)
    return buffer.getvalue()


def test_png_named_txt_is_an_image_because_its_bytes_say_so():
    prepared = images.prepare_upload(make_image("PNG"), **LIMITS)
    assert (prepared.mime, prepared.extension, prepared.width, prepared.height) == ("image/png", "png", 640, 480)


@pytest.mark.parametrize("fmt,mime", [("JPEG", "image/jpeg"), ("GIF", "image/gif"), ("WEBP", "image/webp")])
def test_each_web_format_is_accepted(fmt, mime):
    prepared = images.prepare_upload(make_image(fmt), **LIMITS)
    assert prepared.mime == mime
    assert Image.open(io.BytesIO(prepared.data)).format == fmt


@pytest.mark.parametrize("data", [
    b"Just some text, not a picture at all\n" * 20,
    b"%PDF-1.7\n1 0 obj\n<<>>\nendobj\n",
    make_image("BMP"),  # an image, but not a web format: refused rather than served as is
    make_image("TIFF"),
])
def test_what_is_not_a_web_image_is_refused(data):
    with pytest.raises(ValidationFailed) as caught:
        images.prepare_upload(data, **LIMITS)
    assert caught.value.message == "Only image files are supported"


@pytest.mark.parametrize("svg", [
    b'<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script></svg>',
    b'<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="10" height="10"/></svg>',
    b'\xef\xbb\xbf  <!-- made by hand -->\n<svg xmlns="http://www.w3.org/2000/svg"></svg>',
])
def test_svg_is_refused_with_a_clear_message(svg):
    with pytest.raises(ValidationFailed) as caught:
        images.prepare_upload(svg, **LIMITS)
    assert caught.value.message == images.SVG_REFUSED


def test_truncated_image_is_refused_as_damaged():
    with pytest.raises(ValidationFailed) as caught:
        images.prepare_upload(make_image("PNG", (800, 600))[:300], **LIMITS)
    assert caught.value.message == "The image file is damaged or incomplete"


def test_size_limit_and_its_message_follow_the_setting():
    with pytest.raises(PayloadTooLarge) as caught:
        images.prepare_upload(b"\0" * (5 * 1024 * 1024 + 1), **LIMITS)
    assert caught.value.message == "File too large. Maximum size is 5 MB"
    assert images.too_large_message(1536 * 1024) == "File too large. Maximum size is 1.5 MB"
    assert images.too_large_message(10 * 1024 * 1024) == "File too large. Maximum size is 10 MB"
    assert images.too_large_message(500 * 1024) == "File too large. Maximum size is 500 KB"


def test_gps_is_stripped_and_orientation_applied_to_the_pixels():
    original = jpeg_with_gps_and_orientation()
    assert Image.open(io.BytesIO(original)).getexif().get_ifd(GPS_IFD)  # the fixture really has GPS

    prepared = images.prepare_upload(original, **LIMITS)

    stored = Image.open(io.BytesIO(prepared.data))
    assert stored.getexif().get_ifd(GPS_IFD) == {}
    assert b"CameraMaker" not in prepared.data and b"GPS" not in prepared.data
    # Shown the same way as before: the 400x200 picture with orientation 6 is 200 wide, 400 high.
    assert stored.size == (200, 400) == (prepared.width, prepared.height)
    assert stored.getexif().get(0x0112) in (None, 1)


def test_bytes_appended_after_the_image_are_not_stored():
    payload = b"<script>alert('polyglot')</script>"
    prepared = images.prepare_upload(make_image("PNG") + payload, **LIMITS)
    assert payload not in prepared.data


def test_animated_gif_keeps_its_frames():
    frames = [Image.new("RGB", (60, 40), (i * 40, 10, 10)) for i in range(4)]
    buffer = io.BytesIO()
    frames[0].save(buffer, "GIF", save_all=True, append_images=frames[1:], duration=80, loop=0)
    prepared = images.prepare_upload(buffer.getvalue(), **LIMITS)
    assert Image.open(io.BytesIO(prepared.data)).n_frames == 4


def test_animation_counts_every_frame_against_the_pixel_limit():
    frames = [Image.new("RGB", (100, 100), (i, 0, 0)) for i in range(5)]
    buffer = io.BytesIO()
    frames[0].save(buffer, "GIF", save_all=True, append_images=frames[1:])
    with pytest.raises(ValidationFailed) as caught:
        images.prepare_upload(buffer.getvalue(), max_bytes=LIMITS["max_bytes"], max_pixels=40_000)
    assert caught.value.message == images.pixels_message(40_000)


_MEASURE = """
import json, resource, sys, time
from apps.media.images import prepare_upload
data = open(sys.argv[1], "rb").read()
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
started = time.perf_counter()
try:
    prepare_upload(data, max_bytes=5 * 1024 * 1024, max_pixels=40_000_000)
    outcome = "accepted"
except Exception as exc:
    outcome = getattr(exc, "message", repr(exc))
elapsed = time.perf_counter() - started
grown_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
print(json.dumps({"outcome": outcome, "seconds": elapsed, "grown_mb": grown_kb / 1024}))
"""


def _measure_in_fresh_process(data: bytes, tmp_path) -> dict:
    """Peak memory is only meaningful in a process that did nothing else."""
    path = tmp_path / "upload.bin"
    path.write_bytes(data)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "platform"), str(ROOT)])}
    result = subprocess.run([sys.executable, "-c", _MEASURE, str(path)], capture_output=True, text=True, env=env,
                            cwd=ROOT, timeout=120, check=True)
    return json.loads(result.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("width,height,rows", [
    (8000, 6000, None),   # 48 megapixels of real data: over our limit, under Pillow's own
    (60000, 60000, 64),   # 3.6 gigapixels declared in the header
])
def test_pixel_bomb_is_refused_fast_with_little_memory(width, height, rows, tmp_path):
    bomb = png_bomb(width, height, rows=rows)
    assert len(bomb) < 1024 * 1024  # small on the wire...
    decoded_mb = width * height * 3 / 1024 / 1024  # ...huge once decoded (137 MB / 10 GB)

    started = time.perf_counter()
    result = _measure_in_fresh_process(bomb, tmp_path)

    assert result["outcome"] == "Image dimensions are too large. Maximum is 40 megapixels"
    assert result["seconds"] < 0.5, result
    assert result["grown_mb"] < 20 < decoded_mb, result
    assert time.perf_counter() - started < 30


def test_an_image_at_the_pixel_limit_is_accepted_and_a_pixel_over_is_not():
    small_limit = 120 * 80
    assert images.prepare_upload(make_image("PNG", (120, 80)), max_bytes=LIMITS["max_bytes"], max_pixels=small_limit)
    with pytest.raises(ValidationFailed):
        images.prepare_upload(make_image("PNG", (121, 80)), max_bytes=LIMITS["max_bytes"], max_pixels=small_limit)


def test_renditions_are_never_upscaled_and_come_in_webp_and_the_original_format():
    widths = {"thumbnail": 150, "small": 480, "medium": 960, "large": 1600}
    made = {r.name: r for r in images.make_renditions(make_image("JPEG", (1000, 500)), widths, max_pixels=40_000_000)}
    assert {name: (r.width, r.height) for name, r in made.items()} == {
        "thumbnail": (150, 75), "small": (480, 240), "medium": (960, 480), "large": (1000, 500),
    }
    for rendition in made.values():
        assert Image.open(io.BytesIO(rendition.webp)).format == "WEBP"
        assert Image.open(io.BytesIO(rendition.original)).format == "JPEG"
        assert Image.open(io.BytesIO(rendition.webp)).size == (rendition.width, rendition.height)


def test_transparent_png_renditions_keep_transparency():
    image = Image.new("RGBA", (400, 400), (0, 0, 0, 0))
    image.paste((255, 0, 0, 255), (100, 100, 300, 300))
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    made = images.make_renditions(buffer.getvalue(), {"thumbnail": 150}, max_pixels=40_000_000)[0]
    assert Image.open(io.BytesIO(made.webp)).convert("RGBA").getpixel((0, 0))[3] == 0
    assert Image.open(io.BytesIO(made.original)).convert("RGBA").getpixel((0, 0))[3] == 0
