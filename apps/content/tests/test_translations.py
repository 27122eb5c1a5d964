"""A company in several languages (docs/translations.md): its languages in Settings, posts in a
language, translations tied by a group, the dashboard's filters and the delete of a post that has
translations."""
from __future__ import annotations

import pytest
from django_tenants.utils import schema_context

from apps.content.models import Post
from apps.content.tests.conftest import make_category, make_media, make_post, make_tag, post_payload
from apps.core import testing

LANGUAGES = {"languages": ["en", "fr", "pt-br", "pt", "de"], "defaultLanguage": "en", "fallbacks": {"pt-BR": ["pt"]}}


def multilingual(api) -> None:
    response = api.put("/api/client/languages", LANGUAGES)
    assert response.status_code == 200, response.content


def create(api, category, media, **overrides) -> dict:
    response = api.post("/api/posts/upload", post_payload(category, media, **overrides))
    assert response.status_code == 201, response.content
    return response.json()["post"]


# --- the company's languages -------------------------------------------------------------------------
def test_a_company_that_never_chose_writes_in_english(api):
    body = api.get("/api/client/languages").json()
    assert body["defaultLanguage"] == "en"
    assert [(lang["code"], lang["searchConfig"], lang["chain"]) for lang in body["languages"]] == [
        ("en", "english", ["en"])]


def test_languages_are_bcp47_codes_in_their_usual_case_with_fallback_chains(api):
    response = api.put("/api/client/languages", LANGUAGES)
    assert response.status_code == 200, response.content
    body = response.json()
    assert [lang["code"] for lang in body["languages"]] == ["en", "fr", "pt-BR", "pt", "de"]
    chains = {lang["code"]: lang["chain"] for lang in body["languages"]}
    assert chains == {"en": ["en"], "fr": ["fr", "en"], "pt-BR": ["pt-BR", "pt", "en"], "pt": ["pt", "en"],
                      "de": ["de", "en"]}
    names = {lang["code"]: lang["name"] for lang in body["languages"]}
    assert names["fr"] == "français"
    assert {lang["code"]: lang["searchConfig"] for lang in body["languages"]}["de"] == "german"
    assert api.get("/api/client/languages").json()["fallbacks"] == {"pt-BR": ["pt"]}


@pytest.mark.parametrize(("body", "message"), [
    ({"languages": ["en", "xx"]}, "Language must be a BCP 47 language code"),
    ({"languages": []}, "Choose at least one language"),
    ({"languages": ["en"], "defaultLanguage": "fr"}, "The default language must be one of"),
    ({"languages": ["en", "fr"], "fallbacks": {"fr": ["de"]}}, "Fallback languages must be"),
    ({"languages": "en"}, None),
    ({"languages": ["en", {"code": "fr"}]}, None),  # an object where a code goes
    ({"languages": ["en", ["fr"]]}, None),
])
def test_bad_language_settings_are_400(api, body, message):
    response = api.put("/api/client/languages", body)
    assert response.status_code == 400, response.content
    if message:
        assert message in response.json()["message"]
    assert api.get("/api/client/languages").json()["languages"][0]["code"] == "en"


@pytest.mark.parametrize("role", ["editor", "author", "viewer"])
def test_only_admins_change_languages(role_api, role):
    api = role_api(role)
    assert api.get("/api/client/languages").status_code == 200
    response = api.put("/api/client/languages", LANGUAGES)
    assert response.status_code == 403
    assert len(api.get("/api/client/languages").json()["languages"]) == 1


def test_a_language_with_posts_is_not_removed(api, tenant):
    multilingual(api)
    create(api, make_category(tenant), make_media(tenant), language="fr")
    response = api.put("/api/client/languages", {"languages": ["en", "de"]})
    assert response.status_code == 409
    assert response.json()["code"] == "language_in_use"


