"""The XSS corpus through the API: nothing dangerous is stored or returned, on create or update."""
from __future__ import annotations

import pytest
from django_tenants.utils import schema_context

from apps.content.models import Post
from apps.core.tests.test_html import XSS_CORPUS, assert_harmless


@pytest.fixture
def created(api, payload):
    return api.post("/api/posts/upload", payload).json()["post"]


def test_corpus_is_neutralised_on_create(api, payload, tenant):
    for number, attack in enumerate(XSS_CORPUS):
        payload.update(postTitle=f"Attack {number}", postContent=f"<p>before</p>{attack}")
        response = api.post("/api/posts/upload", payload)
        assert response.status_code in (201, 400), attack
        if response.status_code == 400:  # nothing visible left: refused as empty content
            assert response.json()["message"] == "Content is required"
            continue
        post = response.json()["post"]
        assert_harmless(post["content"])
        with schema_context(tenant.schema_name):
            assert_harmless(Post.objects.get(pk=post["id"]).content)
        assert_harmless(api.get(f"/api/posts/slug/{post['slug']}").json()["content"])


@pytest.mark.parametrize("attack", XSS_CORPUS)
def test_corpus_is_neutralised_on_update(api, created, tenant, attack):
    response = api.put(f"/api/posts/{created['id']}", {"content": f"<h2>Title</h2>{attack}"})
    assert response.status_code == 200
    assert_harmless(response.json()["post"]["content"])
    with schema_context(tenant.schema_name):
        assert_harmless(Post.objects.get(pk=created["id"]).content)


def test_content_made_only_of_a_script_is_refused_as_empty(api, payload, tenant):
    payload["postContent"] = "<script>alert(1)</script>"
    response = api.post("/api/posts/upload", payload)
    assert response.status_code == 400 and response.json()["message"] == "Content is required"


def test_editor_formatting_survives_the_round_trip(api, payload):
    html = ('<h1>T</h1><p style="text-align:center"><span style="color:#e53e3e">red</span> <strong>b</strong> '
            '<em>i</em> <u>u</u></p><ul><li>one</li></ul><ol><li>two</li></ol>'
            '<p><a href="https://example.com" target="_blank" rel="noopener noreferrer">link</a></p>'
            '<figure><img src="https://cdn.example.com/a.png" alt="A" width="10" height="10"></figure>'
            '<iframe src="https://www.youtube.com/embed/dQw4w9WgXcQ"></iframe>')
    payload["postContent"] = html
    assert api.post("/api/posts/upload", payload).json()["post"]["content"] == html
