"""Backup and restore of one company: a round trip loses no row and no file."""
import io

import pytest
from django.core.management import call_command
from django.db import connection
from django_tenants.utils import quote_schema_name, schema_context
from PIL import Image

from apps.accounts.models import User
from apps.core.errors import Conflict
from apps.core.testing import create_user, tenant_admin
from apps.media.storage import media_keys
from lifecycle.backup import _columns_sql, _tables, tenant_backup, tenant_restore
from tenants.models import Client


def png(color) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (40, 30), color).save(out, format="PNG")
    return out.getvalue()


def populate(tenant):
    from apps.content.models import Category, Post, Tag
    from apps.media.services import media_create_from_bytes

    admin = tenant_admin(tenant)
    create_user(tenant, "editor", username="eddie")
    with schema_context(tenant.schema_name):
        media = media_create_from_bytes(data=png("red"), file_name="red.png", alt_text="Red", uploaded_by=admin)
        category = Category.objects.create(name="News", slug="news", description="All the news")
        tag = Tag.objects.create(name="Launch", slug="launch")
        post = Post.objects.create(title="Hello", slug="hello", excerpt="Hi", content="<p>Hello <b>world</b></p>",
                                   status="published", featured_image=media, author=admin,
                                   meta_title="Hello", meta_description="Hi there")
        post.categories.add(category)
        post.tags.add(tag)


# The plan's counters are counted again by a restore (a cache of COUNT/SUM of the rows): compared
# by what they count (usage), not by their rows.
COUNTERS = "plans_companycounter"


def snapshot(schema: str) -> dict:
    quoted = quote_schema_name(schema)
    rows = {}
    with connection.cursor() as cursor:
        for table, columns in _tables(schema).items():
            if table == COUNTERS:
                continue
            cursor.execute(f'SELECT {_columns_sql(columns)} FROM {quoted}."{table}"')
            rows[table] = sorted(repr(row).replace(f"{schema}/", "SCHEMA/") for row in cursor.fetchall())
    rows[COUNTERS] = usage(schema)
    return rows


def usage(schema: str) -> list[tuple[str, int]]:
    """What the company uses of each counted limit (counted now when a counter is not)."""
    from apps.plans.rules import plan_usage

    company = Client.objects.get(schema_name=schema)
    with schema_context(schema):
        return [(item.what, item.used) for item in plan_usage(company)]


def files(schema: str) -> dict:
    from apps.media.storage import media_storage

    storage = media_storage()
    out = {}
    for key in media_keys(storage, f"{schema}/"):
        with storage.open(key, "rb") as handle:
            out[key[len(schema) + 1:]] = handle.read()
    return out


@pytest.fixture(autouse=True)
def media_root(settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path / "media")


def test_round_trip_into_a_new_company_keeps_every_row_and_file(make_tenant, tmp_path):
    source = make_tenant()
    populate(source)
    path = tmp_path / "backup.tar.gz"
    summary = tenant_backup(client=source, path=path)
    assert summary.rows >= 6 and summary.files >= 1
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT count(*) FROM {quote_schema_name(source.schema_name)}.{COUNTERS}")
        counter_rows = cursor.fetchone()[0]

    restored = tenant_restore(path=path, subdomain="restored-co")
    assert restored.schema_name != source.schema_name
    before, after = snapshot(source.schema_name), snapshot(restored.schema_name)
    assert sum(len(rows) for table, rows in before.items() if table != COUNTERS) + counter_rows == summary.rows
    assert after == before
    # Not carried but rebuilt by the posts table's triggers as the posts are loaded: the listing
    # that `?locale=` lists read.
    listing = "SELECT post_id, language, group_published FROM {}.content_post_listing ORDER BY post_id"
    with connection.cursor() as cursor:
        cursor.execute(listing.format(quote_schema_name(source.schema_name)))
        kept = cursor.fetchall()
        cursor.execute(listing.format(quote_schema_name(restored.schema_name)))
        assert cursor.fetchall() == kept != []
    assert files(restored.schema_name) == files(source.schema_name) != {}
    # Storage keys in the rows point at the new company's files.
    from apps.media.models import Media

    with schema_context(restored.schema_name):
        assert Media.objects.get().storage_key.startswith(f"{restored.schema_name}/")
        assert User.objects.filter(username="eddie").exists()
    assert restored.api_key != source.api_key
    assert Client.objects.get(subdomain="restored-co").name == source.name


def test_restore_over_the_same_company_brings_back_the_backed_up_state(make_tenant, tmp_path):
    source = make_tenant()
    populate(source)
    expected_rows, expected_files = snapshot(source.schema_name), files(source.schema_name)
    path = tmp_path / "backup.tar.gz"
    call_command("tenant_backup", source.subdomain, str(path), stdout=io.StringIO())

    from apps.content.models import Post

    with schema_context(source.schema_name):
        Post.objects.all().delete()
        User.objects.filter(username="eddie").delete()
        create_user(source, "viewer", username="intruder")

    with pytest.raises(Conflict):
        tenant_restore(path=path)
    call_command("tenant_restore", str(path), "--replace", stdout=io.StringIO())
    assert snapshot(source.schema_name) == expected_rows
    assert files(source.schema_name) == expected_files


def test_restore_over_the_same_company_counts_its_plan_usage_again(make_tenant, tmp_path):
    from apps.content.models import Post
    from apps.plans.rules import plan_spend
    from apps.plans.rules import _used

    source = make_tenant()
    populate(source)
    path = tmp_path / "backup.tar.gz"
    tenant_backup(client=source, path=path)
    with schema_context(source.schema_name):
        for n in range(3):  # three more posts, through the plan's counter, after the backup
            Post.objects.create(title=f"Later {n}", slug=f"later-{n}", excerpt="x", content="<p>x</p>")
            plan_spend("posts")
    call_command("tenant_restore", str(path), "--replace", stdout=io.StringIO())
    source.refresh_from_db()
    with schema_context(source.schema_name):
        assert Post.objects.count() == 1
    with schema_context(source.schema_name):
        assert _used(source, "posts") == 1  # the backup's one post, not the four before the restore
