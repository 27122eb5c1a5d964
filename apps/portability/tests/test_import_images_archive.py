"""The images of a moved blog: its images folder uploaded beside the export (a zip of WordPress's
wp-content/uploads or Ghost's content/images) or inside the export's zip, matched by path to every
image of the posts with or without the old host (resized copies resolving to the original); an
image that cannot be brought keeps its old address, listed per post, until "Fetch missing images"
brings it and rewrites the posts; the dry run counts the images again on a re-run; the archive is
checked as the export's zip is (docs/import-export.md#images)."""
from __future__ import annotations

import io
import json
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django_tenants.utils import schema_context

from apps.content.models import Post
from apps.media.models import Media
from apps.portability import services
from apps.portability.fetch import fetch_image_bytes
from apps.portability.models import MissingImage
from apps.portability.tests.imageserver import ImageServer, png
from apps.portability.tests.test_import_languages import HEAD
from apps.portability.tests.test_import_samples import run

OLD = "https://old.example"


def zipped(files: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return out.getvalue()


def wxr(missing_host: str = "https://gone.example") -> bytes:
    body = (f'<p><img src="{OLD}/wp-content/uploads/2020/01/bell-300x200.jpg" alt="bell" '
            f'srcset="{OLD}/wp-content/uploads/2020/01/bell-1024x576.jpg 1024w"></p>'
            '<p><img src="/wp-content/uploads/2020/01/cat.png" alt="cat"></p>'
            f'<p><img src="{missing_host}/wp-content/uploads/2019/05/lost.png" alt="lost"></p>')
    return (HEAD + f"""<item><title>Bell</title><link>{OLD}/bell/</link><dc:creator>admin</dc:creator>
<content:encoded><![CDATA[{body}]]></content:encoded><excerpt:encoded><![CDATA[]]></excerpt:encoded>
<wp:post_id>1</wp:post_id><wp:post_date_gmt>2020-01-02 10:00:00</wp:post_date_gmt><wp:post_name>bell</wp:post_name>
<wp:status>publish</wp:status><wp:post_type>post</wp:post_type>
<wp:postmeta><wp:meta_key>_thumbnail_id</wp:meta_key><wp:meta_value>9</wp:meta_value></wp:postmeta></item>
<item><title>cover.jpg</title><wp:post_id>9</wp:post_id><wp:post_type>attachment</wp:post_type>
<wp:status>inherit</wp:status><wp:post_parent>1</wp:post_parent>
<wp:attachment_url>{missing_host}/wp-content/uploads/2019/05/cover.png</wp:attachment_url></item>
</channel></rss>""").encode()


UPLOADS = {"wp-content/uploads/2020/01/bell.jpg": png(40, 30, (10, 10, 200)),
           "wp-content/uploads/2020/01/bell-300x200.jpg": png(30, 20), "wp-content/uploads/2020/01/cat.png": png(9, 9),
           "wp-content/uploads/2020/01/notes.txt": b"not an image"}


def upload_with_images(api, export: bytes, name: str, images: bytes | None):
    files = {"file": SimpleUploadedFile(name, export)}
    if images is not None:
        files["images"] = SimpleUploadedFile("uploads.zip", images)
    reply = api.http.post("/api/imports", files, headers=api.headers)
    connection.set_schema_to_public()
    return reply


@pytest.mark.django_db
def test_the_uploads_archive_brings_every_image_by_path_and_the_rest_keep_their_address(tenant, api):
    reply = upload_with_images(api, wxr(), "export.xml", zipped(UPLOADS))
    assert reply.status_code == 201, reply.content
    job = reply.json()["job"]
    assert job["plan"]["images"] == {"referenced": 4, "inArchive": 2, "alreadyImported": 0, "toDownload": 2,
                                     "archiveFiles": 3}
    run(tenant, job["id"])  # images not downloaded: only the archive
    report = api.get(f"/api/imports/{job['id']}").json()["job"]["report"]
    assert report["counts"]["image"]["created"] == 2  # bell (its original, for its resized copy) and cat
    assert report["imagesKeptAsAddress"] == 2
    with schema_context(tenant.schema_name):
        post = Post.objects.get(slug="bell")
        bell = Media.objects.get(file_name__startswith="bell")
        assert (bell.width, bell.height) == (40, 30)  # the original, not the 300x200 copy
        assert f"{OLD}/wp-content/uploads" not in post.content and "/wp-content/uploads/2020" not in post.content
        assert "https://gone.example/wp-content/uploads/2019/05/lost.png" in post.content  # kept as its address
        assert post.featured_image_id is None
        assert set(MissingImage.objects.values_list("role", "url")) == {
            ("content", "https://gone.example/wp-content/uploads/2019/05/lost.png"),
            ("featured_image", "https://gone.example/wp-content/uploads/2019/05/cover.png")}
    listed = api.get("/api/imports/missing-images", {"post": str(post.pk)}).json()["posts"]
    assert [p["slug"] for p in listed] == ["bell"]
    assert {(i["role"], i["url"]) for i in listed[0]["images"]} == {
        ("content", "https://gone.example/wp-content/uploads/2019/05/lost.png"),
        ("featured_image", "https://gone.example/wp-content/uploads/2019/05/cover.png")}
    assert "not downloaded" in listed[0]["images"][0]["reason"]


@pytest.mark.django_db
def test_fetch_missing_images_brings_them_and_rewrites_the_posts(tenant, api, settings):
    with ImageServer() as server:
        settings.IMPORT_FETCH_ALLOWED_HOSTS = [server.host]
        reply = upload_with_images(api, wxr(missing_host=server.url), "export.xml", zipped(UPLOADS))
        job = reply.json()["job"]
        run(tenant, job["id"])
        with schema_context(tenant.schema_name):
            assert MissingImage.objects.count() == 2
        queued = api.post(f"/api/imports/{job['id']}/fetch-missing", {})
        assert queued.status_code == 202, queued.content
        with schema_context(tenant.schema_name):  # what the queued task runs
            result = services.import_fetch_missing(job_id=job["id"], fetch=fetch_image_bytes)
    assert result == {"fetched": 2, "posts": 1, "missing": 0}
    with schema_context(tenant.schema_name):
        post = Post.objects.get(slug="bell")
        assert server.url not in post.content and post.featured_image_id is not None
        assert not MissingImage.objects.exists()
    assert api.get("/api/imports/missing-images").json()["posts"] == []


@pytest.mark.django_db
def test_a_ghost_zip_matches_ghost_urls_and_resized_copies_to_the_original(tenant, api):
    export = json.dumps({"db": [{"meta": {"version": "5.80.0"}, "data": {"posts": [{
        "id": "p1", "title": "Ghosted", "slug": "ghosted", "status": "published",
        "html": '<img src="__GHOST_URL__/content/images/size/w600/2024/03/harbour.jpg" alt="h">',
        "feature_image": "__GHOST_URL__/content/images/2024/03/harbour.jpg"}]}}]}).encode()
    data = zipped({"export/site.ghost.json": export, "export/content/images/2024/03/harbour.jpg": png(50, 40),
                   "export/content/images/size/w600/2024/03/harbour.jpg": png(25, 20)})
    reply = upload_with_images(api, data, "ghost.zip", None)
    assert reply.status_code == 201, reply.content
    job = reply.json()["job"]
    assert job["plan"]["images"]["inArchive"] == 2 and job["plan"]["images"]["toDownload"] == 0
    run(tenant, job["id"])
    with schema_context(tenant.schema_name):
        post = Post.objects.get(slug="ghosted")
        assert "__GHOST_URL__" not in post.content and post.featured_image is not None
        assert Media.objects.count() == 1 and (post.featured_image.width, post.featured_image.height) == (50, 40)


@pytest.mark.django_db
def test_a_wordpress_export_zipped_with_its_uploads_is_read(tenant, api):
    reply = upload_with_images(api, zipped({"export.xml": wxr(), **UPLOADS}), "site.zip", None)
    assert reply.status_code == 201, reply.content
    assert reply.json()["job"]["plan"]["images"]["inArchive"] == 2


@pytest.mark.django_db
def test_a_re_run_counts_the_images_the_posts_reference(tenant, api):
    first = upload_with_images(api, wxr(), "export.xml", None).json()["job"]
    run(tenant, first["id"])
    again = upload_with_images(api, wxr(), "export.xml", None).json()["job"]
    assert again["plan"]["counts"]["post"] == {"update": 1}
    assert again["plan"]["counts"]["image"]["referenced"] == 4  # was 0 before a re-run counted them


@pytest.mark.django_db
@pytest.mark.parametrize("archive, says", [
    (zipped({"../../etc/cron.d/x.jpg": png()}), "outside its folder"),
    (b"not a zip at all", "must be a zip"),
    (zipped({"readme.txt": b"x"}), "holds no image"),
])
def test_a_hostile_images_archive_is_refused_and_nothing_is_kept(tenant, api, archive, says):
    reply = upload_with_images(api, wxr(), "export.xml", archive)
    assert reply.status_code == 400, reply.content
    assert says in reply.json()["message"] and reply.json()["errors"][0]["field"] == "images"
    with schema_context(tenant.schema_name):
        from apps.portability.models import ImportJob
        assert not ImportJob.objects.exists()


@pytest.mark.django_db
def test_an_archive_past_the_size_limit_once_unpacked_is_refused(tenant, api, settings):
    settings.IMPORT_MAX_BYTES = 200_000
    bomb = io.BytesIO()
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("wp-content/uploads/big.png", b"\0" * 300_000)
    reply = upload_with_images(api, wxr(), "export.xml", bomb.getvalue())
    assert reply.status_code == 400 and "once unpacked" in reply.json()["message"]


@pytest.mark.django_db
def test_a_pixel_bomb_in_the_archive_is_reported_not_stored(tenant, api):
    from apps.portability.tests.imageserver import bomb_png
    reply = upload_with_images(api, wxr(), "export.xml", zipped({**UPLOADS, "wp-content/uploads/2020/01/cat.png":
                                                                bomb_png()}))
    job = reply.json()["job"]
    run(tenant, job["id"])
    report = api.get(f"/api/imports/{job['id']}").json()["job"]["report"]
    cat = [i for i in report["items"] if i["kind"] == "image" and i["item"].endswith("cat.png")]
    assert cat and cat[0]["outcome"] == "missing"
    with schema_context(tenant.schema_name):
        assert MissingImage.objects.filter(url__endswith="cat.png").exists()