# --- posts in a language ---------------------------------------------------------------------------
def test_a_single_language_company_sees_the_replies_it_always_saw(api, tenant):
    post = create(api, make_category(tenant), make_media(tenant))
    assert "language" not in post and "translations" not in post
    assert "language" not in api.get("/api/posts").json()["posts"][0]
    with schema_context(tenant.schema_name):
        row = Post.objects.get(pk=post["id"])
        assert (row.language, row.translation_group) == ("en", row.id)


def test_slugs_are_unique_per_language(api, tenant):
    multilingual(api)
    category, media = make_category(tenant), make_media(tenant)
    english = create(api, category, media, customSlug="launch")
    french = create(api, category, media, customSlug="launch", language="fr")
    again = create(api, category, media, customSlug="launch", language="fr")
    assert (english["slug"], english["language"]) == ("launch", "en")
    assert (french["slug"], french["language"]) == ("launch", "fr")
    assert again["slug"] == "launch-2"


def test_a_language_the_company_does_not_have_is_400(api, tenant):
    multilingual(api)
    response = api.post("/api/posts/upload", post_payload(make_category(tenant), make_media(tenant), language="ja"))
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "language"
    response = api.post("/api/posts/upload", post_payload(make_category(tenant), make_media(tenant), language="??"))
    assert response.status_code == 400


def test_add_translation_copies_the_post_as_a_draft_of_the_group(api, tenant):
    multilingual(api)
    category, media, tag = make_category(tenant), make_media(tenant), make_tag(tenant)
    source = create(api, category, media, postTitle="Launch day", customSlug="launch", postStatus="published",
                    tags=[str(tag.id)], postContent='<p>Read <a href="https://example.com/x">this</a></p>')
    response = api.post(f"/api/posts/{source['id']}/translations", {"language": "fr"})
    assert response.status_code == 201, response.content
    french = response.json()["post"]
    assert french["language"] == "fr" and french["status"] == "draft"
    assert french["translationGroup"] == source["translationGroup"] == source["id"]
    assert (french["title"], french["slug"], french["content"]) == (source["title"], "launch", source["content"])
    assert [t["id"] for t in french["tags"]] == [str(tag.id)]
    assert [c["id"] for c in french["categories"]] == [str(category.id)]
    assert [(t["language"], t["status"]) for t in french["translations"]] == [("en", "published"), ("fr", "draft")]
    # the source shows its translations too
    shown = api.get(f"/api/posts/{source['id']}").json()["post"]["translations"]
    assert [t["language"] for t in shown] == ["en", "fr"]

    again = api.post(f"/api/posts/{source['id']}/translations", {"language": "fr"})
    assert again.status_code == 409
    assert again.json()["code"] == "translation_exists"
    assert api.post(f"/api/posts/{source['id']}/translations", {"language": "en"}).status_code == 400
    assert api.post(f"/api/posts/{source['id']}/translations", {"language": "ja"}).status_code == 400
    assert api.post(f"/api/posts/{source['id']}/translations", {}).status_code == 400


def test_moving_a_post_to_a_language_its_group_has_is_409(api, tenant):
    multilingual(api)
    source = create(api, make_category(tenant), make_media(tenant))
    french = api.post(f"/api/posts/{source['id']}/translations", {"language": "fr"}).json()["post"]
    response = api.put(f"/api/posts/{french['id']}", {"language": "en"})
    assert response.status_code == 409
    moved = api.put(f"/api/posts/{french['id']}", {"language": "de"})
    assert moved.status_code == 200, moved.content
    assert moved.json()["post"]["language"] == "de"


def test_list_filters_language_and_missing(api, tenant):
    multilingual(api)
    category, media = make_category(tenant), make_media(tenant)
    translated = create(api, category, media, postTitle="Translated")
    alone = create(api, category, media, postTitle="Alone")
    api.post(f"/api/posts/{translated['id']}/translations", {"language": "fr"})
    titles = lambda query: sorted((p["title"], p["language"]) for p in api.get(f"/api/posts?{query}").json()["posts"])  # noqa: E731
    assert titles("language=fr") == [("Translated", "fr")]
    assert titles("language=en") == [("Alone", "en"), ("Translated", "en")]
    assert titles("missing=fr") == [("Alone", "en")]
    assert titles("missing=fr&language=en") == [("Alone", "en")]
    assert titles("missing=de") == [("Alone", "en"), ("Translated", "en"), ("Translated", "fr")]
    assert api.get("/api/posts?language=zz-99").status_code == 400
    assert alone["language"] == "en"


