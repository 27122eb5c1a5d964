"""Translations raced over real HTTP (gunicorn, `live_app`), released together: slugs are unique
per language and a group has one post per language, whoever commits first."""
from __future__ import annotations

from collections import Counter

import pytest
from django_tenants.utils import schema_context

from apps.content.models import Post
from apps.content.tests.conftest import make_category, make_media, make_post, post_payload
from apps.core.testing import parallel, tenant_admin, token_for
from tenants.models import Client

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(180)]


def _company(make_tenant):
    tenant = make_tenant()
    Client.objects.filter(pk=tenant.pk).update(languages=["en", "fr", "de"])
    return tenant, token_for(tenant, tenant_admin(tenant))


def test_two_requests_adding_the_same_translation_one_201_one_409(live_app, make_tenant):
    tenant, token = _company(make_tenant)
    source = make_post(tenant, slug="launch", categories=[make_category(tenant)], featured_image=make_media(tenant))
    for _round in range(3):
        language = ("fr", "de")[_round % 2] if _round < 2 else "fr"
        responses = parallel([
            lambda: live_app.request("POST", tenant, f"/api/posts/{source.id}/translations", token=token,
                                     json_body={"language": language})
            for _ in range(2)])
        codes = Counter(response.status_code for response in responses)
        expected = Counter({201: 1, 409: 1}) if _round < 2 else Counter({409: 2})
        assert codes == expected, (codes, live_app.log())
        assert all(r.json()["code"] == "translation_exists" for r in responses if r.status_code == 409)
    with schema_context(tenant.schema_name):
        assert sorted(Post.objects.filter(translation_group=source.translation_group)
                      .values_list("language", flat=True)) == ["de", "en", "fr"]


def test_the_same_slug_at_once_in_one_language_is_given_once_in_two_languages_twice(live_app, make_tenant):
    tenant, token = _company(make_tenant)
    category, media = make_category(tenant), make_media(tenant)

    def create(language):
        body = post_payload(category, media, customSlug="launch-day", language=language)
        return lambda: live_app.request("POST", tenant, "/api/posts/upload", token=token, json_body=body)

    responses = parallel([create("fr"), create("fr"), create("en"), create("de")])
    assert Counter(r.status_code for r in responses) == Counter({201: 4}), live_app.log()
    slugs = sorted((r.json()["post"]["language"], r.json()["post"]["slug"]) for r in responses)
    assert slugs == [("de", "launch-day"), ("en", "launch-day"), ("fr", "launch-day"), ("fr", "launch-day-2")]
