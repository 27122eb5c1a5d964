"""Shared pieces of the hardening suites: a tenant holding one object of every kind, role
tokens, an in-process WSGI caller that keeps the test's transaction, and free ports."""
from __future__ import annotations

import contextlib
import io
import json
import uuid
from dataclasses import dataclass, field

from django.core import signals
from django.db import close_old_connections, connection
from django.utils import timezone
from django_tenants.utils import schema_context

from apps.accounts.tokens import token_issue
from apps.core import testing
from apps.core.testing import host_of
from apps.core.tests.hardening.services import free_port  # noqa: F401 - re-exported

ROLES = ("admin", "editor", "author", "viewer")


@dataclass
class Seeded:
    """A tenant with one object of each kind the APIs address by id or slug."""

    tenant: object
    users: dict = field(default_factory=dict)  # role -> User
    tokens: dict = field(default_factory=dict)  # role -> JWT
    ids: dict = field(default_factory=dict)  # path parameter name -> value

    @property
    def host(self) -> str:
        return host_of(self.tenant)

    @property
    def api_key(self) -> str:
        return self.tenant.api_key

    def bearer(self, role: str = "admin") -> dict:
        return {"Authorization": f"Bearer {self.tokens[role]}"}


def seed_tenant(tenant=None, *, marker: str | None = None) -> Seeded:
    """Create (or fill) a tenant: a user per role, a published post with a category, a tag and a
    featured image, a finished AI job. Rows are made with the ORM (fast); files are not needed."""
    from apps.ai.models import GenerationJob
    from apps.content.models import Category, Post, Tag
    from apps.media.models import Media

    tenant = tenant or testing.create_tenant()
    marker = marker or uuid.uuid4().hex[:6]
    seeded = Seeded(tenant=tenant)
    seeded.users["admin"] = testing.tenant_admin(tenant)
    for role in ROLES[1:]:
        seeded.users[role] = testing.create_user(tenant, role)
    for role, user in seeded.users.items():
        seeded.tokens[role], _ = token_issue(user=user, schema_name=tenant.schema_name)
    with schema_context(tenant.schema_name):
        category = Category.objects.create(name=f"Category {marker}", slug=f"category-{marker}")
        tag = Tag.objects.create(name=f"Tag {marker}", slug=f"tag-{marker}")
        media_id = uuid.uuid4()
        media = Media.objects.create(
            id=media_id, file_name="photo.png", file_type="image/png", file_size=100, alt_text="A photo",
            width=10, height=10, storage_key=f"{tenant.schema_name}/media/{media_id}/photo.png",
            uploaded_by=seeded.users["author"],
        )
        post = Post.objects.create(
            title=f"Post {marker}", slug=f"post-{marker}", excerpt="An excerpt", content="<p>Body</p>",
            status=Post.Status.PUBLISHED, published_at=timezone.now(), author=seeded.users["author"],
            featured_image=media,
        )
        post.categories.set([category])
        post.tags.set([tag])
        page = Post.objects.create(  # a page (apps.content.kinds): /api/pages, /api/v1/pages
            kind="page", title=f"Page {marker}", slug=f"page-{marker}", excerpt="About", content="<p>About</p>",
            status=Post.Status.PUBLISHED, published_at=timezone.now(), author=seeded.users["author"],
            featured_image=media,
        )
        job = GenerationJob.objects.create(
            kind=GenerationJob.Kind.SEO, input={"title": "t"}, status=GenerationJob.Status.SUCCEEDED,
            result={"metaTitle": "t", "metaDescription": "d", "keywords": []}, created_by=seeded.users["admin"],
        )
    seeded.ids = {
        "post_id": str(post.id), "category_id": str(category.id), "tag_id": str(tag.id),
        "media_id": str(media.id), "user_id": str(seeded.users["viewer"].id), "job_id": str(job.id),
        "slug": post.slug, "category_slug": category.slug, "tag_slug": tag.slug,
        "page_id": str(page.id), "page_slug": page.slug,
    }
    connection.set_schema_to_public()
    return seeded


@contextlib.contextmanager
def keep_test_connection():
    """As Django's test client does: a request must not close the test's connection (and with it
    the transaction the test runs in)."""
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        signals.request_started.connect(close_old_connections)
        signals.request_finished.connect(close_old_connections)
        connection.set_schema_to_public()


class WsgiResponse:
    def __init__(self, status: str, headers: list, chunks):
        self.status_code = int(status.split()[0])
        self.header_list = headers
        self.headers = {name.lower(): value for name, value in headers}
        self.content = b"".join(chunks)
        if hasattr(chunks, "close"):
            chunks.close()

    def json(self):
        return json.loads(self.content)


def wsgi_call(app, host: str, method: str, path: str, *, query: str = "", headers: dict | None = None,
              body: bytes = b"", content_type: str = "application/json") -> WsgiResponse:
    """One request through a WSGI application (e.g. the production one with the fast path)."""
    environ = {
        "REQUEST_METHOD": method, "PATH_INFO": path, "QUERY_STRING": query, "SCRIPT_NAME": "",
        "SERVER_NAME": "testserver", "SERVER_PORT": "80", "SERVER_PROTOCOL": "HTTP/1.1",
        "HTTP_HOST": host, "wsgi.input": io.BytesIO(body), "wsgi.errors": io.StringIO(),
        "wsgi.url_scheme": "http", "wsgi.version": (1, 0), "wsgi.multithread": False,
        "wsgi.multiprocess": False, "wsgi.run_once": False, "CONTENT_LENGTH": str(len(body)),
    }
    if body:
        environ["CONTENT_TYPE"] = content_type
    for name, value in (headers or {}).items():
        environ["HTTP_" + name.upper().replace("-", "_")] = value
    captured = {}

    def start_response(status, response_headers, exc_info=None):
        captured["status"], captured["headers"] = status, response_headers

    with keep_test_connection():
        chunks = app(environ, start_response)
        return WsgiResponse(captured["status"], captured["headers"], chunks)


def production_wsgi_app():
    """The application gunicorn serves (apps.public_api.wsgi): Django behind the public API's
    cache-hit fast path."""
    from django.core.handlers.wsgi import WSGIHandler

    from apps.public_api.fastpath import PublicApiFastPath

    return PublicApiFastPath(WSGIHandler())