# --- deleting a default-language post with translations -----------------------------------------------
def _group(api, tenant):
    multilingual(api)
    source = create(api, make_category(tenant), make_media(tenant), customSlug="launch")
    french = api.post(f"/api/posts/{source['id']}/translations", {"language": "fr"}).json()["post"]
    german = api.post(f"/api/posts/{source['id']}/translations", {"language": "de"}).json()["post"]
    return source, french, german


def test_deleting_a_default_language_post_with_translations_asks_what_becomes_of_them(api, tenant):
    source, french, german = _group(api, tenant)
    response = api.delete(f"/api/posts/{source['id']}")
    assert response.status_code == 409
    body = response.json()
    assert body["code"] == "translations_exist"
    assert [t["language"] for t in body["translations"]] == ["de", "fr"]
    assert api.get(f"/api/posts/{source['id']}").status_code == 200
    # a translation itself is deleted without asking
    assert api.delete(f"/api/posts/{german['id']}").status_code == 200
    assert api.delete(f"/api/posts/{source['id']}?translations=delete").status_code == 200
    assert api.get(f"/api/posts/{source['id']}").status_code == 404
    assert api.get(f"/api/posts/{french['id']}").status_code == 404


def test_deleting_with_promote_makes_the_translation_the_default_language_post(api, tenant):
    source, french, german = _group(api, tenant)
    assert api.delete(f"/api/posts/{source['id']}?promote=ja").status_code == 400
    response = api.delete(f"/api/posts/{source['id']}?promote=fr")
    assert response.status_code == 200, response.content
    promoted = api.get(f"/api/posts/{french['id']}").json()["post"]
    assert (promoted["language"], promoted["slug"]) == ("en", "launch")
    assert [t["language"] for t in promoted["translations"]] == ["de", "en"]


def test_an_author_cannot_delete_translations_of_others_through_the_group(tenant, make_user, api):
    multilingual(api)
    author = testing.Api(tenant, user=make_user(tenant, "author"))
    mine = create(author, make_category(tenant), make_media(tenant))
    api.post(f"/api/posts/{mine['id']}/translations", {"language": "fr"})  # the admin's translation
    response = author.delete(f"/api/posts/{mine['id']}?translations=delete")
    assert response.status_code == 403
    assert author.get(f"/api/posts/{mine['id']}").status_code == 200


def test_viewers_cannot_add_translations(api, tenant, role_api):
    multilingual(api)
    source = create(api, make_category(tenant), make_media(tenant))
    assert role_api("viewer").post(f"/api/posts/{source['id']}/translations", {"language": "fr"}).status_code == 403
    assert role_api("editor").post(f"/api/posts/{source['id']}/translations", {"language": "fr"}).status_code == 201


def test_a_post_of_company_a_cannot_be_translated_from_company_b(api, tenant, make_tenant):
    multilingual(api)
    source = create(api, make_category(tenant), make_media(tenant))
    other = make_tenant()
    other_api = testing.Api(other, user=testing.tenant_admin(other))
    multilingual(other_api)
    assert other_api.post(f"/api/posts/{source['id']}/translations", {"language": "fr"}).status_code == 404
    assert other_api.get("/api/posts?language=en").json()["posts"] == []
    # and A's token on B's host is refused
    assert testing.Api(other, token=api.headers["Authorization"].split()[1]).post(
        f"/api/posts/{source['id']}/translations", {"language": "fr"}).status_code == 401
    with schema_context(tenant.schema_name):
        assert Post.objects.filter(translation_group=source["id"]).count() == 1


