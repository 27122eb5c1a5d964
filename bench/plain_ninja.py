"""The anchor of `make bench-public-api`: a public posts list written the way a Django developer
would write it with django-ninja (a ModelSchema, an ORM queryset with select_related and
prefetch_related, ninja's own pagination, the key compared with the company's), with no cache
and none of the product's hand-made paths. The URLconf of bench.settings_plain_ninja, served
by Django alone (config.wsgi) with the product's middleware (Host -> company, search_path):

    GET /plain/posts?page=1&page_size=10   x-api-key: <the company's content key>

Not part of the product: only the benchmark serves it.
"""
from __future__ import annotations

import hmac

from django.urls import path
from ninja import ModelSchema, NinjaAPI
from ninja.pagination import PageNumberPagination, paginate
from ninja.security import APIKeyHeader

from apps.accounts.models import User
from apps.content.models import Category, Post, Tag
from apps.media.models import Media


class ContentKey(APIKeyHeader):
    param_name = "x-api-key"

    def authenticate(self, request, key):
        tenant = getattr(request, "tenant", None)
        if tenant is not None and key and hmac.compare_digest(key.encode(), tenant.api_key.encode()):
            return key
        return None


class AuthorOut(ModelSchema):
    class Meta:
        model = User
        fields = ["id", "username"]


class CategoryOut(ModelSchema):
    class Meta:
        model = Category
        fields = ["id", "name", "slug"]


class TagOut(ModelSchema):
    class Meta:
        model = Tag
        fields = ["id", "name", "slug"]


class ImageOut(ModelSchema):
    class Meta:
        model = Media
        fields = ["id", "storage_key", "alt_text"]


class PostOut(ModelSchema):
    author: AuthorOut | None = None
    categories: list[CategoryOut]
    tags: list[TagOut]
    featured_image: ImageOut | None = None

    class Meta:
        model = Post
        fields = ["id", "title", "slug", "excerpt", "status", "created_at", "published_at", "video_id"]


api = NinjaAPI(title="plain ninja list (benchmark anchor)", urls_namespace="plain-ninja", auth=ContentKey(),
               docs_url=None)


@api.get("/posts", response=list[PostOut])
@paginate(PageNumberPagination, page_size=10)
def list_posts(request):
    return (Post.objects.filter(status=Post.Status.PUBLISHED)
            .select_related("author", "featured_image")
            .prefetch_related("categories", "tags")
            .order_by("-created_at", "-id"))


urlpatterns = [path("plain/", api.urls)]
