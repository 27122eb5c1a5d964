"""GET /api/v1/redirects: the old addresses of a company's imported, published posts, for its
website to answer 301s; behind the content key, one company's map never seen by another."""
from __future__ import annotations

import pytest
from django_tenants.utils import schema_context

from apps.content.models import Post
from apps.core import testing
from apps.portability import services
from apps.portability.tests.test_import_samples import GHOST, WXR, upload


def _import(tenant, path):
    api = testing.Api(tenant, user=testing.tenant_admin(tenant))
    job = upload(api, path).json()["job"]["id"]
    assert api.post(f"/api/imports/{job}/start", {"downloadImages": False}).status_code == 202
    with schema_context(tenant.schema_name):
        services.import_run(job_id=job)


def site(tenant, key=None):
    return testing.Api(tenant, headers={"x-api-key": key if key is not None else tenant.api_key})


@pytest.mark.django_db
def test_the_redirect_map_names_each_old_address_and_the_new_slug(tenant):
    _import(tenant, WXR)
    reply = site(tenant).get("/api/v1/redirects")
    assert reply.status_code == 200
    redirects = {r["oldPath"]: r["slug"] for r in reply.json()["data"]["redirects"]}
    assert redirects["/2018/10/20/keyboard-navigation/"] == "keyboard-navigation"
    assert redirects["/?p=1724"] == "keyboard-navigation"
    with schema_context(tenant.schema_name):
        # the sample's draft (its password-protected post is published, members-only: test_visibility)
        drafts = set(Post.objects.filter(status="draft", publish_scheduled=False).values_list("slug", flat=True))
        public = Post.objects.filter(status="published").count()
    assert len(drafts) == 1 and not drafts & set(redirects.values())  # a draft has no public address to go to
    assert len(set(redirects.values())) == public


@pytest.mark.django_db
def test_a_taken_slug_gets_a_suffix_and_the_old_address_follows_it(tenant):
    from apps.content.tests.factories import make_post

    make_post(tenant, "Mine", slug="themes", status="published")
    _import(tenant, GHOST)
    redirects = {r["oldPath"]: r["slug"] for r in site(tenant).get("/api/v1/redirects").json()["data"]["redirects"]}
    assert redirects == {"/themes/": "themes-2", "/advanced-markdown/": "advanced-markdown"}


@pytest.mark.django_db
def test_the_map_needs_the_company_key_and_shows_only_its_own(tenant, other_tenant):
    _import(tenant, GHOST)
    assert site(tenant, key="").get("/api/v1/redirects").status_code == 401
    assert site(other_tenant, key=tenant.api_key).get("/api/v1/redirects").status_code == 401
    assert site(other_tenant).get("/api/v1/redirects").json()["data"]["redirects"] == []
