"""Sending by email from a tool through Ghost's Admin API (`?newsletter=<slug>&email_segment=`, as
Ghost's own clients ask): a published post goes to the newsletter's members once, a label narrows
it, a draft is not sent, a scheduled post waits for its publication; a wrong newsletter or segment
is Ghost's 422 and writes nothing."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from django_tenants.utils import schema_context

from apps.ghost_api.tests.admin_client import Admin, ghost_error, make_integration
from apps.members.tests import factories
from apps.newsletters.models import Send
from apps.newsletters.tests.helpers import run_sends


@pytest.fixture
def tool(tenant):
    _, _, key = make_integration(tenant, "Zapier")
    return Admin(tenant, key)


@pytest.fixture
def readers(tenant):
    newsletter = factories.default_newsletter(tenant)
    for n in range(3):
        factories.member(tenant, email=f"g{n}@example.com", labels=["Early Birds"] if n == 0 else [])
    return newsletter


def _sends(tenant) -> list[tuple[str, str, str]]:
    with schema_context(tenant.schema_name):
        return list(Send.objects.values_list("post__title", "status", "label_name"))


def test_a_published_post_is_sent_to_the_newsletter_once(tool, tenant, readers, smtp_server):
    response = tool.post(f"posts/?source=html&newsletter={readers.slug}",
                         {"posts": [{"title": "By email", "html": "<p>Hi readers</p>", "status": "published"}]})
    assert response.status_code == 201, response.content
    post = response.json()["posts"][0]
    run_sends()
    received = smtp_server.wait_for(3)
    assert sorted(str(message["To"]) for message in received) == ["g0@example.com", "g1@example.com",
                                                                   "g2@example.com"]
    assert all(str(message["Subject"]) == "By email" for message in received)
    # An edit that names the newsletter again sends nothing more.
    again = tool.put(f"posts/{post['id']}/?newsletter={readers.slug}",
                     {"posts": [{"title": "By email, edited", "updated_at": post["updated_at"]}]})
    assert again.status_code == 200, again.content
    assert run_sends() == 0 and len(_sends(tenant)) == 1


def test_a_label_segment_narrows_it_and_a_draft_waits(tool, tenant, readers, smtp_server):
    draft = tool.post(f"posts/?source=html&newsletter={readers.slug}&email_segment=label:early-birds",
                      {"posts": [{"title": "Draft first", "html": "<p>x</p>", "status": "draft"}]})
    assert draft.status_code == 201, draft.content
    assert _sends(tenant) == []  # a draft is not sent
    post = draft.json()["posts"][0]
    published = tool.put(f"posts/{post['id']}/?newsletter={readers.slug}&email_segment=label:early-birds",
                         {"posts": [{"status": "published", "updated_at": post["updated_at"]}]})
    assert published.status_code == 200, published.content
    run_sends()
    [message] = smtp_server.wait_for(1)
    assert str(message["To"]) == "g0@example.com"
    assert _sends(tenant) == [("Draft first", "sent", "Early Birds")]


def test_a_scheduled_post_is_sent_when_it_publishes(tool, tenant, readers):
    at = (timezone.now() + timedelta(hours=2)).isoformat().replace("+00:00", "Z")
    response = tool.post(f"posts/?source=html&newsletter={readers.slug}",
                         {"posts": [{"title": "Later", "html": "<p>x</p>", "status": "scheduled",
                                     "published_at": at}]})
    assert response.status_code == 201, response.content
    assert _sends(tenant) == [("Later", "scheduled", "")]


@pytest.mark.parametrize("query", ["newsletter=no-such-newsletter", "newsletter={slug}&email_segment=status:paid",
                                   "newsletter={slug}&email_segment=label:nobody"])
def test_a_wrong_newsletter_or_segment_is_ghosts_422_and_writes_nothing(tool, tenant, readers, query):
    response = tool.post(f"posts/?source=html&{query.format(slug=readers.slug)}",
                         {"posts": [{"title": "Refused", "html": "<p>x</p>", "status": "published"}]})
    assert response.status_code == 422, response.content
    assert ghost_error(response)["type"] == "ValidationError"
    with schema_context(tenant.schema_name):
        from apps.content.models import Post

        assert not Post.objects.filter(title="Refused").exists()
    assert _sends(tenant) == []
