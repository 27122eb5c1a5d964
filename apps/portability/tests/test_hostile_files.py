"""Files that must be refused cleanly at upload (the dry run): a clear 4xx naming the line or key
that failed, nothing stored or imported. Billion laughs, an external entity, a file over the size
limit (a small limit set here rather than 300 MB written), malformed XML and JSON, an unsupported
version, a truncated zip, a zip with `../` paths, a zip bomb."""
from __future__ import annotations

import io
import json
import zipfile

import pytest
from django_tenants.utils import schema_context

from apps.content.models import Post
from apps.portability.models import ImportJob
from apps.portability.tests.test_import_samples import GHOST, WXR, upload_bytes

BILLION_LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol9 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
]>
<rss version="2.0" xmlns:wp="http://wordpress.org/export/1.2/"><channel><wp:wxr_version>1.2</wp:wxr_version>
<item><title>&lol9;</title></item></channel></rss>"""

EXTERNAL_ENTITY = b"""<?xml version="1.0"?>
<!DOCTYPE rss [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
<rss version="2.0" xmlns:wp="http://wordpress.org/export/1.2/"><channel><wp:wxr_version>1.2</wp:wxr_version>
<item><title>&secret;</title></item></channel></rss>"""


def _refused(api, data: bytes, name: str, status: int = 400) -> dict:
    reply = upload_bytes(api, data, name)
    assert reply.status_code == status, reply.content
    body = reply.json()
    assert body["success"] is False
    return body


def _nothing_kept(tenant):
    with schema_context(tenant.schema_name):
        assert not ImportJob.objects.exists() and not Post.objects.exists()


def _zip(files: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in files.items():
            archive.writestr(name, content)
    return out.getvalue()


@pytest.mark.django_db
def test_billion_laughs_is_refused_without_expanding(tenant, api):
    body = _refused(api, BILLION_LAUGHS, "bomb.xml")
    assert "entities" in body["message"] and body["errors"][0]["field"] == "entities"
    _nothing_kept(tenant)


@pytest.mark.django_db
def test_an_external_entity_is_refused_and_never_read(tenant, api):
    body = _refused(api, EXTERNAL_ENTITY, "xxe.xml")
    assert "external-entity" in body["message"] and "root:" not in json.dumps(body)
    _nothing_kept(tenant)


@pytest.mark.django_db
def test_a_file_over_the_size_limit_is_413(tenant, api, settings):
    settings.IMPORT_MAX_BYTES = 100_000  # the real default is 200 MB; WXR sample is 609 kB
    body = _refused(api, WXR.read_bytes(), "big.xml", status=413)
    assert "larger than the import limit" in body["message"]
    _nothing_kept(tenant)


@pytest.mark.django_db
def test_malformed_xml_names_its_line(tenant, api):
    broken = WXR.read_bytes().replace(b"</wp:post_name>", b"</wp:post_nam>", 1)
    body = _refused(api, broken, "broken.xml")
    line = broken[:broken.index(b"</wp:post_nam>")].count(b"\n") + 1
    assert f"line {line}" in body["message"] and body["errors"][0]["field"] == f"line {line}"


@pytest.mark.django_db
def test_unsupported_versions_are_named(tenant, api):
    body = _refused(api, WXR.read_bytes().replace(b"<wp:wxr_version>1.2<", b"<wp:wxr_version>2.0<"), "v2.xml")
    assert "version 2.0 is not supported" in body["message"]
    document = json.loads(GHOST.read_text())
    # Ghost 0.x is read since its exports are imported (test_ghost_0x); a version past 5.x is not
    document["db"][0]["meta"]["version"] = "6.0.0"
    body = _refused(api, json.dumps(document).encode(), "new.json")
    assert body["errors"][0]["field"] == "db[0].meta.version" and "Export from Ghost 0.x" in body["message"]


@pytest.mark.django_db
def test_malformed_json_names_its_line_or_key(tenant, api):
    body = _refused(api, b'{"db": [{"meta": {"version": "5.0.0"},\n "data": {"posts": [}}]}', "broken.json")
    assert "line 2" in body["message"]
    document = json.loads(GHOST.read_text())
    document["db"][0]["data"]["posts"][1]["published_at"] = "yesterday"
    body = _refused(api, json.dumps(document).encode(), "dates.json")
    assert body["errors"][0]["field"] == "db[0].data.posts[1].published_at"
    document["db"][0]["data"]["tags"] = "not a list"
    body = _refused(api, json.dumps(document).encode(), "tags.json")
    assert body["errors"][0]["field"] == "db[0].data.tags"


@pytest.mark.django_db
def test_a_truncated_zip_is_refused(tenant, api):
    whole = _zip({"ghost.json": GHOST.read_bytes()})
    _refused(api, whole[: len(whole) // 2], "ghost.zip")
    _nothing_kept(tenant)


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["../evil.png", "content/../../evil.png", "/etc/evil.png", "..\\evil.png"])
def test_a_zip_with_paths_outside_its_folder_is_refused(tenant, api, name):
    body = _refused(api, _zip({"ghost.json": GHOST.read_bytes(), name: b"x"}), "ghost.zip")
    assert "outside its folder" in body["message"]
    _nothing_kept(tenant)


@pytest.mark.django_db
def test_a_zip_bomb_stops_at_the_size_limit(tenant, api, settings):
    settings.IMPORT_MAX_BYTES = 1_000_000
    data = _zip({"ghost.json": GHOST.read_bytes(), "content/images/a.png": b"\0" * 50_000_000})
    assert len(data) < 100_000  # 50 MB of zeros deflate to about 50 kB
    body = _refused(api, data, "ghost.zip")
    assert "larger than the limit of 1 MB once unpacked" in body["message"]
    assert body["errors"][0]["field"] == "zip:content/images/a.png"
    _nothing_kept(tenant)


@pytest.mark.django_db
def test_neither_wordpress_nor_ghost(tenant, api):
    body = _refused(api, b"GIF89a....", "picture.gif")
    assert "neither a WordPress export" in body["message"]
    body = _refused(api, b"<html><body>hi</body></html>", "page.html")
    assert "starts with <rss>" in body["message"]
