"""'Translate with AI' (docs/translations.md): a draft translation of a post made on the AI job
queue, by a real Celery worker, with the offline provider (a marked, untranslated draft that keeps
the HTML) and the gemini provider (through the real google-genai client and the fake server)."""
from __future__ import annotations

import pytest
from django_tenants.utils import schema_context

from apps.ai.providers.base import TranslateRequest
from apps.ai.tests.fake_gemini import json_reply
from apps.ai.tests.test_worker import job_state, wait_for
from apps.content.models import Post
from apps.content.tests.conftest import make_category, make_media, post_payload
from apps.core import testing

HTML = ('<h2>Why</h2><p>Read <a href="https://example.com/guide">the guide</a> first.</p>'
        '<figure><img src="https://cdn.example.com/a.png" alt="A chart"></figure>')


def _multilingual(api):
    assert api.put("/api/client/languages", {"languages": ["en", "fr", "de"]}).status_code == 200


def _source(api, tenant, **overrides):
    response = api.post("/api/posts/upload", post_payload(make_category(tenant), make_media(tenant),
                                                          postTitle="Launch day", postContent=HTML,
                                                          postStatus="published", **overrides))
    assert response.status_code == 201, response.content
    return response.json()["post"]


@pytest.mark.django_db(transaction=True)
def test_translate_with_ai_makes_a_marked_draft_through_a_real_worker(make_tenant, celery_worker_process, settings):
    tenant = make_tenant()
    api = testing.Api(tenant, user=testing.tenant_admin(tenant))
    _multilingual(api)
    settings.AI_WAIT_SECONDS = 30
    source = _source(api, tenant)
    response = api.post("/api/ai/translate-post", {"postId": source["id"], "language": "fr"})
    body = response.json()
    assert response.status_code == 200, (body, celery_worker_process.log_path.read_text()[-3000:])
    assert body["job"]["kind"] == "translate"
    draft = body["data"]
    assert (draft["language"], draft["status"], draft["machineMade"]) == ("fr", "draft", True)
    post = api.get(f"/api/posts/{draft['postId']}").json()["post"]
    assert post["translationGroup"] == source["id"] and post["status"] == "draft"
    assert post["title"] == "[fr, machine draft] Launch day"
    assert post["content"].startswith("<p><strong>Machine-made draft</strong>")
    # the source's structure, link and image are all there
    assert post["content"].endswith(source["content"])
    assert 'href="https://example.com/guide"' in post["content"] and 'src="https://cdn.example.com/a.png"' in post["content"]
    assert [c["id"] for c in post["categories"]] == [c["id"] for c in source["categories"]]
    # never published: the public API does not serve it in French
    site = testing.Api(tenant, headers={"x-api-key": tenant.api_key})
    french = site.get(f"/api/v1/posts/slug/{source['slug']}?locale=fr").json()["data"]["post"]
    assert french["locale"] == "en"
    # a second time: the language is taken, refused before any job is queued
    again = api.post("/api/ai/translate-post", {"postId": source["id"], "language": "fr"})
    assert again.status_code == 409 and again.json()["code"] == "translation_exists"
    assert job_state(tenant, body["job"]["id"]).provider == "offline"


@pytest.mark.django_db(transaction=True)
def test_a_translation_made_meanwhile_fails_the_job_not_the_worker(make_tenant, celery_worker_process):
    tenant = make_tenant()
    api = testing.Api(tenant, user=testing.tenant_admin(tenant))
    _multilingual(api)
    source = _source(api, tenant)
    job = api.post("/api/ai/translate-post?async=true", {"postId": source["id"], "language": "de"}).json()["job"]
    # whichever comes first: the job's draft, or this one (then the job fails with the reason)
    api.post(f"/api/posts/{source['id']}/translations", {"language": "de"})
    done = wait_for(lambda: (j := job_state(tenant, job["id"])).is_finished and j, 30, "the job", celery_worker_process)
    with schema_context(tenant.schema_name):
        assert Post.objects.filter(translation_group=source["id"], language="de").count() == 1
    assert done.status == "succeeded" or done.error == "This post already has a translation in that language"


def test_translate_checks_rights_languages_and_companies(api, tenant, role_api, make_tenant, settings):
    settings.AI_PROVIDER = "offline"
    _multilingual(api)
    source = _source(api, tenant)
    assert role_api("viewer").post("/api/ai/translate-post", {"postId": source["id"], "language": "fr"}
                                   ).status_code == 403
    for body, status in (({"postId": source["id"], "language": "en"}, 400),
                         ({"postId": source["id"], "language": "ja"}, 400),
                         ({"postId": source["id"], "language": "??"}, 400),
                         ({"postId": "not-a-post", "language": "fr"}, 404)):
        assert api.post("/api/ai/translate-post", body).status_code == status, body
    other = make_tenant()
    other_api = testing.Api(other, user=testing.tenant_admin(other))
    _multilingual(other_api)
    assert other_api.post("/api/ai/translate-post", {"postId": source["id"], "language": "fr"}).status_code == 404


def test_gemini_translates_the_text_and_keeps_the_html(gemini, fake_gemini):
    fields = {"title": "Launch day", "excerpt": "Short", "content": HTML, "meta_title": "Launch", "meta_description": "",
              "focus_keyword": "launch", "og_title": "", "og_description": "", "twitter_title": "",
              "twitter_description": ""}
    translated = {**fields, "title": "Jour du lancement", "excerpt": "Court",
                  "content": HTML.replace("Read", "Lisez").replace("the guide", "le guide") + "<script>x()</script>"}
    del translated["meta_title"]  # missing: the source's is kept
    fake_gemini.script(json_reply(translated))
    result = gemini.translate_post(TranslateRequest(source_language="en", target_language="fr", source_name="English",
                                                    target_name="français", fields=fields))
    assert result["title"] == "Jour du lancement" and result["meta_title"] == "Launch"
    assert "<script>" not in result["content"] and 'href="https://example.com/guide"' in result["content"]
    assert "Lisez" in result["content"]
    [call] = fake_gemini.requests
    prompt = call.body["contents"][0]["parts"][0]["text"]
    assert "from English (en) to français (fr)" in prompt
    assert "keep every tag" in prompt and 'href=\\"https://example.com/guide\\"' in prompt
