"""Requests that race each other, over real HTTP against a running server (`live_app`: gunicorn
with threaded workers on the test database), released together by a barrier. A race ends in
2xx, 404 or 409, never a 500."""
from __future__ import annotations

from collections import Counter

import pytest
from django_tenants.utils import schema_context

from apps.content.models import Category, Post, Tag
from apps.content.tests.conftest import make_category, make_media, make_post, make_tag, post_payload
from apps.core.testing import create_user, parallel, tenant_admin, token_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(180)]


def statuses(responses) -> Counter:
    return Counter(response.status_code for response in responses)


def test_parallel_creates_with_the_same_custom_slug_all_succeed_with_unique_slugs(live_app, make_tenant):
    tenant = make_tenant()
    token = token_for(tenant, tenant_admin(tenant))
    category, media = make_category(tenant), make_media(tenant)
    body = post_payload(category, media, customSlug="launch-day", postTitle="Launch day")
    responses = parallel([
        lambda: live_app.request("POST", tenant, "/api/posts/upload", token=token, json_body=body)
        for _ in range(20)
    ])
    assert statuses(responses) == Counter({201: 20}), (statuses(responses), live_app.log())
    slugs = [response.json()["post"]["slug"] for response in responses]
    assert len(set(slugs)) == 20
    assert set(slugs) == {"launch-day", *(f"launch-day-{n}" for n in range(2, 21))}
    with schema_context(tenant.schema_name):
        assert Post.objects.filter(slug__startswith="launch-day").count() == 20


def test_parallel_slug_changes_to_the_same_custom_slug_all_succeed(live_app, make_tenant):
    tenant = make_tenant()
    token = token_for(tenant, tenant_admin(tenant))
    category, media = make_category(tenant), make_media(tenant)
    posts = [make_post(tenant, categories=[category], featured_image=media) for _ in range(8)]
    responses = parallel([
        (lambda post=post: live_app.request("PUT", tenant, f"/api/posts/{post.id}", token=token,
                                            json_body={"customSlug": "same-place"}))
        for post in posts
    ])
    assert statuses(responses) == Counter({200: 8}), (statuses(responses), live_app.log())
    assert len({response.json()["post"]["slug"] for response in responses}) == 8


@pytest.mark.parametrize("kind", ["tags", "categories", "posts", "media"])
def test_simultaneous_deletes_of_one_object_one_wins_the_others_get_404(live_app, make_tenant, kind):
    tenant = make_tenant()
    token = token_for(tenant, tenant_admin(tenant))
    target = {
        "tags": lambda: make_tag(tenant),
        "categories": lambda: make_category(tenant),
        "posts": lambda: make_post(tenant, categories=[make_category(tenant)], featured_image=make_media(tenant)),
        "media": lambda: make_media(tenant),
    }[kind]()
    for _round in range(2):  # a race is not won the same way every time
        responses = parallel([
            lambda: live_app.request("DELETE", tenant, f"/api/{kind}/{target.id}", token=token) for _ in range(4)
        ])
        assert statuses(responses) == Counter({200: 1, 404: 3}), (statuses(responses), live_app.log())
        for response in responses:
            if response.status_code == 404:
                assert response.json()["error"] == "not_found"
        target = {
            "tags": lambda: make_tag(tenant),
            "categories": lambda: make_category(tenant),
            "posts": lambda: make_post(tenant, categories=[make_category(tenant)], featured_image=make_media(tenant)),
            "media": lambda: make_media(tenant),
        }[kind]()


def test_updates_racing_a_delete_get_404_not_500(live_app, make_tenant):
    tenant = make_tenant()
    token = token_for(tenant, tenant_admin(tenant))
    tag, category = make_tag(tenant), make_category(tenant)
    post = make_post(tenant, categories=[category], featured_image=make_media(tenant))
    calls = [
        lambda: live_app.request("DELETE", tenant, f"/api/tags/{tag.id}", token=token),
        *[(lambda n=n: live_app.request("PUT", tenant, f"/api/tags/{tag.id}", token=token,
                                        json_body={"name": f"Renamed {n}"})) for n in range(3)],
        lambda: live_app.request("DELETE", tenant, f"/api/posts/{post.id}", token=token),
        *[(lambda n=n: live_app.request("PUT", tenant, f"/api/posts/{post.id}", token=token,
                                        json_body={"title": f"Retitled {n}"})) for n in range(3)],
    ]
    responses = parallel(calls)
    assert set(statuses(responses)) <= {200, 404}, (statuses(responses), live_app.log())
    assert responses[0].status_code == 200 and responses[4].status_code == 200
    with schema_context(tenant.schema_name):
        assert not Tag.objects.filter(pk=tag.pk).exists() and not Post.objects.filter(pk=post.pk).exists()
        assert Category.objects.filter(pk=category.pk).exists()


def test_an_author_edit_racing_an_editor_scheduling_never_changes_a_scheduled_post(live_app, make_tenant):
    """Either the author's edit lands first (then the editor schedules the edited draft) or the
    editor's schedule lands first (then the author's edit is refused): the text that goes live is
    always text the editor saw."""
    tenant = make_tenant()
    author, editor = create_user(tenant, "author"), create_user(tenant, "editor")
    author_token, editor_token = token_for(tenant, author), token_for(tenant, editor)
    for _round in range(3):
        post = make_post(tenant, author=author, title="Reviewed title", categories=[make_category(tenant)],
                         featured_image=make_media(tenant))
        schedule, edit = parallel([
            lambda: live_app.request("PUT", tenant, f"/api/posts/{post.id}", token=editor_token,
                                     json_body={"status": "published", "scheduledPublishDate": "2099-01-01"}),
            lambda: live_app.request("PUT", tenant, f"/api/posts/{post.id}", token=author_token,
                                     json_body={"title": "Unreviewed title"}),
        ])
        assert schedule.status_code == 200, schedule.text
        assert edit.status_code in (200, 403), (edit.status_code, live_app.log())
        with schema_context(tenant.schema_name):
            saved = Post.objects.get(pk=post.pk)
        assert saved.publish_scheduled
        if edit.status_code == 200:  # it landed first: it changed a draft, which the editor then scheduled
            assert edit.json()["post"]["isScheduled"] is False
            assert schedule.json()["post"]["title"] == "Unreviewed title"
        if edit.status_code == 403:
            assert saved.title == "Reviewed title"
            assert edit.json()["message"] == (
                "Authors cannot change a scheduled post. Ask an editor or admin to make the change.")
