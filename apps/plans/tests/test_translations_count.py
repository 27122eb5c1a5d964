"""A translation is a post (docs/plans-and-usage.md): it takes one of the plan's posts when it is
made ("Add translation" and "Translate with AI" alike) and gives it back when it is deleted, whichever
delete takes it (its own, or its group's `translations=delete`); moving it to another language or
promoting it changes nothing. The counter stays the number of posts."""
from __future__ import annotations

from django_tenants.utils import schema_context

from apps.ai import services as ai_services
from apps.ai.models import GenerationJob
from apps.content.models import Post
from apps.content.tests.conftest import make_category, make_media, post_payload
from apps.plans.company.models import CompanyCounter
from apps.plans.tests.test_limits import assert_plan_limit


def multilingual(api) -> None:
    assert api.put("/api/client/languages", {"languages": ["en", "fr", "de", "es"]}).status_code == 200


def create(api, tenant, title: str):
    return api.post("/api/posts", post_payload(make_category(tenant), make_media(tenant), postTitle=title))


def created(api, tenant, title: str) -> dict:
    response = create(api, tenant, title)
    assert response.status_code == 201, response.content
    return response.json()["post"]


def translate(api, post_id: str, language: str):
    return api.post(f"/api/posts/{post_id}/translations", {"language": language})


def posts_used(tenant) -> int:
    with schema_context(tenant.schema_name):
        return CompanyCounter.objects.get(resource="posts").used


def posts_held(tenant) -> int:
    with schema_context(tenant.schema_name):
        return Post.objects.count()


def test_adding_a_translation_at_the_posts_limit_is_refused(tenant, api, plans):
    multilingual(api)
    plans["trial"]["posts"] = 2
    source = created(api, tenant, "Launch")
    assert translate(api, source["id"], "fr").status_code == 201  # 2 of 2
    body = assert_plan_limit(translate(api, source["id"], "de"), "posts", 2, 2)
    assert body["message"].startswith("Your plan allows 2 posts.")
    assert_plan_limit(create(api, tenant, "Another"), "posts", 2, 2)
    assert posts_held(tenant) == 2 == posts_used(tenant)


def test_translate_with_ai_at_the_posts_limit_is_refused_before_a_generation_is_spent(tenant, api, plans, settings):
    settings.AI_PROVIDER = "offline"
    multilingual(api)
    plans["trial"]["posts"] = 1
    source = created(api, tenant, "Launch")
    assert_plan_limit(api.post("/api/ai/translate-post?async=true", {"postId": source["id"], "language": "fr"}),
                      "posts", 1, 1)
    with schema_context(tenant.schema_name):
        assert not GenerationJob.objects.exists()  # no job: the day's AI quota is untouched
    assert posts_held(tenant) == 1 == posts_used(tenant)


def test_a_translate_job_that_finds_the_limit_reached_fails_without_a_post(tenant, api, plans, settings):
    """The limit reached between the request and the worker: the job fails with the plan's message
    before the provider is asked, and a failed job is not counted in the day's AI quota."""
    settings.AI_PROVIDER = "offline"
    multilingual(api)
    plans["trial"]["posts"] = 2
    source = created(api, tenant, "Launch")
    started = api.post("/api/ai/translate-post?async=true", {"postId": source["id"], "language": "fr"})
    assert started.status_code == 202, started.content
    created(api, tenant, "Second")  # 2 of 2 before the worker runs the job
    with schema_context(tenant.schema_name):
        assert ai_services.generation_job_run(job_id=started.json()["job"]["id"]) == "failed"
        job = GenerationJob.objects.get()
        assert job.error.startswith("Your plan allows 2 posts.")
        assert not Post.objects.filter(language="fr").exists()
    assert posts_held(tenant) == 2 == posts_used(tenant)


def test_a_translate_job_with_room_takes_its_post(tenant, api, plans, settings):
    settings.AI_PROVIDER = "offline"
    multilingual(api)
    plans["trial"]["posts"] = 2
    source = created(api, tenant, "Launch")
    started = api.post("/api/ai/translate-post?async=true", {"postId": source["id"], "language": "fr"})
    with schema_context(tenant.schema_name):
        assert ai_services.generation_job_run(job_id=started.json()["job"]["id"]) == "succeeded"
    assert posts_held(tenant) == 2 == posts_used(tenant)
    assert_plan_limit(create(api, tenant, "Another"), "posts", 2, 2)


def test_deleting_a_translation_gives_back_only_its_own_post(tenant, api, plans):
    multilingual(api)
    plans["trial"]["posts"] = 2
    source = created(api, tenant, "Launch")
    french = translate(api, source["id"], "fr")
    assert french.status_code == 201, french.content
    assert api.delete(f"/api/posts/{french.json()['post']['id']}").status_code == 200
    created(api, tenant, "Second")  # the translation's post, given back
    assert_plan_limit(create(api, tenant, "Third"), "posts", 2, 2)
    assert posts_held(tenant) == 2 == posts_used(tenant)


def test_the_posts_counter_is_the_number_of_posts_after_creates_translations_and_deletes(tenant, api, plans):
    multilingual(api)
    plans["trial"]["posts"] = 100

    def check() -> None:
        assert posts_used(tenant) == posts_held(tenant)

    one, two, three = (created(api, tenant, title) for title in ("One", "Two", "Three"))
    check()
    for language in ("fr", "de", "es"):
        assert translate(api, one["id"], language).status_code == 201
        assert translate(api, two["id"], language).status_code == 201
    assert translate(api, three["id"], "fr").status_code == 201
    check()
    assert posts_used(tenant) == 10
    # a translation moved to another language, then deleted on its own
    group = api.get(f"/api/posts/{three['id']}").json()["post"]["translations"]
    three_fr = next(t["id"] for t in group if t["language"] == "fr")
    assert api.put(f"/api/posts/{three_fr}", {"language": "es"}).status_code == 200
    check()
    assert api.delete(f"/api/posts/{three_fr}").status_code == 200
    check()
    # a default-language post deleted with its whole group: four posts given back
    assert api.delete(f"/api/posts/{one['id']}?translations=delete").status_code == 200
    check()
    assert posts_used(tenant) == 5
    # a translation promoted: one post less, not two
    two_fr = next(t["id"] for t in api.get(f"/api/posts/{two['id']}").json()["post"]["translations"]
                  if t["language"] == "fr")
    assert api.delete(f"/api/posts/{two['id']}?promote=fr").status_code == 200
    check()
    assert posts_used(tenant) == 4
    # a delete that is refused (the promoted post has translations) gives back nothing
    refused = api.delete(f"/api/posts/{two_fr}")
    assert refused.status_code == 409 and refused.json()["code"] == "translations_exist"
    check()
    assert posts_used(tenant) == 4
