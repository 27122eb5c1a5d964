"""`?locale=` on the public content API (docs/translations.md): the best translation of each group
along the locale's fallback chain, `locale` and `translations` on each post, replies without a
locale unchanged, each locale cached apart, companies apart, and search per language."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.handlers.wsgi import WSGIHandler
from django.utils import timezone
from django_tenants.utils import schema_context

from apps.content.models import Post
from apps.content.tests.factories import make_category, make_media, make_post
from apps.core import testing
from apps.public_api.tests.conftest import key_client, wsgi_call
from tenants.models import Client

LANGUAGES = ["en", "fr", "de", "pt-BR", "pt"]


def _languages(tenant, codes=LANGUAGES, fallbacks=None) -> None:
    Client.objects.filter(pk=tenant.pk).update(languages=codes, language_fallbacks=fallbacks or {"pt-BR": ["pt"]})
    tenant.refresh_from_db()


def _translation(tenant, source: Post, language: str, slug: str, title: str, **fields) -> Post:
    post = make_post(tenant, title, slug=slug, language=language, **fields)
    with schema_context(tenant.schema_name):
        Post.objects.filter(pk=post.pk).update(translation_group=source.translation_group)
        post.categories.set(source.categories.all())
    post.translation_group = source.translation_group
    return post


@pytest.fixture
def world(tenant):
    """A: launch (en) / lancement (fr) / start (de, a draft); B: only-english; C: seulement-francais (fr
    alone); D: hello (en) / ola (pt). Newest first: A, B, C, D."""
    _languages(tenant)
    news = make_category(tenant, "News", slug="news")
    now = timezone.now()

    def post(title, slug, minutes, language="en", status="published"):
        return make_post(tenant, title, slug=slug, language=language, status=status, categories=[news],
                         created_at=now - timedelta(minutes=minutes))

    a = post("Launch", "launch", 1)
    a_fr = _translation(tenant, a, "fr", "lancement", "Lancement", status="published",
                        created_at=now - timedelta(minutes=1))
    _translation(tenant, a, "de", "start", "Start", status="draft", created_at=now - timedelta(minutes=1))
    b = post("Only English", "only-english", 2)
    c = post("Seulement", "seulement-francais", 3, language="fr")
    d = post("Hello", "hello", 4)
    d_pt = _translation(tenant, d, "pt", "ola", "Olá", status="published", created_at=now - timedelta(minutes=4))
    return {"a": a, "a_fr": a_fr, "b": b, "c": c, "d": d, "d_pt": d_pt}


def _posts(site, query=""):
    response = site.get(f"/api/v1/posts?{query}")
    assert response.status_code == 200, response.content
    return response.json()["data"]


def test_without_locale_the_default_language_posts_as_always(site, world):
    data = _posts(site)
    assert [p["slug"] for p in data["posts"]] == ["launch", "only-english", "hello"]
    assert data["pagination"]["total"] == 3
    assert all("locale" not in p and "translations" not in p for p in data["posts"])


def test_a_locale_serves_each_group_once_along_its_chain(site, world):
    data = _posts(site, "locale=fr")
    assert [(p["slug"], p["locale"]) for p in data["posts"]] == [
        ("lancement", "fr"), ("only-english", "en"), ("seulement-francais", "fr"), ("hello", "en")]
    assert data["pagination"]["total"] == 4
    launch = data["posts"][0]
    assert launch["translations"] == [{"locale": "en", "slug": "launch"}, {"locale": "fr", "slug": "lancement"}]
    assert data["posts"][3]["translations"] == [{"locale": "en", "slug": "hello"}, {"locale": "pt", "slug": "ola"}]

    brazil = _posts(site, "locale=pt-br")  # pt-BR -> pt -> en
    assert [(p["slug"], p["locale"]) for p in brazil["posts"]] == [
        ("launch", "en"), ("only-english", "en"), ("ola", "pt")]
    # a locale the company lacks: its default's
    assert [(p["slug"], p["locale"]) for p in _posts(site, "locale=ja")["posts"]] == [
        ("launch", "en"), ("only-english", "en"), ("hello", "en")]
    # page 2 of one per page
    assert [p["slug"] for p in _posts(site, "locale=fr&limit=1&page=2")["posts"]] == ["only-english"]


def test_a_draft_translation_is_not_served_but_the_preview_key_sees_it(site, preview, world):
    assert [p["slug"] for p in _posts(site, "locale=de")["posts"]] == ["launch", "only-english", "hello"]
    everything = _posts(preview, "locale=de&status=all")
    assert [(p["slug"], p["locale"]) for p in everything["posts"]][0] == ("start", "de")
    assert {"locale": "de", "slug": "start"} in everything["posts"][0]["translations"]


def test_category_lists_take_the_locale(site, world):
    response = site.get("/api/v1/posts/category/news?locale=fr&limit=2")
    assert [(p["slug"], p["locale"]) for p in response.json()["data"]["posts"]] == [
        ("lancement", "fr"), ("only-english", "en")]
    assert response.json()["data"]["pagination"]["total"] == 4


def test_by_slug_with_a_locale_serves_the_groups_translation(site, world):
    def get(slug, query=""):
        return site.get(f"/api/v1/posts/slug/{slug}{query}")

    french = get("launch", "?locale=fr").json()["data"]["post"]
    assert (french["slug"], french["locale"], french["title"]) == ("lancement", "fr", "Lancement")
    assert french["translations"] == [{"locale": "en", "slug": "launch"}, {"locale": "fr", "slug": "lancement"}]
    english = get("lancement", "?locale=en").json()["data"]["post"]
    assert (english["slug"], english["locale"]) == ("launch", "en")
    fallback = get("only-english", "?locale=fr").json()["data"]["post"]
    assert (fallback["slug"], fallback["locale"]) == ("only-english", "en")
    assert get("start", "?locale=de").status_code == 404  # the German draft: not public
    plain = get("lancement").json()["data"]["post"]
    assert plain["slug"] == "lancement" and "locale" not in plain and "translations" not in plain
    assert get("launch", "?locale=%21%21").status_code == 400
    assert get("launch", "?locale=%21%21").json()["errors"][0]["field"] == "locale"


def test_a_slug_two_languages_share_is_the_default_languages_without_a_locale(site, world, tenant):
    _translation(tenant, world["b"], "fr", "only-english", "Seulement en anglais", status="published")
    assert site.get("/api/v1/posts/slug/only-english").json()["data"]["post"]["title"] == "Only English"
    french = site.get("/api/v1/posts/slug/only-english?locale=fr").json()["data"]["post"]
    assert (french["title"], french["locale"]) == ("Seulement en anglais", "fr")


def test_bad_locales_are_400_on_lists(site, world):
    for value in ("%21%21", "xx-99-zz", "a" * 40):
        response = site.get(f"/api/v1/posts?locale={value}")
        assert response.status_code == 400, value
        assert response.json()["errors"][0]["field"] == "locale"


def test_a_company_with_one_language_is_unchanged_and_gains_locale_fields_only_when_asked(make_tenant):
    tenant = make_tenant()
    make_post(tenant, "One", slug="one", status="published", categories=[make_category(tenant)])
    site = key_client(tenant, tenant.api_key)
    plain = site.get("/api/v1/posts").json()["data"]["posts"]
    assert [p["slug"] for p in plain] == ["one"] and "locale" not in plain[0]
    localized = site.get("/api/v1/posts?locale=fr").json()["data"]["posts"]
    assert [(p["slug"], p["locale"], p["translations"]) for p in localized] == [
        ("one", "en", [{"locale": "en", "slug": "one"}])]


def test_each_locale_is_cached_apart_and_a_change_of_a_translation_is_seen(site, api, world, settings,
                                                                           django_capture_on_commit_callbacks):
    settings.PUBLIC_API_CACHE = True
    first_fr = _posts(site, "locale=fr")
    first_en = _posts(site)
    again = site.get("/api/v1/posts?locale=fr")
    assert again["X-Cache"] == "HIT" and again.json()["data"] == first_fr
    assert site.get("/api/v1/posts")["X-Cache"] == "HIT"
    assert first_fr != first_en
    with django_capture_on_commit_callbacks(execute=True):
        response = api.put(f"/api/posts/{world['a_fr'].pk}", {"title": "Le lancement"})
        assert response.status_code == 200, response.content
    changed = site.get("/api/v1/posts?locale=fr")
    assert changed["X-Cache"] == "MISS"
    assert changed.json()["data"]["posts"][0]["title"] == "Le lancement"


@pytest.mark.parametrize("cached", [True, False], ids=["cache-miss", "cache-off"])
@pytest.mark.parametrize("query", ["locale=fr", "locale=fr&limit=2&page=2", "locale=pt-BR", "", "locale=fr&search=launch"])
def test_the_fast_path_builds_the_same_bytes_as_django(wsgi_app, tenant, world, settings, cached, query):
    settings.PUBLIC_API_CACHE = cached
    wsgi_call(wsgi_app, tenant, "/api/v1/posts", key=tenant.api_key, query="limit=1&first")  # learns the host
    fast = wsgi_call(wsgi_app, tenant, "/api/v1/posts", key=tenant.api_key, query=query + "&x=1")
    django = wsgi_call(WSGIHandler(), tenant, "/api/v1/posts", key=tenant.api_key, query=query + "&x=2")
    assert fast.status_code == django.status_code == 200
    assert fast.content == django.content


def test_a_change_of_languages_is_seen_by_the_fast_path(wsgi_app, tenant, world, admin, settings,
                                                        django_capture_on_commit_callbacks):
    settings.PUBLIC_API_CACHE = True
    wsgi_call(wsgi_app, tenant, "/api/v1/posts", key=tenant.api_key, query="limit=1&first")
    before = wsgi_call(wsgi_app, tenant, "/api/v1/posts", key=tenant.api_key, query="locale=pt-BR").json()
    assert [p["locale"] for p in before["data"]["posts"]] == ["en", "en", "pt"]
    api = testing.Api(tenant, user=admin)
    with django_capture_on_commit_callbacks(execute=True):
        response = api.put("/api/client/languages", {"languages": LANGUAGES, "fallbacks": {"pt-BR": ["fr"]}})
        assert response.status_code == 200, response.content
    after = wsgi_call(wsgi_app, tenant, "/api/v1/posts", key=tenant.api_key, query="locale=pt-BR").json()
    # pt-BR -> fr -> pt -> en now
    assert [(p["slug"], p["locale"]) for p in after["data"]["posts"]] == [
        ("lancement", "fr"), ("only-english", "en"), ("seulement-francais", "fr"), ("ola", "pt")]


def test_companies_never_see_each_others_translations(world, tenant, make_tenant):
    other = make_tenant()
    _languages(other)
    mine = make_post(other, "Mine", slug="launch", status="published", categories=[make_category(other)])
    other_site = key_client(other, other.api_key)
    assert [p["slug"] for p in _posts(other_site, "locale=fr")["posts"]] == ["launch"]
    assert _posts(other_site, "locale=fr")["posts"][0]["id"] == str(mine.pk)
    assert other_site.get("/api/v1/posts/slug/lancement?locale=fr").status_code == 404
    french = other_site.get("/api/v1/posts/slug/launch?locale=fr").json()["data"]["post"]
    assert (french["id"], french["translations"]) == (str(mine.pk), [{"locale": "en", "slug": "launch"}])
    # A's key on B's host
    assert key_client(other, tenant.api_key).get("/api/v1/posts?locale=fr").status_code == 401


# --- search per language ----------------------------------------------------------------------------
@pytest.fixture
def stemmed(tenant):
    _languages(tenant, ["en", "fr", "de"], {})
    category = make_category(tenant)
    posts = {
        "en": make_post(tenant, "Notes", slug="notes", content="<p>She was running fast</p>", status="published",
                        categories=[category]),
        "fr": make_post(tenant, "Repas", slug="repas", content="<p>Nous mangeons des pommes</p>", language="fr",
                        status="published", categories=[category]),
        "de": make_post(tenant, "Stadt", slug="stadt", content="<p>Die Häuser sind alt</p>", language="de",
                        status="published", categories=[category]),
        # German words in an English post are stemmed as English: "haus" does not find them
        "en-de": make_post(tenant, "Wörter", slug="woerter", content="<p>Die Häuser sind alt</p>",
                           status="published", categories=[category]),
    }
    return posts


def test_search_stems_each_post_in_its_language(site, api, stemmed):
    assert [p["slug"] for p in _posts(site, "search=runs")["posts"]] == ["notes"]
    assert [p["slug"] for p in _posts(site, "search=mangez&locale=fr")["posts"]] == ["repas"]
    assert [p["slug"] for p in _posts(site, "search=haus&locale=de")["posts"]] == ["stadt"]
    assert _posts(site, "search=haus")["posts"] == []  # English posts only, English stemming
    # the dashboard searches every language of the company (each configuration OR'd)
    found = api.get("/api/search?q=mangez&types=posts").json()["results"]["posts"]
    assert [p["slug"] for p in found] == ["repas"]
    found = api.get("/api/search?q=haus&types=posts").json()["results"]["posts"]
    assert [p["slug"] for p in found] == ["stadt"]
    found = api.get("/api/posts?search=runs&language=en").json()["posts"]
    assert [p["slug"] for p in found] == ["notes"]


def test_the_search_column_follows_a_change_of_language(api, stemmed, tenant):
    def vector() -> str:
        with schema_context(tenant.schema_name):
            return Post.objects.filter(pk=stemmed["en-de"].pk).values_list("search_vector", flat=True)[0]

    assert "'häuser'" in vector()  # English: the word as written
    assert api.put(f"/api/posts/{stemmed['en-de'].pk}", {"language": "de"}).status_code == 200
    assert "'haus'" in vector()  # German: its stem
    found = api.get("/api/search?q=haus&types=posts").json()["results"]["posts"]
    assert sorted(p["slug"] for p in found) == ["stadt", "woerter"]


def test_terms_and_alt_text_in_the_locales_language(site, world, tenant):
    from apps.content.models import Category
    from apps.media.models import Media

    with schema_context(tenant.schema_name):
        Category.objects.filter(slug="news").update(translations={"fr": {"name": "Actualités", "slug": "actualites"}})
        image = Media.objects.create(file_name="a.png", file_type="image/png", file_size=1, width=1, height=1,
                                     storage_key=f"{tenant.schema_name}/media/a.png", alt_text="A chart",
                                     alt_texts={"fr": "Un graphique"})
        Post.objects.filter(pk=world["a_fr"].pk).update(featured_image=image)
    french = _posts(site, "locale=fr")["posts"][0]
    assert french["categories"][0]["name"] == "Actualités" and french["categories"][0]["slug"] == "actualites"
    assert french["featuredImage"]["altText"] == "Un graphique"
    plain = site.get("/api/v1/posts/slug/lancement").json()["data"]["post"]
    assert plain["categories"][0]["name"] == "News" and plain["featuredImage"]["altText"] == "A chart"
    by_slug = site.get("/api/v1/posts/slug/lancement?locale=fr").json()["data"]["post"]
    assert by_slug["featuredImage"]["altText"] == "Un graphique"
    # the category's French slug finds its posts with locale=fr; without, only its own slug
    assert len(site.get("/api/v1/posts/category/actualites?locale=fr").json()["data"]["posts"]) == 4
    assert site.get("/api/v1/posts/category/actualites").status_code == 404
    categories = site.get("/api/v1/categories?locale=fr").json()["data"]["categories"]
    assert [(c["name"], c["slug"]) for c in categories] == [("Actualités", "actualites")]
    assert site.get("/api/v1/categories").json()["data"]["categories"][0]["name"] == "News"
