"""An image processed beforehand (media_process with its renditions, as a blog import does in its
threads) is stored in one write: the same files and record the renditions task makes, no task
queued, one content change."""
from __future__ import annotations

import pytest
from django_tenants.utils import schema_context
from PIL import Image

from apps.core import testing
from apps.core.content_version import content_version_get
from apps.core.models import OutboxMessage
from apps.media.models import Media
from apps.media.services import RENDITIONS_TASK, media_create_processed, media_process
from apps.media.tests.conftest import make_image


@pytest.mark.django_db
def test_renditions_made_beforehand_are_stored_with_the_row_and_no_task_follows(
        tenant, media_root, django_capture_on_commit_callbacks):
    admin = testing.tenant_admin(tenant)
    processed = media_process(data=make_image("PNG", (1000, 700)), renditions=True)
    with schema_context(tenant.schema_name):
        version = content_version_get()
        with django_capture_on_commit_callbacks(execute=True):
            media = media_create_processed(processed=processed, file_name="diagram.png", alt_text="A diagram",
                                           uploaded_by=admin)
        assert content_version_get() == version + 1
        assert not OutboxMessage.objects.filter(task=RENDITIONS_TASK).exists()
        stored = Media.objects.get(pk=media.pk)
    rendition_dir = media_root / tenant.schema_name / "media" / str(media.pk) / "renditions"
    assert sorted(p.name for p in rendition_dir.iterdir()) == sorted(
        f"{w}w.{ext}" for w in (150, 480, 960, 1000) for ext in ("png", "webp"))
    assert stored.renditions["small"]["webp"].endswith("/renditions/480w.webp")
    assert Image.open(rendition_dir / "480w.webp").size == (480, 336)
    assert (stored.width, stored.height, stored.alt_text) == (1000, 700, "A diagram")


@pytest.mark.django_db
def test_without_renditions_the_task_is_queued_as_for_an_upload(tenant):
    with schema_context(tenant.schema_name):
        media = media_create_processed(processed=media_process(data=make_image("PNG", (300, 200))),
                                       file_name="small.png", alt_text="", uploaded_by=None)
        assert Media.objects.get(pk=media.pk).renditions == {}
        assert OutboxMessage.objects.filter(task=RENDITIONS_TASK, args=[str(media.pk)]).exists()