def test_revisions_autosave_and_preview_links_are_per_translation(api, tenant):
    multilingual(api)
    source = create(api, make_category(tenant), make_media(tenant))
    french = api.post(f"/api/posts/{source['id']}/translations", {"language": "fr"}).json()["post"]
    assert api.put(f"/api/posts/{french['id']}", {"title": "Jour du lancement"}).status_code == 200
    revisions = api.get(f"/api/posts/{french['id']}/revisions").json()["revisions"]
    assert len(revisions) == 2  # made, then edited: the source's own history is apart
    assert len(api.get(f"/api/posts/{source['id']}/revisions").json()["revisions"]) == 1
    assert api.put(f"/api/posts/{french['id']}/autosave", {"fields": {"title": "Brouillon"}}).status_code == 200
    assert api.get(f"/api/posts/{source['id']}/autosave").json()["autosave"] is None
    link = api.post(f"/api/posts/{french['id']}/preview-links")
    assert link.status_code == 201, link.content


# --- categories, tags and media per language ----------------------------------------------------------
def test_categories_and_tags_keep_names_and_slugs_per_language(api, tenant):
    multilingual(api)
    made = api.post("/api/categories/add", {"name": "News", "slug": "news",
                                            "translations": {"fr": {"name": "Actualités"}, "de": {"name": "Neuigkeiten",
                                                                                                  "slug": "neu"}}})
    assert made.status_code == 201, made.content
    category = made.json()["category"]
    assert category["translations"] == {"fr": {"name": "Actualités", "slug": "actualites"},
                                        "de": {"name": "Neuigkeiten", "slug": "neu"}}
    updated = api.put(f"/api/categories/{category['id']}", {"translations": {"fr": {"name": "Nouvelles"}}})
    assert updated.json()["category"]["translations"] == {"fr": {"name": "Nouvelles", "slug": "nouvelles"}}
    assert api.put(f"/api/categories/{category['id']}", {"description": "x"}).json()["category"]["translations"] == {
        "fr": {"name": "Nouvelles", "slug": "nouvelles"}}  # left out: kept
    assert api.post("/api/tags/add", {"name": "Py", "slug": "py", "translations": {"ja": {"name": "x"}}}).status_code == 400
    assert api.post("/api/tags/add", {"name": "Py", "slug": "py", "translations": {"fr": {}}}).status_code == 400
    assert api.post("/api/tags/add", {"name": "Py", "slug": "py", "translations": "fr"}).status_code == 400
    plain = api.post("/api/tags/add", {"name": "Plain", "slug": "plain"}).json()["tag"]
    assert "translations" not in plain  # a term without translations: the reply it always had


def test_media_keeps_alt_text_per_language(api, tenant):
    multilingual(api)
    media = make_media(tenant)
    response = api.put(f"/api/media/{media.id}", {"altText": "A chart", "altTexts": {"fr": "Un graphique"}})
    assert response.status_code == 200, response.content
    assert response.json()["media"]["altTexts"] == {"fr": "Un graphique"}
    assert api.put(f"/api/media/{media.id}", {"altText": "A chart", "altTexts": {"ja": "x"}}).status_code == 400
    assert api.put(f"/api/media/{media.id}", {"altText": "A chart", "altTexts": ["fr"]}).status_code == 400
    kept = api.put(f"/api/media/{media.id}", {"altText": "Chart"}).json()["media"]
    assert kept["altTexts"] == {"fr": "Un graphique"} and kept["altText"] == "Chart"
    plain = api.put(f"/api/media/{make_media(tenant).id}", {"altText": "x"}).json()["media"]
    assert "altTexts" not in plain


