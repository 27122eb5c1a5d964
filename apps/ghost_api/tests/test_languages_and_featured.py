"""Ghost's posts as a website built on Ghost reads them here (docs/coming-from-ghost.md): `featured`
and `filter=featured:...`; the primary tag, a post's first tag (none without tags); and a company
of several languages (docs/translations.md): each translation group once, in the default
language or along `?locale=`'s chain, a slug read as /api/v1 reads it, an id that row, each post's
address in its own language, on Django's path and on the WSGI layer in front of it."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.handlers.wsgi import WSGIHandler
from django.utils import timezone
from django_tenants.utils import schema_context

from apps.content.models import Post
from apps.content.tests.factories import make_post, make_tag
from apps.public_api.tests.conftest import lookup_codes, wsgi_app, wsgi_call  # noqa: F401 (fixtures)
from tenants.models import Client

pytestmark = pytest.mark.django_db


def _slugs(response, resource: str = "posts") -> list[str]:
    assert response.status_code == 200, response.content
    return [post["slug"] for post in response.json()[resource]]


def _post(ghost, path: str, params: dict | None = None) -> dict:
    response = ghost.get(path, params)
    assert response.status_code == 200, response.content
    return response.json()["posts"][0]


# --- featured ------------------------------------------------------------------------------------
def test_featured_posts_are_featured_and_filtered(tenant, ghost, blog):
    with schema_context(tenant.schema_name):
        Post.objects.filter(slug__in=["second", "fourth", "draft"]).update(featured=True)
    assert _slugs(ghost.get("posts/", {"filter": "featured:true"})) == ["fourth", "second"]
    assert _slugs(ghost.get("posts/", {"filter": "featured:false"})) == ["fifth", "third", "first"]
    assert _slugs(ghost.get("posts/", {"filter": "featured:true+tag:photo"})) == ["second"]
    assert ghost.get("posts/", {"filter": "featured:true"}).json()["meta"]["pagination"]["total"] == 2
    assert {post["slug"]: post["featured"] for post in ghost.get("posts/").json()["posts"]} == {
        "fifth": False, "fourth": True, "third": False, "second": True, "first": False}
    assert _post(ghost, "posts/slug/second/")["featured"] is True


# --- the primary tag -----------------------------------------------------------------------------
def test_the_primary_tag_is_the_first_tag_and_none_without_tags(tenant, ghost, blog):
    third = _post(ghost, "posts/slug/third/", {"include": "tags"})  # a category, no tag
    assert [tag["slug"] for tag in third["tags"]] == ["news"] and third["primary_tag"] is None
    # the post's own order, not the names'
    zebra, apple = make_tag(tenant, "Zebra", "zebra"), make_tag(tenant, "Apple", "apple")
    make_post(tenant, "Ordered", slug="ordered", status="published", tags=[zebra, apple], categories=[blog["news"]])
    ordered = _post(ghost, "posts/slug/ordered/", {"include": "tags"})
    assert [tag["slug"] for tag in ordered["tags"]] == ["zebra", "apple", "news"]
    assert ordered["primary_tag"]["slug"] == "zebra"
    assert _slugs(ghost.get("posts/", {"filter": "primary_tag:zebra"})) == ["ordered"]
    assert _slugs(ghost.get("posts/", {"filter": "primary_tag:apple"})) == []
    listed = {post["slug"]: post for post in ghost.get("posts/", {"include": "tags", "limit": "all"}).json()["posts"]}
    assert listed["ordered"]["primary_tag"] == ordered["primary_tag"] and listed["third"]["primary_tag"] is None


def test_a_new_tag_order_is_a_new_primary_tag(tenant, ghost, blog, api, django_capture_on_commit_callbacks):
    second = blog["posts"]["second"]
    assert _post(ghost, "posts/slug/second/", {"include": "tags"})["primary_tag"]["slug"] == "photo"
    with django_capture_on_commit_callbacks(execute=True):
        response = api.put(f"/api/posts/{second.id}", {"tags": [str(blog["video"].id), str(blog["photo"].id)]})
    assert response.status_code == 200, response.json()
    assert _post(ghost, "posts/slug/second/", {"include": "tags"})["primary_tag"]["slug"] == "video"


# --- languages -----------------------------------------------------------------------------------
@pytest.fixture
def world(tenant, blog):
    """The blog in a company of en, fr, pt-BR and pt (pt-BR -> pt): `second` also in French with the
    same slug, `third` also in French as `troisieme` and in pt as `terceiro`; a French-only post;
    a draft French translation of `first`."""
    Client.objects.filter(pk=tenant.pk).update(languages=["en", "fr", "pt-BR", "pt"],
                                               language_fallbacks={"pt-BR": ["pt"]})
    tenant.refresh_from_db()
    posts = blog["posts"]
    now = timezone.now()

    def translation(source, language, slug, title, status="published"):
        post = make_post(tenant, title, slug=slug, language=language, status=status, author=source.author,
                         created_at=source.created_at, published_at=source.published_at,
                         tags=[blog["photo"]] if source.slug == "second" else [])
        with schema_context(tenant.schema_name):
            Post.objects.filter(pk=post.pk).update(translation_group=source.translation_group)
        return post

    return {
        "second_fr": translation(posts["second"], "fr", "second", "Deuxième"),
        "third_fr": translation(posts["third"], "fr", "troisieme", "Troisième"),
        "third_pt": translation(posts["third"], "pt", "terceiro", "Terceiro"),
        "first_fr": translation(posts["first"], "fr", "premier", "Premier", status="draft"),
        "only_fr": make_post(tenant, "Seulement", slug="seulement", language="fr", status="published",
                             author=blog["alice"], published_at=now - timedelta(days=20),
                             created_at=now - timedelta(days=20)),
    }


def test_a_translated_post_is_listed_once_in_the_default_language(ghost, world):
    browse = ghost.get("posts/")
    assert _slugs(browse) == ["fifth", "fourth", "third", "second", "first"]
    assert browse.json()["meta"]["pagination"]["total"] == 5
    titles = {post["slug"]: post["title"] for post in browse.json()["posts"]}
    assert titles["second"] == "Second post" and titles["third"] == "Third post"
    assert _slugs(ghost.get("posts/", {"filter": "tag:photo"})) == ["second", "first"]


def test_a_locale_lists_each_group_once_along_its_chain(ghost, world):
    french = ghost.get("posts/", {"locale": "fr"})
    assert _slugs(french) == ["fifth", "fourth", "troisieme", "second", "first", "seulement"]
    assert french.json()["meta"]["pagination"]["total"] == 6
    assert {post["slug"]: post["title"] for post in french.json()["posts"]}["second"] == "Deuxième"
    assert _slugs(ghost.get("posts/", {"locale": "pt-br"})) == ["fifth", "fourth", "terceiro", "second", "first"]
    assert _slugs(ghost.get("posts/", {"locale": "fr-CA", "limit": "2", "page": "2"})) == ["troisieme", "second"]
    assert _slugs(ghost.get("posts/", {"locale": "ja"})) == ["fifth", "fourth", "third", "second", "first"]
    assert _slugs(ghost.get("posts/", {"locale": "fr", "filter": "tag:photo"})) == ["second", "first"]
    refused = ghost.get("posts/", {"locale": "not a language"})
    assert refused.status_code == 422 and refused.json()["errors"][0]["type"] == "ValidationError"


def test_a_slug_answers_the_default_languages_post_or_the_locales(ghost, world, blog):
    second = blog["posts"]["second"]
    english = _post(ghost, "posts/slug/second/")
    assert english["id"] == second.id.hex[:24] and english["title"] == "Second post"
    french = _post(ghost, "posts/slug/second/", {"locale": "fr"})
    assert french["id"] == world["second_fr"].id.hex[:24] and french["title"] == "Deuxième"
    # a website may link the English slug and still get the French post, and the French slug alone
    assert _post(ghost, "posts/slug/third/", {"locale": "fr"})["slug"] == "troisieme"
    assert _post(ghost, "posts/slug/troisieme/")["slug"] == "troisieme"
    assert _post(ghost, "posts/slug/third/", {"locale": "pt-BR"})["slug"] == "terceiro"  # pt-BR -> pt
    assert _post(ghost, "posts/slug/first/", {"locale": "fr"})["slug"] == "first"  # the French is a draft
    # an id is that row, whatever its language
    assert _post(ghost, f"posts/{world['second_fr'].id.hex[:24]}/")["title"] == "Deuxième"
    assert ghost.get(f"posts/{world['first_fr'].id.hex[:24]}/").status_code == 404


def test_each_post_has_its_address_in_its_own_language(tenant, ghost, world):
    Client.objects.filter(pk=tenant.pk).update(website_url="https://www.acme.example")
    tenant.refresh_from_db()
    assert _post(ghost, "posts/slug/second/")["url"] == "https://www.acme.example/second"
    assert _post(ghost, "posts/slug/second/", {"locale": "fr"})["url"] == "https://www.acme.example/fr/second"
    Client.objects.filter(pk=tenant.pk).update(post_url_template="https://www.acme.example/{locale}/blog/{slug}/")
    tenant.refresh_from_db()
    urls = {post["slug"]: post["url"] for post in ghost.get("posts/", {"locale": "fr"}).json()["posts"]}
    assert urls["troisieme"] == "https://www.acme.example/fr/blog/troisieme/"
    assert urls["fifth"] == "https://www.acme.example/en/blog/fifth/"


def test_pages_are_read_by_language_as_posts(tenant, ghost, world, blog):
    about = make_post(tenant, "About", slug="about", kind="page", status="published", author=blog["alice"])
    apropos = make_post(tenant, "À propos", slug="a-propos", kind="page", language="fr", status="published",
                        author=blog["alice"])
    with schema_context(tenant.schema_name):
        Post.objects.filter(pk=apropos.pk).update(translation_group=about.translation_group)
    assert _slugs(ghost.get("pages/"), "pages") == ["about"]
    assert _slugs(ghost.get("pages/", {"locale": "fr"}), "pages") == ["a-propos"]
    french = ghost.get("pages/slug/about/", {"locale": "fr"}).json()["pages"][0]
    assert french["slug"] == "a-propos" and french["url"].endswith("/fr/a-propos/")


def test_a_company_with_one_language_reads_as_before(ghost, blog):
    assert _slugs(ghost.get("posts/", {"locale": "fr"})) == ["fifth", "fourth", "third", "second", "first"]
    assert _post(ghost, "posts/slug/second/", {"locale": "de"})["slug"] == "second"


@pytest.mark.parametrize("cached", [True, False], ids=["cache-on", "cache-off"])
def test_the_fast_path_builds_each_locale_as_django_does(wsgi_app, tenant, world, settings, lookup_codes,
                                                         cached, django_capture_on_commit_callbacks):
    settings.PUBLIC_API_CACHE = cached
    settings.PUBLIC_API_LEASE_MS = 0

    def get(app, query):
        return wsgi_call(app, tenant, "/ghost/api/content/posts/",
                         query=f"key={tenant.ghost_content_key}&fields=slug,url&{query}")

    assert get(wsgi_app, "first").status_code == 200  # Django records the host
    lookup_codes.clear()
    plain, french = get(wsgi_app, "limit=10"), get(wsgi_app, "limit=10&locale=fr")
    assert lookup_codes == [7, 7]  # both built in front of Django
    assert _slugs(plain) == ["fifth", "fourth", "third", "second", "first"]
    assert _slugs(french) == ["fifth", "fourth", "troisieme", "second", "first", "seulement"]
    if cached:
        again = get(wsgi_app, "limit=10&locale=fr")
        assert again.headers["x-cache"] == "HIT" and again.content == french.content
        assert get(wsgi_app, "limit=10").content == plain.content
        from apps.core.content_version import content_version_bump

        with django_capture_on_commit_callbacks(execute=True), schema_context(tenant.schema_name):
            content_version_bump()
    assert get(WSGIHandler(), "limit=10&locale=fr").content == french.content
    assert get(WSGIHandler(), "limit=10").content == plain.content


def test_a_change_of_the_companys_languages_is_seen_at_once(tenant, ghost, world, admin, api,
                                                            django_capture_on_commit_callbacks):
    assert _slugs(ghost.get("posts/", {"locale": "pt"}))[2] == "terceiro"
    with django_capture_on_commit_callbacks(execute=True):
        response = api.put("/api/client/languages", {"languages": ["en", "fr", "pt-BR", "pt"],
                                                     "defaultLanguage": "fr", "fallbacks": {}})
    assert response.status_code == 200, response.json()
    # without a locale, the default language's posts (as /api/v1's lists)
    assert _slugs(ghost.get("posts/")) == ["troisieme", "second", "seulement"]
    assert _post(ghost, "posts/slug/second/")["title"] == "Deuxième"
