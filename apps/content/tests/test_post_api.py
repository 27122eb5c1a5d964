"""Posts endpoints: create, read (id, slug, list), update, delete, with the spec's messages."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from django_tenants.utils import schema_context

from apps.content.models import Category, Post, Tag
from apps.content.tests.conftest import make_category, make_media, make_post, make_tag
from apps.media.models import Media


def stored(tenant, **filters):
    with schema_context(tenant.schema_name):
        return Post.objects.filter(**filters).first()


def post_count(tenant) -> int:
    with schema_context(tenant.schema_name):
        return Post.objects.count()


# --- create --------------------------------------------------------------------------------------
def test_create_returns_the_full_post(api, payload, admin, category, tag, media):
    payload.update(tags=[str(tag.id)], videoId="https://www.youtube.com/watch?v=dQw4w9WgXcQ",
                   seoMetadata={"title": "SEO T", "description": "SEO D", "canonicalUrl": "https://example.com/x",
                                "focusKeyword": "hello"})
    response = api.post("/api/posts/upload", payload)
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["success"] is True and body["message"] == "Post created successfully"
    post = body["post"]
    assert post["title"] == "Hello World" and post["slug"] == "hello-world"
    assert post["excerpt"] == "A short excerpt"
    assert post["content"] == "<p>Some <strong>content</strong></p>"
    assert post["status"] == "draft" and post["publishedAt"] is None and post["isScheduled"] is False
    assert post["author"] == {"id": str(admin.id), "username": admin.username, "name": admin.username, "bio": "",
                              "profileImage": None, "coverImage": None, "website": "", "location": "",
                              "facebook": "", "twitter": ""}  # (+) the author profile, none set
    assert post["categories"] == [{"id": str(category.id), "name": "News", "slug": "news"}]
    assert post["tags"] == [{"id": str(tag.id), "name": "Python", "slug": "python"}]
    assert post["featuredImage"]["id"] == str(media.id)
    assert post["featuredImage"]["spacesKey"] == media.storage_key
    assert post["featuredImage"]["altText"] == media.alt_text
    assert post["featuredImage"]["link"].startswith("http://") and post["featuredImage"]["link"].endswith(
        media.storage_key)
    assert post["videoId"] == "dQw4w9WgXcQ"
    assert post["allowIndexing"] is True
    assert (post["metaTitle"], post["metaDescription"], post["canonicalUrl"], post["focusKeyword"]) == (
        "SEO T", "SEO D", "https://example.com/x", "hello")
    assert post["createdAt"] and post["updatedAt"]
    # what was stored is what is returned
    again = api.get(f"/api/posts/{post['id']}").json()["post"]
    assert again == post


def test_create_at_the_collection_path_too(api, payload):
    assert api.post("/api/posts", payload).status_code == 201


def test_seo_title_and_description_default_to_title_and_excerpt(api, payload):
    del payload["seoMetadata"]
    post = api.post("/api/posts/upload", payload).json()["post"]
    assert post["metaTitle"] == "Hello World" and post["metaDescription"] == "A short excerpt"

    payload["seoMetadata"] = {"title": None, "canonicalUrl": ""}
    post = api.post("/api/posts/upload", payload).json()["post"]
    assert post["metaTitle"] == "Hello World" and post["metaDescription"] == "A short excerpt"


def test_duplicate_titles_get_numeric_slug_suffixes(api, payload):
    slugs = [api.post("/api/posts/upload", payload).json()["post"]["slug"] for _ in range(3)]
    assert slugs == ["hello-world", "hello-world-2", "hello-world-3"]


def test_custom_slug_is_derived_with_the_spec_rule(api, payload):
    payload["customSlug"] = "  My  Custom__Slug!! "
    post = api.post("/api/posts/upload", payload).json()["post"]
    assert post["slug"] == "my-custom-slug" and post["customSlug"] == "My  Custom__Slug!!"


def test_a_title_without_letters_still_gets_a_slug(api, payload):
    payload["postTitle"] = "!!!"
    assert api.post("/api/posts/upload", payload).json()["post"]["slug"] == "post"


def test_content_is_sanitised_on_create(api, payload, tenant):
    payload["postContent"] = '<p onclick="x()">Hi<script>alert(1)</script></p><a href="javascript:alert(1)">l</a>'
    post = api.post("/api/posts/upload", payload).json()["post"]
    assert post["content"] == '<p>Hi</p><a rel="noopener noreferrer">l</a>'
    assert stored(tenant, pk=post["id"]).content == post["content"]


CREATE_ERRORS = [
    ("postTitle", "", "Title is required", "postTitle"),
    ("postTitle", "   ", "Title is required", "postTitle"),
    ("postTitle", None, "Title is required", "postTitle"),
    ("postContent", "", "Content is required", "postContent"),
    ("postContent", "<p>&nbsp;</p>", "Content is required", "postContent"),
    ("postExcerpt", "", "Excerpt is required", "postExcerpt"),
    ("postStatus", "live", "Status must be one of draft, published, archived", "postStatus"),
    ("categories", [], "At least one category is required", "categories"),
    ("featuredMediaId", "", "Featured image is required", "featuredMediaId"),
    ("seoMetadata", {"title": "", "description": "d"}, "SEO title is required", "seoMetadata.title"),
    ("seoMetadata", {"title": "t", "description": " "}, "SEO description is required", "seoMetadata.description"),
    ("seoMetadata", {"title": "t", "description": "d", "canonicalUrl": "not a url"}, "Please enter a valid URL",
     "seoMetadata.canonicalUrl"),
    ("seoMetadata", {"title": "t", "description": "d", "canonicalUrl": "javascript:alert(1)"},
     "Please enter a valid URL", "seoMetadata.canonicalUrl"),
    ("scheduledPublishDate", "next tuesday", "Please enter a valid date", "scheduledPublishDate"),
    ("scheduledPublishDate", "2025-02-30", "Please enter a valid date", "scheduledPublishDate"),
    ("videoId", "https://vimeo.com/123", "Please enter a valid YouTube video URL or ID", "videoId"),
]


@pytest.mark.parametrize("field, value, message, error_field", CREATE_ERRORS)
def test_create_validation_messages(api, payload, tenant, field, value, message, error_field):
    payload[field] = value
    response = api.post("/api/posts/upload", payload)
    assert response.status_code == 400
    body = response.json()
    assert body["success"] is False and body["error"] == "validation_error"
    assert body["message"] == message
    assert {"field": error_field, "message": message} in body["errors"]
    assert post_count(tenant) == 0


@pytest.mark.parametrize("missing", ["postTitle", "postContent", "postExcerpt", "categories", "featuredMediaId"])
def test_missing_required_field_gets_the_same_message_as_empty(api, payload, missing):
    messages = {"postTitle": "Title is required", "postContent": "Content is required",
                "postExcerpt": "Excerpt is required", "categories": "At least one category is required",
                "featuredMediaId": "Featured image is required"}
    del payload[missing]
    response = api.post("/api/posts/upload", payload)
    assert response.status_code == 400 and response.json()["message"] == messages[missing]


def test_first_failing_rule_in_the_spec_order_is_the_message(api):
    response = api.post("/api/posts/upload", {})
    assert response.status_code == 400
    body = response.json()
    assert body["message"] == "Title is required"
    fields = [error["field"] for error in body["errors"]]
    assert fields == ["postTitle", "postContent", "postExcerpt", "categories", "featuredMediaId"]


@pytest.mark.parametrize("field, value, message", [
    ("categories", ["00000000-0000-0000-0000-000000000000"], "One or more selected categories do not exist"),
    ("categories", ["not-a-uuid"], "One or more selected categories do not exist"),
    ("tags", ["00000000-0000-0000-0000-000000000000"], "One or more selected tags do not exist"),
    ("featuredMediaId", "00000000-0000-0000-0000-000000000000",
     "The featured image does not exist in the media library"),
    ("ogImageId", "00000000-0000-0000-0000-000000000000", "The image does not exist in the media library"),
])
def test_unknown_ids_are_400_naming_the_field(api, payload, tenant, field, value, message):
    payload[field] = value
    response = api.post("/api/posts/upload", payload)
    assert response.status_code == 400
    assert response.json()["message"] == message
    assert response.json()["errors"] == [{"field": field, "message": message}]
    assert post_count(tenant) == 0


def test_one_unknown_category_among_known_ones_is_refused(api, payload, category, tenant):
    payload["categories"] = [str(category.id), "00000000-0000-0000-0000-000000000000"]
    assert api.post("/api/posts/upload", payload).status_code == 400
    assert post_count(tenant) == 0


@pytest.mark.parametrize("value", ["dQw4w9WgXcQ", "https://youtu.be/dQw4w9WgXcQ",
                                   "https://www.youtube.com/embed/dQw4w9WgXcQ", "youtube.com/v/dQw4w9WgXcQ",
                                   "https://www.youtube.com/watch?feature=share&v=dQw4w9WgXcQ",
                                   "https://www.youtube.com/shorts/dQw4w9WgXcQ"])
def test_video_forms_of_the_spec_are_stored_as_the_id(api, payload, value):
    payload["videoId"] = value
    assert api.post("/api/posts/upload", payload).json()["post"]["videoId"] == "dQw4w9WgXcQ"


# --- publishing ----------------------------------------------------------------------------------
def test_publishing_sets_published_at_once(api, payload):
    payload["postStatus"] = "published"
    post = api.post("/api/posts/upload", payload).json()["post"]
    assert post["status"] == "published" and post["publishedAt"] is not None
    first = post["publishedAt"]
    archived = api.put(f"/api/posts/{post['id']}", {"status": "archived"}).json()["post"]
    assert archived["status"] == "archived" and archived["publishedAt"] == first
    again = api.put(f"/api/posts/{post['id']}", {"status": "published"}).json()["post"]
    assert again["status"] == "published" and again["publishedAt"] == first


def test_publishing_a_draft_later_sets_published_at_then(api, payload):
    post = api.post("/api/posts/upload", payload).json()["post"]
    assert post["publishedAt"] is None
    published = api.put(f"/api/posts/{post['id']}", {"status": "published"}).json()["post"]
    assert published["publishedAt"] is not None


def test_published_with_a_future_date_is_scheduled(api, payload, tenant):
    future = (timezone.now() + timedelta(days=2)).replace(microsecond=0)
    payload.update(postStatus="published", scheduledPublishDate=future.isoformat())
    post = api.post("/api/posts/upload", payload).json()["post"]
    assert post["status"] == "draft" and post["isScheduled"] is True and post["publishedAt"] is None
    assert post["scheduledPublishDate"].startswith(future.strftime("%Y-%m-%dT%H:%M:%S"))
    listed = api.get("/api/posts", {"status": "scheduled"}).json()["posts"]
    assert [p["id"] for p in listed] == [post["id"]]
    assert api.get("/api/posts", {"status": "published"}).json()["totalPosts"] == 0


def test_a_date_only_publish_date_means_midnight_utc(api, payload):
    payload.update(postStatus="published", scheduledPublishDate=(timezone.now() - timedelta(days=1)).date().isoformat())
    post = api.post("/api/posts/upload", payload).json()["post"]
    assert post["status"] == "published" and post["isScheduled"] is False
    assert post["scheduledPublishDate"].endswith("T00:00:00Z")


def test_saving_a_scheduled_post_as_draft_cancels_the_schedule(api, payload):
    payload.update(postStatus="published", scheduledPublishDate=(timezone.now() + timedelta(days=1)).isoformat())
    post = api.post("/api/posts/upload", payload).json()["post"]
    draft = api.put(f"/api/posts/{post['id']}", {"status": "draft"}).json()["post"]
    assert draft["status"] == "draft" and draft["isScheduled"] is False


def test_moving_a_scheduled_post_to_a_past_date_publishes_it(api, payload):
    payload.update(postStatus="published", scheduledPublishDate=(timezone.now() + timedelta(days=1)).isoformat())
    post = api.post("/api/posts/upload", payload).json()["post"]
    moved = api.put(f"/api/posts/{post['id']}", {
        "scheduledPublishDate": (timezone.now() - timedelta(minutes=1)).isoformat()}).json()["post"]
    assert moved["status"] == "published" and moved["publishedAt"] is not None and moved["isScheduled"] is False


# --- read ----------------------------------------------------------------------------------------
def test_get_by_id_and_by_slug(api, tenant, category):
    post = make_post(tenant, title="Readable", slug="readable", categories=[category])
    by_id = api.get(f"/api/posts/{post.id}")
    assert by_id.status_code == 200 and by_id.json()["post"]["slug"] == "readable"
    by_slug = api.get("/api/posts/slug/readable")
    assert by_slug.status_code == 200
    body = by_slug.json()
    # the Post object itself at the top level
    assert body["id"] == str(post.id) and body["title"] == "Readable" and body["content"] == "<p>Body text</p>"
    assert body["categories"] == [{"id": str(category.id), "name": "News", "slug": "news"}]
    assert api.get("/api/posts/slug/READABLE/").status_code == 200  # trailing slash, case


@pytest.mark.parametrize("path", ["/api/posts/00000000-0000-0000-0000-000000000000", "/api/posts/not-a-uuid",
                                  "/api/posts/slug/nothing-here"])
def test_unknown_post_is_404(api, path):
    response = api.get(path)
    assert response.status_code == 404
    assert response.json() == {"success": False, "message": "Post not found", "error": "not_found"}


def test_list_shape_and_pagination(api, tenant, category):
    for number in range(12):
        make_post(tenant, title=f"P{number}", categories=[category])
    body = api.get("/api/posts", {"page": 2, "limit": 5}).json()
    assert body["success"] is True
    assert body["page"] == 2 and body["limit"] == 5 and body["totalPosts"] == 12
    assert body["pagination"] == {"total": 12, "totalPages": 3, "currentPage": 2, "limit": 5}
    assert [p["title"] for p in body["posts"]] == ["P6", "P5", "P4", "P3", "P2"]  # newest first
    assert "content" not in body["posts"][0]
    assert set(body["posts"][0]) >= {"id", "title", "slug", "excerpt", "status", "createdAt", "publishedAt",
                                     "author", "categories", "tags", "featuredImage", "videoId"}
    assert api.get("/api/posts", {"page": 4, "limit": 5}).json()["posts"] == []


@pytest.mark.parametrize("params, message", [
    ({"page": 0}, "Page must be at least 1"),
    ({"limit": 0}, "Limit must be at least 1"),
    ({"limit": 101}, "Limit must be at most 100"),
    ({"page": "x"}, "Page must be a whole number"),
    ({"status": "deleted"}, "Status must be one of published, draft, archived, all"),
])
def test_list_bad_query_values(api, params, message):
    response = api.get("/api/posts", params)
    assert response.status_code == 400 and response.json()["message"] == message


def test_list_filters_by_status(api, tenant):
    make_post(tenant, title="Draft one")
    make_post(tenant, title="Live one", status="published")
    make_post(tenant, title="Old one", status="archived")

    def titles(**params):
        return sorted(p["title"] for p in api.get("/api/posts", params).json()["posts"])

    assert titles() == ["Draft one", "Live one", "Old one"]
    assert titles(status="all") == ["Draft one", "Live one", "Old one"]
    assert titles(status="published") == ["Live one"]
    assert titles(status="draft") == ["Draft one"]
    assert titles(status="archived") == ["Old one"]


def test_list_filters_by_category_and_tag_by_id_or_slug(api, tenant):
    news, sport = make_category(tenant, "News", "news"), make_category(tenant, "Sport", "sport")
    red, blue = make_tag(tenant, "Red", "red"), make_tag(tenant, "Blue", "blue")
    make_post(tenant, title="A", categories=[news], tags=[red, blue])
    make_post(tenant, title="B", categories=[news, sport], tags=[blue])
    make_post(tenant, title="C", categories=[sport])

    def titles(**params):
        return sorted(p["title"] for p in api.get("/api/posts", params).json()["posts"])

    assert titles(category="news") == ["A", "B"]
    assert titles(category=str(sport.id)) == ["B", "C"]
    assert titles(tag="blue") == ["A", "B"]
    assert titles(tag=str(red.id)) == ["A"]
    assert titles(category="sport", tag="blue") == ["B"]
    assert titles(category="unknown") == []
    body = api.get("/api/posts", {"category": "news"}).json()
    assert body["totalPosts"] == 2  # a post in two categories is counted once


def test_list_search_matches_title_content_prefixes_and_partial_titles(api, tenant):
    make_post(tenant, title="Deploying Django on Kubernetes", content="<p>Helm charts and probes</p>")
    make_post(tenant, title="Cooking pasta", content="<p>Boil the water; running water is fine</p>")
    make_post(tenant, title="Gardening", content="<p><strong>Tomatoes</strong> need sun</p>")

    def titles(query):
        return sorted(p["title"] for p in api.get("/api/posts", {"search": query}).json()["posts"])

    assert titles("django") == ["Deploying Django on Kubernetes"]
    assert titles("kube") == ["Deploying Django on Kubernetes"]        # prefix of a title word
    assert titles("helm") == ["Deploying Django on Kubernetes"]        # content word
    assert titles("tomato") == ["Gardening"]                           # stemmed prefix in content
    assert titles("run") == ["Cooking pasta"]                          # stemming: running -> run
    assert titles("ardenin") == ["Gardening"]                          # partial inside the title
    assert titles("django helm") == ["Deploying Django on Kubernetes"]  # every word
    assert titles("django tomatoes") == []
    assert titles("strong") == []                                      # markup is not content
    assert titles("100%_") == []                                       # LIKE wildcards are literal


# --- update --------------------------------------------------------------------------------------
def test_update_is_partial(api, tenant, payload, category):
    created = api.post("/api/posts/upload", payload).json()["post"]
    other = make_category(tenant, "Other", "other")
    response = api.put(f"/api/posts/{created['id']}", {"title": "New title", "categories": [str(other.id)]})
    assert response.status_code == 200
    body = response.json()
    assert body["message"] == "Post updated successfully"
    post = body["post"]
    assert post["title"] == "New title"
    assert post["slug"] == "hello-world"  # a new title keeps the URL
    assert post["categories"] == [{"id": str(other.id), "name": "Other", "slug": "other"}]
    assert post["excerpt"] == created["excerpt"] and post["content"] == created["content"]
    assert post["metaTitle"] == created["metaTitle"] and post["featuredImage"] == created["featuredImage"]


def test_update_every_field_of_the_update_payload(api, tenant, payload):
    created = api.post("/api/posts/upload", payload).json()["post"]
    image, og = make_media(tenant, "new.png"), make_media(tenant, "og.png")
    tag = make_tag(tenant, "Fresh", "fresh")
    changes = {
        "content": "<h2>New</h2><p>Body</p>", "excerpt": "New excerpt", "customSlug": "brand new", "status": "archived",
        "allowIndexing": False, "scheduledPublishDate": "2030-01-02", "videoId": "https://youtu.be/dQw4w9WgXcQ",
        "tags": [str(tag.id)], "featuredImage": str(image.id), "metaTitle": "MT", "metaDescription": "MD",
        "canonicalUrl": "https://example.com/canon", "focusKeyword": "kw", "ogTitle": "OG", "ogDescription": "OGD",
        "ogImageId": str(og.id), "twitterTitle": "TT", "twitterDescription": "TD", "twitterImageId": str(og.id),
    }
    post = api.put(f"/api/posts/{created['id']}", changes).json()["post"]
    assert post["content"] == "<h2>New</h2><p>Body</p>" and post["excerpt"] == "New excerpt"
    assert post["slug"] == "brand-new" and post["customSlug"] == "brand new"
    assert post["status"] == "archived" and post["allowIndexing"] is False
    assert post["scheduledPublishDate"] == "2030-01-02T00:00:00Z" and post["videoId"] == "dQw4w9WgXcQ"
    assert [t["slug"] for t in post["tags"]] == ["fresh"] and post["featuredImage"]["id"] == str(image.id)
    assert (post["metaTitle"], post["metaDescription"], post["canonicalUrl"], post["focusKeyword"]) == (
        "MT", "MD", "https://example.com/canon", "kw")
    assert (post["ogTitle"], post["ogDescription"], post["ogImageId"]) == ("OG", "OGD", str(og.id))
    assert (post["twitterTitle"], post["twitterDescription"], post["twitterImageId"]) == ("TT", "TD", str(og.id))
    assert api.get(f"/api/posts/{created['id']}").json()["post"] == post


def test_update_accepts_the_featured_image_object_as_returned(api, tenant, payload):
    created = api.post("/api/posts/upload", payload).json()["post"]
    image = make_media(tenant, "obj.png")
    post = api.put(f"/api/posts/{created['id']}", {"featuredImage": {"id": str(image.id)}}).json()["post"]
    assert post["featuredImage"]["id"] == str(image.id)


def test_update_sanitises_content(api, payload):
    created = api.post("/api/posts/upload", payload).json()["post"]
    post = api.put(f"/api/posts/{created['id']}", {"content": "<p>ok<img src=x onerror=alert(1)></p>"}).json()["post"]
    assert post["content"] == '<p>ok<img src="x"></p>'


def test_changing_the_slug_to_a_taken_one_gets_a_suffix(api, payload):
    first = api.post("/api/posts/upload", payload).json()["post"]
    payload["postTitle"] = "Second"
    second = api.post("/api/posts/upload", payload).json()["post"]
    moved = api.put(f"/api/posts/{second['id']}", {"customSlug": first["slug"]}).json()["post"]
    assert moved["slug"] == "hello-world-2"
    same = api.put(f"/api/posts/{first['id']}", {"customSlug": "Hello World"}).json()["post"]
    assert same["slug"] == "hello-world"  # its own slug is not "taken"


UPDATE_ERRORS = [
    ("title", "", "Title is required", "title"),
    ("content", "   ", "Content is required", "content"),
    ("excerpt", "", "Excerpt is required", "excerpt"),
    ("status", "gone", "Status must be one of draft, published, archived", "status"),
    ("categories", [], "At least one category is required", "categories"),
    ("featuredImage", "", "Featured image is required", "featuredImage"),
    ("metaTitle", " ", "SEO title is required", "metaTitle"),
    ("metaDescription", "", "SEO description is required", "metaDescription"),
    ("canonicalUrl", "ftp://example.com", "Please enter a valid URL", "canonicalUrl"),
    ("categories", ["00000000-0000-0000-0000-000000000000"], "One or more selected categories do not exist",
     "categories"),
    ("tags", ["00000000-0000-0000-0000-000000000000"], "One or more selected tags do not exist", "tags"),
    ("featuredImage", "00000000-0000-0000-0000-000000000000",
     "The featured image does not exist in the media library", "featuredImage"),
]


@pytest.mark.parametrize("field, value, message, error_field", UPDATE_ERRORS)
def test_update_errors_change_nothing(api, payload, tenant, field, value, message, error_field):
    created = api.post("/api/posts/upload", payload).json()["post"]
    response = api.put(f"/api/posts/{created['id']}", {"title": "Changed?", field: value} if field != "title"
                       else {field: value})
    assert response.status_code == 400
    assert response.json()["message"] == message
    assert {"field": error_field, "message": message} in response.json()["errors"]
    assert api.get(f"/api/posts/{created['id']}").json()["post"] == created


def test_update_unknown_post_is_404(api):
    response = api.put("/api/posts/00000000-0000-0000-0000-000000000000", {"title": "x"})
    assert response.status_code == 404 and response.json()["message"] == "Post not found"


# --- delete --------------------------------------------------------------------------------------
def test_delete_removes_the_post_and_its_links_only(api, tenant, payload, category, tag, media):
    payload["tags"] = [str(tag.id)]
    created = api.post("/api/posts/upload", payload).json()["post"]
    response = api.delete(f"/api/posts/{created['id']}")
    assert response.status_code == 200
    assert response.json() == {"success": True, "message": "Post deleted successfully"}
    assert api.get(f"/api/posts/{created['id']}").status_code == 404
    with schema_context(tenant.schema_name):
        assert Category.objects.filter(pk=category.pk).exists()
        assert Tag.objects.filter(pk=tag.pk).exists()
        assert Media.objects.filter(pk=media.pk).exists()
        assert not Post.categories.through.objects.exists() and not Post.tags.through.objects.exists()
    assert api.get(f"/api/categories/{category.id}").json()["category"]["postCount"] == 0
    assert api.delete(f"/api/posts/{created['id']}").status_code == 404


def test_featured_image_in_use_is_protected(tenant, media, category):
    from django.db.models import ProtectedError

    make_post(tenant, featured_image=media, categories=[category])
    with schema_context(tenant.schema_name), pytest.raises(ProtectedError):
        Media.objects.filter(pk=media.pk).delete()


def test_og_image_deleted_from_the_library_is_cleared(tenant, category):
    image = make_media(tenant, "og.png")
    post = make_post(tenant, og_image=image, categories=[category])
    with schema_context(tenant.schema_name):
        Media.objects.filter(pk=image.pk).delete()
        assert Post.objects.get(pk=post.pk).og_image_id is None


def test_deleting_the_author_keeps_the_post(api, tenant, make_user, category):
    writer = make_user(tenant, "author")
    post = make_post(tenant, author=writer, categories=[category])
    with schema_context(tenant.schema_name):
        writer.delete()
    assert api.get(f"/api/posts/{post.id}").json()["post"]["author"] is None


# --- query counts --------------------------------------------------------------------------------
def _seed_posts(tenant, count):
    categories = [make_category(tenant) for _ in range(2)]
    tags = [make_tag(tenant) for _ in range(3)]
    image = make_media(tenant)
    for _ in range(count):
        make_post(tenant, categories=categories, tags=tags, featured_image=image, video_id="dQw4w9WgXcQ")


def _queries(api, path, params=None) -> int:
    """Statements run by one request, leaving out django-tenants' `SET search_path`."""
    with CaptureQueriesContext(connection) as ctx:
        response = api.get(path, params)
    assert response.status_code == 200
    return len([q for q in ctx.captured_queries if not q["sql"].startswith("SET search_path")])


@pytest.mark.parametrize("params", [{}, {"search": "post"}, {"category": "category", "status": "draft"}])
def test_post_list_query_count_does_not_grow_with_rows(api, tenant, params):
    _seed_posts(tenant, 2)
    few = _queries(api, "/api/posts", {**params, "limit": 50})
    _seed_posts(tenant, 20)
    many = _queries(api, "/api/posts", {**params, "limit": 50})
    assert few == many
    assert many <= 6  # domain + user + count + page + categories + tags
    assert len(api.get("/api/posts", {"limit": 50}).json()["posts"]) == 22