def test_term_names_per_language_follow_the_terms_rules(api, tenant, role_api):
    """Who may name a term in other languages is who may create or change the term."""
    multilingual(api)
    names = {"translations": {"fr": {"name": "Actualités"}}}
    author, viewer, editor = role_api("author"), role_api("viewer"), role_api("editor")
    made = author.post("/api/categories/add", {"name": "News", "slug": "news", **names})
    assert made.status_code == 201, made.content  # authors create terms (taxonomy.create)
    category = made.json()["category"]
    assert viewer.post("/api/tags/add", {"name": "Py", "slug": "py", **names}).status_code == 403
    renamed = {"translations": {"fr": {"name": "Nouvelles"}}}
    assert author.put(f"/api/categories/{category['id']}", renamed).status_code == 403  # taxonomy.manage
    assert viewer.put(f"/api/categories/{category['id']}", renamed).status_code == 403
    assert api.get(f"/api/categories/{category['id']}").json()["category"]["translations"]["fr"]["name"] == "Actualités"
    assert editor.put(f"/api/categories/{category['id']}", renamed).json()["category"]["translations"] == {
        "fr": {"name": "Nouvelles", "slug": "nouvelles"}}


def test_alt_text_per_language_follows_the_media_rules(api, tenant, make_user):
    """An author changes the alt texts of their own uploads only; editors and admins of any file."""
    multilingual(api)
    author_user = make_user(tenant, "author")
    author = testing.Api(tenant, user=author_user)
    mine, theirs = make_media(tenant, "mine.png"), make_media(tenant, "theirs.png")
    with schema_context(tenant.schema_name):
        type(mine).objects.filter(pk=mine.pk).update(uploaded_by=author_user)
    body = {"altText": "A chart", "altTexts": {"fr": "Un graphique"}}
    assert author.put(f"/api/media/{mine.id}", body).json()["media"]["altTexts"] == {"fr": "Un graphique"}
    assert author.put(f"/api/media/{theirs.id}", body).status_code == 403
    viewer = testing.Api(tenant, user=make_user(tenant, "viewer"))
    assert viewer.put(f"/api/media/{mine.id}", {"altText": "x", "altTexts": {"fr": "x"}}).status_code == 403
    assert "altTexts" not in api.get(f"/api/media/{theirs.id}").json()["media"]
    assert api.get(f"/api/media/{mine.id}").json()["media"]["altTexts"] == {"fr": "Un graphique"}


def test_term_and_media_translations_of_company_a_are_out_of_company_bs_reach(api, tenant, make_tenant):
    multilingual(api)
    category = api.post("/api/categories/add", {"name": "News", "slug": "news",
                                                "translations": {"fr": {"name": "Actualités"}}}).json()["category"]
    tag = api.post("/api/tags/add", {"name": "Py", "slug": "py", "translations": {"fr": {"name": "Py"}}}).json()["tag"]
    media = make_media(tenant)
    other = make_tenant()
    other_api = testing.Api(other, user=testing.tenant_admin(other))
    multilingual(other_api)
    renamed = {"translations": {"fr": {"name": "Volé"}}}
    assert other_api.get(f"/api/categories/{category['id']}").status_code == 404
    assert other_api.put(f"/api/categories/{category['id']}", renamed).status_code == 404
    assert other_api.put(f"/api/tags/{tag['id']}", renamed).status_code == 404
    assert other_api.put(f"/api/media/{media.id}", {"altText": "x", "altTexts": {"fr": "Volé"}}).status_code == 404
    token = api.headers["Authorization"].split()[1]  # A's token on B's host
    assert testing.Api(other, token=token).put(f"/api/categories/{category['id']}", renamed).status_code == 401
    assert testing.Api(other, token=token).put(f"/api/media/{media.id}", {"altTexts": {"fr": "x"}}).status_code == 401
    assert api.get(f"/api/categories/{category['id']}").json()["category"]["translations"]["fr"]["name"] == "Actualités"
    assert api.get(f"/api/tags/{tag['id']}").json()["tag"]["translations"]["fr"]["name"] == "Py"
    assert "altTexts" not in api.get(f"/api/media/{media.id}").json()["media"]


@pytest.mark.parametrize("language", [{"code": "fr"}, ["fr"], 7])
def test_a_post_whose_language_is_not_a_code_is_400(api, category, media, language):
    multilingual(api)
    response = api.post("/api/posts/upload", post_payload(category, media, language=language))
    assert response.status_code == 400, response.content
