"""What an import with images costs the caches: its posts and their images (renditions included)
come to one content version bump, one purge of the cache tier and one webhook delivery, whatever
the number of images; and when the job reports done, the public API already shows the imported
posts with their new image addresses, and every image has its renditions. Real parts: a Celery worker running the job
(and any task it leaves behind), a local image host, a webhook receiver and an HTTP server
answering the cache tier's PURGE."""
from __future__ import annotations

import json
import time

import pytest
from django_tenants.utils import schema_context

from apps.core import testing
from apps.core.content_version import content_version_get
from apps.core.edge_cache import PURGE_TASK
from apps.core.models import OutboxMessage
from apps.core.tests.test_events import CacheNode
from apps.media.models import Media
from apps.media.services import RENDITIONS_TASK
from apps.media.storage import MediaUrls
from apps.portability.tests.imageserver import ImageServer
from apps.portability.tests.test_import_job import _wait
from apps.portability.tests.test_import_samples import GHOST, upload_bytes
from apps.webhooks.tests.conftest import _webhook_settings, receiver  # noqa: F401 - fixtures of the webhook tests

IMAGES_PER_POST = 4  # three in the content, one featured


def _ghost_with_images(base: str) -> tuple[bytes, int]:
    """The Ghost sample, each post with three inline images and a featured one on `base`."""
    document = json.loads(GHOST.read_text())
    posts = document["db"][0]["data"]["posts"]
    for n, post in enumerate(posts):
        inline = "".join(f'<p>Picture {i}</p><img src="{base}/images/{n}-{i}.png" alt="picture {i}">' for i in range(3))
        post["html"] = f"<p>Post {n}</p>{inline}"
        post["mobiledoc"] = post["lexical"] = None
        post["feature_image"] = f"{base}/images/{n}-featured.jpg"
        post["status"] = "published"
    return json.dumps(document).encode(), len(posts) * IMAGES_PER_POST


def _settled(seconds: float = 3.0) -> None:
    """Wait until no renditions task or purge is left to do, then a little longer: whatever would
    come late (a renditions task's bump and purge) would come now."""
    deadline = time.monotonic() + 120
    while (OutboxMessage.objects.filter(task__in=[RENDITIONS_TASK, PURGE_TASK]).exists()
           and time.monotonic() < deadline):
        time.sleep(0.3)
    time.sleep(seconds)


@pytest.mark.timeout(600)
@pytest.mark.django_db(transaction=True)
def test_an_import_with_images_bumps_the_version_once_purges_once_and_sends_one_webhook(
        make_tenant, receiver, celery_worker_process, settings):  # noqa: F811
    tenant = make_tenant()
    admin = testing.tenant_admin(tenant)
    api = testing.Api(tenant, user=admin)
    endpoint = api.post("/api/webhooks", {"url": receiver.url, "events": [
        "import.completed", "post.published", "media.created", "media.updated"]})
    receiver.secret = endpoint.json()["endpoint"]["secret"]
    with ImageServer() as images, CacheNode() as node:
        celery_worker_process.stop()
        celery_worker_process.env.update(IMPORT_FETCH_ALLOWED_HOSTS=images.host, EDGE_CACHE_URLS=node.url)
        settings.EDGE_CACHE_URLS = [node.url]
        celery_worker_process.start()
        with schema_context(tenant.schema_name):
            version = content_version_get()
        data, image_count = _ghost_with_images(images.url)
        job = upload_bytes(api, data, "ghost.json").json()["job"]
        assert api.post(f"/api/imports/{job['id']}/start", {"downloadImages": True}).status_code == 202
        job, _ = _wait(api, job["id"])
        assert job["status"] == "completed", job["error"]
        # Every post image is brought; the author's profile and cover images are relative paths of
        # the old site that the file does not hold (reported missing, apps.portability.site_import).
        assert job["report"]["counts"]["image"] == {"created": image_count, "missing": 2}
        assert sorted(item["item"] for item in job["report"]["items"] if item["outcome"] == "missing") == [
            "/content/images/2017/05/authorcover.jpeg", "/content/images/2017/05/authorlogo.jpeg"]

        # Done means fresh: the public API shows the posts with their new image addresses.
        site = testing.Api(tenant, headers={"x-api-key": tenant.api_key})
        posts = site.get("/api/v1/posts", {"limit": 50}).json()["data"]["posts"]
        assert len(posts) == 2
        with schema_context(tenant.schema_name):
            base = MediaUrls.current().cdn("")
            assert not Media.objects.filter(renditions={}).exists()  # made by the import itself
        for summary in posts:
            post = site.get(f"/api/v1/posts/slug/{summary['slug']}").json()["data"]["post"]
            assert images.url not in post["content"] and post["content"].count(f'src="{base}') == 3
            assert post["featuredImage"]["cdnUrl"].startswith(base), post["featuredImage"]

        _settled()
        with schema_context(tenant.schema_name):
            assert Media.objects.count() == image_count
            assert content_version_get() == version + 1  # not 1 + one per image
        assert node.received == [f"host-{testing.host_of(tenant)}"]  # one purge of the company
    [delivery] = receiver.received
    assert delivery["valid"] and delivery["json"]["event"] == "import.completed"
    counts = delivery["json"]["data"]["import"]["counts"]
    assert counts["media.created"] == image_count and counts["post.published"] == 2
