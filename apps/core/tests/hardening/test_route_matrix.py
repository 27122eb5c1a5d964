"""The isolation and permission matrix over EVERY route of the three APIs.

Routes are enumerated from the OpenAPI documents (dashboard /api, public /api/v1, root /api on
the bare domain); each must have one row in ROUTES, which declares once who may call it and what
they get. For every route:

(a) without a token / key                          -> 401
(b) with a token / key of another company          -> 401 (also: a dashboard token on the public
                                                      API, a content key on the dashboard API)
(c) addressing an object of another company        -> 404 (routes with an id or slug)
(d) as each of the four roles (public API: with the content key and the preview key) -> the
    declared status, on a fresh object of this company where the call changes or removes one;
    and no reply names an object of the other company (its ids and slugs), lists included.

Routes that are public on purpose (login, health, sign-up) are declared PUBLIC with the status
an anonymous caller gets. A route missing from the table fails its test, so a new route cannot
skip the matrix; a row naming no route fails too.
"""
from __future__ import annotations

import io
import itertools
import json
import uuid
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Callable

import pytest
from django.test import Client as HttpClient
from django.test.client import MULTIPART_CONTENT
from django.utils import timezone
from django_tenants.utils import schema_context
from PIL import Image

from apps.core import testing
from apps.core.tests.hardening.helpers import ROLES, Seeded, seed_tenant
from config.api import dashboard_api, public_api, root_api

TOKEN, KEY, PUBLIC = "token", "key", "public"
KEY_KINDS = ("content", "preview")
_n = itertools.count(1)


def everyone(status: int = 200) -> dict:
    return {role: status for role in ROLES}


def only(*allowed: str, ok: int = 200, denied: int = 403) -> dict:
    return {role: ok if role in allowed else denied for role in ROLES}


WRITERS = ("admin", "editor", "author")
EDITORS = ("admin", "editor")


@dataclass
class Call:
    params: dict = field(default_factory=dict)
    body: object = None  # JSON, or a dict of multipart fields when multipart=True
    query: dict = field(default_factory=dict)
    multipart: bool = False


@dataclass
class Route:
    access: str  # TOKEN (dashboard JWT), KEY (public x-api-key) or PUBLIC (no credentials)
    expect: dict  # role -> status (TOKEN), key kind -> status (KEY), {"anonymous": status} (PUBLIC)
    call: Callable[["World", str], Call] = lambda world, who: Call()
    root_host: bool = False  # served on the bare domain (sign-up API)


class World:
    """One company (`seeded`) and factories of fresh objects in it; `owner` owns what they make,
    so no tested role owns them (ownership rules are tested by each app)."""

    def __init__(self, seeded: Seeded):
        self.seeded = seeded
        self.tenant = seeded.tenant
        self.owner = testing.create_user(self.tenant, "editor")

    def _in(self, fn):
        with schema_context(self.tenant.schema_name):
            return fn()

    def category(self):
        from apps.content.models import Category

        n = next(_n)
        return self._in(lambda: Category.objects.create(name=f"Matrix {n}", slug=f"matrix-cat-{n}"))

    def tag(self):
        from apps.content.models import Tag

        n = next(_n)
        return self._in(lambda: Tag.objects.create(name=f"Matrix {n}", slug=f"matrix-tag-{n}"))

    def media(self):
        from apps.media.models import Media

        def make():
            media_id = uuid.uuid4()
            return Media.objects.create(id=media_id, file_name="m.png", file_type="image/png", file_size=10,
                                        width=1, height=1, storage_key=f"{self.tenant.schema_name}/media/{media_id}/m.png",
                                        uploaded_by=self.owner)
        return self._in(make)

    def post(self, kind: str = "post"):
        from apps.content.models import Post

        n = next(_n)
        return self._in(lambda: Post.objects.create(
            kind=kind, title=f"Matrix {kind} {n}", slug=f"matrix-{kind}-{n}", excerpt="e", content="<p>c</p>",
            status="published", published_at=timezone.now(), author=self.owner))

    def page(self):
        return self.post("page")

    def multilingual(self) -> None:
        """The company writes in English and French (translation routes need a second language)."""
        from tenants.models import Client

        Client.objects.filter(pk=self.tenant.pk).update(languages=["en", "fr"])

    def draft(self, *, waiting: bool = False, kind: str = "post"):
        """A draft of `owner`; `waiting`: marked ready for review."""
        from apps.content.models import Post

        n = next(_n)
        return self._in(lambda: Post.objects.create(
            kind=kind, title=f"Matrix draft {n}", slug=f"matrix-draft-{n}", excerpt="e", content="<p>c</p>",
            status="draft", author=self.owner, review_requested_at=timezone.now() if waiting else None))

    def preview_link(self, kind: str = "post"):
        """A draft (of `owner`) and a preview link of it."""
        from apps.content.services import preview_link_create

        post = self.draft(kind=kind)
        return post, self._in(lambda: preview_link_create(actor=self.owner, post=post))

    def preview_token(self) -> str:
        from apps.content.selectors import preview_token

        return preview_token(self.preview_link()[1].id)

    def user(self):
        return testing.create_user(self.tenant, "viewer")

    def waiting_account(self):
        """An account as a blog import makes it: inactive, no usable password, not invited yet."""
        from apps.accounts.models import User

        user = self.user()
        self._in(lambda: User.objects.filter(pk=user.pk).update(status="inactive", password="!"))
        return user

    def two_factor(self, user, *, on: bool) -> str:
        """`user` with a new authenticator key (turned on when `on`); a code of it not used yet."""
        import pyotp

        from apps.accounts import two_factor
        from apps.accounts.models import User

        def prepare():
            User.objects.filter(pk=user.pk).update(two_factor_enabled_at=None)
            two_factor.two_factor_setup(user=user)
            if on:
                User.objects.filter(pk=user.pk).update(two_factor_enabled_at=timezone.now(), two_factor_last_step=0)
            return pyotp.TOTP(two_factor._secret_of(User.objects.get(pk=user.pk))).now()

        return self._in(prepare)

    def invitation(self):
        from apps.accounts.models import Invitation

        n = next(_n)
        return self._in(lambda: Invitation.objects.create(
            email=f"invited-{n}@example.com", role="viewer", token_hash=f"{n:064d}", sent_at=timezone.now(),
            expires_at=timezone.now() + timedelta(days=1)))

    def revision(self, kind: str = "post"):
        """A post (of `owner`) and its first revision."""
        from apps.content.services import revision_record

        post = self.post(kind)
        return post, self._in(lambda: revision_record(post=post, actor=self.owner, action="create"))

    def revive(self) -> None:
        from tenants.models import Client

        Client.objects.filter(pk=self.tenant.pk).update(status=self.tenant.status)

    def job(self, role: str):
        from apps.ai.models import GenerationJob

        return self._in(lambda: GenerationJob.objects.create(
            # A result as apps.ai.providers.results.seo_result stores it (the reply's schema checks it).
            kind="seo", input={"title": "t"}, status="succeeded",
            result={"metaTitle": "t", "metaDescription": "d", "keywords": ["k"]}, created_by=self.seeded.users[role]))

    def endpoint(self):
        from apps.webhooks.models import WebhookEndpoint

        return self._in(lambda: WebhookEndpoint.objects.create(
            url="https://93.184.215.14/hook", events=["post.published"], secret="whsec_matrix"))

    def delivery(self):
        """A webhook endpoint and one delivery logged for it."""
        from apps.webhooks.models import WebhookDelivery

        endpoint = self.endpoint()
        return endpoint, self._in(lambda: WebhookDelivery.objects.create(
            endpoint=endpoint, event="webhook.test", payload={"event": "webhook.test"}))

    def integration(self):
        """An integration of the company (apps.integrations) with both its keys."""
        from apps.integrations.services import integration_create

        return self._in(lambda: integration_create(client=self.tenant, name=f"Matrix {next(_n)}").integration)

    def failed_email(self):
        """An email of the company given up after its tries."""
        from tenants.models import OutgoingEmail

        n = next(_n)
        return OutgoingEmail.objects.create(
            message_id=f"<matrix-{n}-{uuid.uuid4().hex}@example.com>", kind="invitation", to=f"m{n}@example.com",
            schema_name=self.tenant.schema_name, subject="s", text="t", html="h", attempts=6, failed_at=timezone.now())

    def import_job(self, status: str = "analysed"):
        """An uploaded export, analysed (apps.portability), waiting to be started (or of `status`)."""
        from apps.portability.models import ImportJob

        return self._in(lambda: ImportJob.objects.create(
            source="ghost", file_key=f"{self.tenant.schema_name}/portability/imports/{uuid.uuid4()}.dat",
            report={"counts": {"post": {"created": 1}}, "items": []}, status=status))

    def member(self):
        """A reader of the company (apps.members)."""
        from apps.members.models import Member

        n = next(_n)
        return self._in(lambda: Member.objects.create(email=f"reader-{n}-{uuid.uuid4().hex[:6]}@example.com",
                                                      created_at=timezone.now()))

    def member_label(self):
        from apps.members.models import Label

        return self._in(lambda: Label.objects.create(name=f"Matrix label {_unique()}"))

    def member_import(self, *, analysed: bool = False):
        """A members CSV uploaded (its dry run done when `analysed`); no other import in progress."""
        from apps.members.models import MemberImport

        def make():
            MemberImport.objects.update(active=None)
            return MemberImport.objects.create(
                source="ghost", file_key=f"{self.tenant.schema_name}/portability/members/{uuid.uuid4()}.csv",
                status="analysed" if analysed else "analysing", active=None if analysed else True,
                plan={"counts": {"created": 1}})
        return self._in(make)

    def member_signin_token(self) -> str:
        """An emailed sign-in link's token of a new member (apps.members.tokens), not used yet."""
        from apps.members.tokens import signin_token

        member = self.member()
        return self._in(lambda: signin_token(member))

    def newsletter(self):
        """A newsletter of the company (apps.newsletters)."""
        from apps.newsletters.models import Newsletter

        n = _unique()
        return self._in(lambda: Newsletter.objects.create(name=f"Matrix {n}", slug=f"matrix-{n}"))

    def send(self, status: str = "sent"):
        """A send of a post (of `owner`) to a newsletter."""
        from apps.newsletters.models import Send

        post, newsletter = self.post(), self.newsletter()
        return self._in(lambda: Send.objects.create(post=post, post_title=post.title, newsletter=newsletter,
                                                    subject=post.title, status=status))

    def export_job(self):
        from apps.portability.models import ExportJob

        return self._in(lambda: ExportJob.objects.create(status="queued"))

    @property
    def ids(self) -> dict:
        return self.seeded.ids


def png() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (4, 4), (10, 20, 30)).save(buffer, "PNG")
    return buffer.getvalue()


def _unique() -> str:
    return f"{next(_n)}-{uuid.uuid4().hex[:6]}"


def _post_body(world: World, who: str) -> dict:
    return {"postTitle": f"Matrix {_unique()}", "postContent": "<p>Body</p>", "postExcerpt": "Excerpt",
            "postStatus": "draft", "categories": [world.ids["category_id"]], "tags": [world.ids["tag_id"]],
            "featuredMediaId": world.ids["media_id"]}


def _page_body(world: World, who: str) -> dict:
    """A page's create payload: a post's, without categories (apps.content.kinds)."""
    return {"postTitle": f"Matrix page {_unique()}", "postContent": "<p>Body</p>", "postExcerpt": "Excerpt",
            "postStatus": "draft", "featuredMediaId": world.ids["media_id"]}


def _upload(world: World, who: str) -> Call:
    from django.core.files.uploadedfile import SimpleUploadedFile

    data = png()
    return Call(multipart=True, body={"file": SimpleUploadedFile("m.png", data, content_type="image/png"),
                                      "fileName": "m.png", "fileType": "image/png", "fileSize": str(len(data)),
                                      "altText": "alt"})


def _members_upload(world: World, who: str) -> Call:
    from django.core.files.uploadedfile import SimpleUploadedFile

    from apps.members.models import MemberImport

    world._in(lambda: MemberImport.objects.update(active=None))  # one import at a time per company
    data = f"email,name\nmatrix-{_unique()}@example.com,Matrix\n".encode()
    return Call(multipart=True, body={"file": SimpleUploadedFile("members.csv", data, content_type="text/csv")})


def _import_upload(world: World, who: str) -> Call:
    from django.core.files.uploadedfile import SimpleUploadedFile

    document = {"db": [{"meta": {"version": "5.0.0"}, "data": {"posts": [{"id": "p1", "title": "Matrix import",
                                                                         "slug": "matrix-import", "html": "<p>x</p>",
                                                                         "status": "draft"}]}}]}
    return Call(multipart=True, body={"file": SimpleUploadedFile("ghost.json", json.dumps(document).encode())})


# --- THE TABLE: every route, once ----------------------------------------------------------------
ROUTES: dict[tuple[str, str], Route] = {
    # accounts
    ("POST", "/api/auth/login"): Route(PUBLIC, {"anonymous": 200}, lambda w, who: Call(body={
        "email": "admin@example.com", "password": testing.DEFAULT_PASSWORD})),
    ("GET", "/api/auth/me"): Route(TOKEN, everyone()),
    # two-factor sign-in: a made-up challenge is refused; each role sets it up, confirms, renews its
    # recovery codes and turns it off for itself (with a real code); admins reset another user's
    ("POST", "/api/auth/login/2fa"): Route(PUBLIC, {"anonymous": 400}, lambda w, who: Call(body={
        "challengeToken": "made-up", "code": "123456"})),
    ("GET", "/api/auth/2fa"): Route(TOKEN, everyone()),
    ("POST", "/api/auth/2fa/setup"): Route(TOKEN, everyone()),
    ("POST", "/api/auth/2fa/confirm"): Route(TOKEN, everyone(), lambda w, who: Call(body={
        "code": w.two_factor(w.seeded.users[who], on=False)})),
    ("POST", "/api/auth/2fa/recovery-codes"): Route(TOKEN, everyone(), lambda w, who: Call(body={
        "code": w.two_factor(w.seeded.users[who], on=True)})),
    ("POST", "/api/auth/2fa/disable"): Route(TOKEN, everyone(), lambda w, who: Call(body={
        "code": w.two_factor(w.seeded.users[who], on=True), "password": testing.DEFAULT_PASSWORD})),
    ("POST", "/api/users/{user_id}/2fa/reset"): Route(TOKEN, only("admin"), lambda w, who: (lambda u: (
        w.two_factor(u, on=True), Call({"user_id": str(u.id)}))[1])(w.user())),
    # forgot password: the same 200 for any address; a made-up link is refused (400 link_invalid)
    ("POST", "/api/auth/forgot-password"): Route(PUBLIC, {"anonymous": 200}, lambda w, who: Call(body={
        "email": f"nobody-{_unique()}@example.com"})),
    ("POST", "/api/auth/reset-password/check"): Route(PUBLIC, {"anonymous": 400}, lambda w, who: Call(body={
        "uid": "bm9ib2R5", "token": "made-up"})),
    ("POST", "/api/auth/reset-password"): Route(PUBLIC, {"anonymous": 400}, lambda w, who: Call(body={
        "uid": "bm9ib2R5", "token": "made-up", "password": testing.DEFAULT_PASSWORD})),
    ("POST", "/api/auth/register-user"): Route(TOKEN, only("admin", ok=201), lambda w, who: Call(body={
        "username": f"new-{_unique()}", "email": f"new-{_unique()}@example.com",
        "password": testing.DEFAULT_PASSWORD, "role": "viewer"})),
    ("GET", "/api/users"): Route(TOKEN, only("admin")),
    ("GET", "/api/users/{user_id}"): Route(TOKEN, only("admin"), lambda w, who: Call({"user_id": str(w.user().id)})),
    ("PUT", "/api/users/{user_id}"): Route(TOKEN, only("admin"), lambda w, who: (lambda u: Call(
        {"user_id": str(u.id)}, {"username": u.username, "email": u.email, "role": "viewer", "status": "active"}))(
        w.user())),
    ("DELETE", "/api/users/{user_id}"): Route(TOKEN, only("admin"), lambda w, who: Call({"user_id": str(w.user().id)})),
    # an account a blog import made, waiting for its owner: an admin invites them
    ("POST", "/api/users/{user_id}/invite"): Route(TOKEN, only("admin", ok=201), lambda w, who: Call(
        {"user_id": str(w.waiting_account().id)})),
    # an author profile: the person's own, or anyone's for an admin (another user's here)
    ("GET", "/api/users/{user_id}/profile"): Route(TOKEN, only("admin"), lambda w, who: Call({"user_id": str(w.user().id)})),
    ("PUT", "/api/users/{user_id}/profile"): Route(TOKEN, only("admin"), lambda w, who: Call(
        {"user_id": str(w.user().id)}, {"bio": "Writes here"})),
    ("GET", "/api/invitations"): Route(TOKEN, only("admin")),
    ("POST", "/api/invitations"): Route(TOKEN, only("admin", ok=201), lambda w, who: Call(body={
        "email": f"invite-{_unique()}@example.com", "role": "viewer"})),
    ("POST", "/api/invitations/{invitation_id}/resend"): Route(TOKEN, only("admin"), lambda w, who: Call(
        {"invitation_id": str(w.invitation().id)})),
    ("DELETE", "/api/invitations/{invitation_id}"): Route(TOKEN, only("admin"), lambda w, who: Call(
        {"invitation_id": str(w.invitation().id)})),
    # an invitation link that does not exist: refused (400 link_invalid)
    ("POST", "/api/auth/invitation/check"): Route(PUBLIC, {"anonymous": 400}, lambda w, who: Call(body={
        "token": "made-up"})),
    ("POST", "/api/auth/accept-invitation"): Route(PUBLIC, {"anonymous": 400}, lambda w, who: Call(body={
        "token": "made-up", "username": f"u{_unique()}", "password": testing.DEFAULT_PASSWORD})),
    # company settings
    ("GET", "/api/client/info"): Route(TOKEN, everyone()),
    ("GET", "/api/client/verification"): Route(TOKEN, everyone()),
    ("POST", "/api/client/verification/resend"): Route(TOKEN, only("admin")),
    ("POST", "/api/client/verify-email"): Route(PUBLIC, {"anonymous": 400}, lambda w, who: Call(body={
        "token": "made-up"})),
    ("PUT", "/api/client/info"): Route(TOKEN, only("admin"), lambda w, who: Call(body={
        "name": "Renamed Company", "contactName": "Contact", "contactEmail": "contact@example.com"})),
    ("POST", "/api/client/api-key/rotate"): Route(TOKEN, only("admin")),
    ("GET", "/api/client/languages"): Route(TOKEN, everyone()),
    ("GET", "/api/client/site"): Route(TOKEN, everyone()),
    ("PUT", "/api/client/site"): Route(TOKEN, only("admin"), lambda w, who: Call(body={
        "title": "Site title", "navigation": [{"label": "Home", "url": "/"}]})),
    ("PUT", "/api/client/languages"): Route(TOKEN, only("admin"), lambda w, who: Call(body={"languages": ["en", "fr"]})),
    ("GET", "/api/client/two-factor-policy"): Route(TOKEN, only("admin")),
    ("PUT", "/api/client/two-factor-policy"): Route(TOKEN, only("admin"), lambda w, who: Call(body={
        "required": False})),
    # support access (apps.accounts.support): admins grant and revoke; the link is exchanged without a
    # token (a made-up one: 401); only a support session ends itself (any other session: 403)
    ("GET", "/api/client/support-access"): Route(TOKEN, only("admin")),
    ("POST", "/api/client/support-access"): Route(TOKEN, only("admin"), lambda w, who: Call(body={"hours": 2})),
    ("DELETE", "/api/client/support-access"): Route(TOKEN, only("admin")),
    ("POST", "/api/client/support-access/exchange"): Route(PUBLIC, {"anonymous": 401}, lambda w, who: Call(body={
        "token": "made-up"})),
    ("POST", "/api/client/support-access/end"): Route(TOKEN, everyone(403)),
    # each call starts from a company that answers (a 202 marks it deleting; the queued part never
    # runs in these tests: lifecycle/tests/test_deletion.py covers it)
    ("POST", "/api/client/delete"): Route(TOKEN, only("admin", ok=202), lambda w, who: (w.revive(), Call(body={
        "confirmSubdomain": w.tenant.subdomain, "password": testing.DEFAULT_PASSWORD}))[1]),
    # health (tenant host and root domain)
    ("GET", "/api/health"): Route(PUBLIC, {"anonymous": 200}),
    ("GET", "root:/api/health"): Route(PUBLIC, {"anonymous": 200}, root_host=True),
    ("GET", "/api/health/live"): Route(PUBLIC, {"anonymous": 200}),
    ("GET", "root:/api/health/live"): Route(PUBLIC, {"anonymous": 200}, root_host=True),
    ("GET", "/api/health/ready"): Route(PUBLIC, {"anonymous": 200}),
    ("GET", "root:/api/health/ready"): Route(PUBLIC, {"anonymous": 200}, root_host=True),
    ("POST", "root:/api/auth/find-companies"): Route(PUBLIC, {"anonymous": 200}, lambda w, who: Call(body={
        "email": f"someone-{_unique()}@example.com"}), root_host=True),
    ("POST", "root:/api/auth/register-client"): Route(PUBLIC, {"anonymous": 201}, lambda w, who: (lambda s: Call(body={
        "companyName": "Matrix Company", "contactName": "Contact Person", "contactEmail": f"c@{s}.example.com",
        "subdomain": s, "adminUsername": f"admin-{s}", "adminEmail": f"admin@{s}.example.com",
        "adminPassword": testing.DEFAULT_PASSWORD}))(testing.unique_subdomain("mx")), root_host=True),
    # posts
    ("GET", "/api/posts"): Route(TOKEN, everyone()),
    ("POST", "/api/posts"): Route(TOKEN, only(*WRITERS, ok=201), lambda w, who: Call(body=_post_body(w, who))),
    ("POST", "/api/posts/upload"): Route(TOKEN, only(*WRITERS, ok=201), lambda w, who: Call(body=_post_body(w, who))),
    ("GET", "/api/posts/slug/{slug}"): Route(TOKEN, everyone(), lambda w, who: Call({"slug": w.ids["slug"]})),
    ("GET", "/api/posts/{post_id}"): Route(TOKEN, everyone(), lambda w, who: Call({"post_id": w.ids["post_id"]})),
    ("PUT", "/api/posts/{post_id}"): Route(TOKEN, only(*EDITORS), lambda w, who: Call(
        {"post_id": str(w.post().id)}, {"title": "Changed title"})),
    ("DELETE", "/api/posts/{post_id}"): Route(TOKEN, only(*EDITORS), lambda w, who: Call({"post_id": str(w.post().id)})),
    # revisions: whoever may edit the post (these posts belong to another editor: authors get 403)
    ("POST", "/api/posts/{post_id}/review/request"): Route(TOKEN, only(*EDITORS), lambda w, who: Call(
        {"post_id": str(w.draft().id)})),  # an author: only their own drafts (apps/content/tests/test_review.py)
    ("POST", "/api/posts/{post_id}/review/return"): Route(TOKEN, only(*EDITORS), lambda w, who: Call(
        {"post_id": str(w.draft(waiting=True).id)}, {"note": "Please add sources"})),
    ("GET", "/api/posts/{post_id}/revisions"): Route(TOKEN, only(*EDITORS), lambda w, who: Call(
        {"post_id": str(w.post().id)})),
    ("GET", "/api/posts/{post_id}/revisions/{revision_id}"): Route(TOKEN, only(*EDITORS), lambda w, who: (
        lambda pr: Call({"post_id": str(pr[0].id), "revision_id": str(pr[1].id)}))(w.revision())),
    ("POST", "/api/posts/{post_id}/revisions/{revision_id}/restore"): Route(TOKEN, only(*EDITORS), lambda w, who: (
        lambda pr: Call({"post_id": str(pr[0].id), "revision_id": str(pr[1].id)}))(w.revision())),
    # autosaved copies and preview links: whoever may edit the post (another editor's: authors get 403)
    ("GET", "/api/posts/{post_id}/autosave"): Route(TOKEN, only(*EDITORS), lambda w, who: Call(
        {"post_id": str(w.draft().id)})),
    ("PUT", "/api/posts/{post_id}/autosave"): Route(TOKEN, only(*EDITORS), lambda w, who: Call(
        {"post_id": str(w.draft().id)}, {"fields": {"title": "Unsaved"}})),
    ("DELETE", "/api/posts/{post_id}/autosave"): Route(TOKEN, only(*EDITORS), lambda w, who: Call(
        {"post_id": str(w.draft().id)})),
    # translations: a draft copy of another editor's post (authors get 403: not their post)
    ("POST", "/api/posts/{post_id}/translations"): Route(TOKEN, only(*EDITORS, ok=201), lambda w, who: (
        w.multilingual(), Call({"post_id": str(w.post().id)}, {"language": "fr"}))[1]),
    ("GET", "/api/posts/{post_id}/preview-links"): Route(TOKEN, only(*EDITORS), lambda w, who: Call(
        {"post_id": str(w.draft().id)})),
    ("POST", "/api/posts/{post_id}/preview-links"): Route(TOKEN, only(*EDITORS, ok=201), lambda w, who: Call(
        {"post_id": str(w.draft().id)})),
    ("DELETE", "/api/posts/{post_id}/preview-links/{link_id}"): Route(TOKEN, only(*EDITORS), lambda w, who: (
        lambda pl: Call({"post_id": str(pl[0].id), "link_id": str(pl[1].id)}))(w.preview_link())),
    # pages (apps.content.kinds): the posts' routes, permissions and answers, the kind bound
    ("GET", "/api/pages"): Route(TOKEN, everyone()),
    ("POST", "/api/pages"): Route(TOKEN, only(*WRITERS, ok=201), lambda w, who: Call(body=_page_body(w, who))),
    ("POST", "/api/pages/upload"): Route(TOKEN, only(*WRITERS, ok=201), lambda w, who: Call(body=_page_body(w, who))),
    ("GET", "/api/pages/slug/{slug}"): Route(TOKEN, everyone(), lambda w, who: Call({"slug": w.ids["page_slug"]})),
    ("GET", "/api/pages/{page_id}"): Route(TOKEN, everyone(), lambda w, who: Call({"page_id": w.ids["page_id"]})),
    ("PUT", "/api/pages/{page_id}"): Route(TOKEN, only(*EDITORS), lambda w, who: Call(
        {"page_id": str(w.page().id)}, {"title": "Changed title"})),
    ("DELETE", "/api/pages/{page_id}"): Route(TOKEN, only(*EDITORS), lambda w, who: Call({"page_id": str(w.page().id)})),
    ("POST", "/api/pages/{page_id}/review/request"): Route(TOKEN, only(*EDITORS), lambda w, who: Call(
        {"page_id": str(w.draft(kind="page").id)})),
    ("POST", "/api/pages/{page_id}/review/return"): Route(TOKEN, only(*EDITORS), lambda w, who: Call(
        {"page_id": str(w.draft(waiting=True, kind="page").id)}, {"note": "Please add sources"})),
    ("GET", "/api/pages/{page_id}/revisions"): Route(TOKEN, only(*EDITORS), lambda w, who: Call(
        {"page_id": str(w.page().id)})),
    ("GET", "/api/pages/{page_id}/revisions/{revision_id}"): Route(TOKEN, only(*EDITORS), lambda w, who: (
        lambda pr: Call({"page_id": str(pr[0].id), "revision_id": str(pr[1].id)}))(w.revision("page"))),
    ("POST", "/api/pages/{page_id}/revisions/{revision_id}/restore"): Route(TOKEN, only(*EDITORS), lambda w, who: (
        lambda pr: Call({"page_id": str(pr[0].id), "revision_id": str(pr[1].id)}))(w.revision("page"))),
    ("GET", "/api/pages/{page_id}/autosave"): Route(TOKEN, only(*EDITORS), lambda w, who: Call(
        {"page_id": str(w.draft(kind="page").id)})),
    ("PUT", "/api/pages/{page_id}/autosave"): Route(TOKEN, only(*EDITORS), lambda w, who: Call(
        {"page_id": str(w.draft(kind="page").id)}, {"fields": {"title": "Unsaved"}})),
    ("DELETE", "/api/pages/{page_id}/autosave"): Route(TOKEN, only(*EDITORS), lambda w, who: Call(
        {"page_id": str(w.draft(kind="page").id)})),
    ("POST", "/api/pages/{page_id}/translations"): Route(TOKEN, only(*EDITORS, ok=201), lambda w, who: (
        w.multilingual(), Call({"page_id": str(w.page().id)}, {"language": "fr"}))[1]),
    ("GET", "/api/pages/{page_id}/preview-links"): Route(TOKEN, only(*EDITORS), lambda w, who: Call(
        {"page_id": str(w.draft(kind="page").id)})),
    ("POST", "/api/pages/{page_id}/preview-links"): Route(TOKEN, only(*EDITORS, ok=201), lambda w, who: Call(
        {"page_id": str(w.draft(kind="page").id)})),
    ("DELETE", "/api/pages/{page_id}/preview-links/{link_id}"): Route(TOKEN, only(*EDITORS), lambda w, who: (
        lambda pl: Call({"page_id": str(pl[0].id), "link_id": str(pl[1].id)}))(w.preview_link("page"))),
    # categories
    ("GET", "/api/categories"): Route(TOKEN, everyone()),
    ("POST", "/api/categories/add"): Route(TOKEN, only(*WRITERS, ok=201), lambda w, who: (lambda u: Call(body={
        "name": f"New {u}", "slug": f"new-{u}", "description": ""}))(_unique())),
    ("GET", "/api/categories/{category_id}"): Route(TOKEN, everyone(), lambda w, who: Call(
        {"category_id": w.ids["category_id"]})),
    ("PUT", "/api/categories/{category_id}"): Route(TOKEN, only(*EDITORS), lambda w, who: Call(
        {"category_id": str(w.category().id)}, {"name": "Renamed", "slug": f"renamed-{_unique()}"})),
    ("DELETE", "/api/categories/{category_id}"): Route(TOKEN, only(*EDITORS), lambda w, who: Call(
        {"category_id": str(w.category().id)})),
    # tags
    ("GET", "/api/tags"): Route(TOKEN, everyone()),
    ("POST", "/api/tags/add"): Route(TOKEN, only(*WRITERS, ok=201), lambda w, who: (lambda u: Call(body={
        "name": f"New {u}", "slug": f"new-{u}"}))(_unique())),
    ("GET", "/api/tags/{tag_id}"): Route(TOKEN, everyone(), lambda w, who: Call({"tag_id": w.ids["tag_id"]})),
    ("PUT", "/api/tags/{tag_id}"): Route(TOKEN, only(*EDITORS), lambda w, who: Call(
        {"tag_id": str(w.tag().id)}, {"name": "Renamed", "slug": f"renamed-{_unique()}"})),
    ("DELETE", "/api/tags/{tag_id}"): Route(TOKEN, only(*EDITORS), lambda w, who: Call({"tag_id": str(w.tag().id)})),
    # search
    ("GET", "/api/search"): Route(TOKEN, everyone(), lambda w, who: Call(query={"q": "Post"})),
    # media
    ("GET", "/api/media"): Route(TOKEN, everyone()),
    ("POST", "/api/media/upload"): Route(TOKEN, only(*WRITERS, ok=201), _upload),
    ("GET", "/api/media/{media_id}"): Route(TOKEN, everyone(), lambda w, who: Call({"media_id": w.ids["media_id"]})),
    ("PUT", "/api/media/{media_id}"): Route(TOKEN, only(*EDITORS), lambda w, who: Call(
        {"media_id": str(w.media().id)}, {"altText": "New alt"})),
    ("DELETE", "/api/media/{media_id}"): Route(TOKEN, only(*EDITORS), lambda w, who: Call(
        {"media_id": str(w.media().id)})),
    # analytics
    ("POST", "/api/analytics/track"): Route(TOKEN, everyone(), lambda w, who: Call(body={
        "pageUrl": "https://example.com/blog/hello", "referrer": "https://news.example.org/"})),
    ("GET", "/api/analytics/page-views"): Route(TOKEN, everyone()),
    ("GET", "/api/dashboard/stats"): Route(TOKEN, everyone()),
    # AI writing (async: answered 202 with the job to poll)
    ("POST", "/api/ai/generate-blog"): Route(TOKEN, only(*WRITERS, ok=202), lambda w, who: Call(
        body={"inputContent": "Ten or more characters about tenancy"}, query={"async": "true"})),
    ("POST", "/api/ai/generate-seo"): Route(TOKEN, only(*WRITERS, ok=202), lambda w, who: Call(
        body={"title": "A title to describe"}, query={"async": "true"})),
    ("POST", "/api/ai/translate-post"): Route(TOKEN, only(*EDITORS, ok=202), lambda w, who: (
        w.multilingual(), Call(body={"postId": str(w.post().id), "language": "fr"}, query={"async": "true"}))[1]),
    ("GET", "/api/ai/jobs/{job_id}"): Route(TOKEN, only(*WRITERS), lambda w, who: Call(
        {"job_id": str(w.job(who if who in ROLES else "admin").id)})),
    # audit log (admins only)
    ("GET", "/api/audit"): Route(TOKEN, only("admin")),
    # the plan's limits and usage (admins only)
    ("GET", "/api/usage"): Route(TOKEN, only("admin")),
    # webhooks (admins only)
    ("GET", "/api/webhooks"): Route(TOKEN, only("admin")),
    ("POST", "/api/webhooks"): Route(TOKEN, only("admin", ok=201), lambda w, who: Call(body={
        "url": "https://93.184.215.14/hook", "events": ["post.published"]})),
    ("GET", "/api/webhooks/{endpoint_id}"): Route(TOKEN, only("admin"), lambda w, who: Call(
        {"endpoint_id": str(w.endpoint().id)})),
    ("PUT", "/api/webhooks/{endpoint_id}"): Route(TOKEN, only("admin"), lambda w, who: Call(
        {"endpoint_id": str(w.endpoint().id)}, {"active": False})),
    ("DELETE", "/api/webhooks/{endpoint_id}"): Route(TOKEN, only("admin"), lambda w, who: Call(
        {"endpoint_id": str(w.endpoint().id)})),
    ("POST", "/api/webhooks/{endpoint_id}/secret/rotate"): Route(TOKEN, only("admin"), lambda w, who: Call(
        {"endpoint_id": str(w.endpoint().id)})),
    ("POST", "/api/webhooks/{endpoint_id}/test"): Route(TOKEN, only("admin", ok=202), lambda w, who: Call(
        {"endpoint_id": str(w.endpoint().id)})),
    ("GET", "/api/webhooks/{endpoint_id}/deliveries"): Route(TOKEN, only("admin"), lambda w, who: Call(
        {"endpoint_id": str(w.endpoint().id)})),
    ("POST", "/api/webhooks/{endpoint_id}/deliveries/{delivery_id}/redeliver"): Route(
        TOKEN, only("admin", ok=202), lambda w, who: (lambda ed: Call(
            {"endpoint_id": str(ed[0].id), "delivery_id": str(ed[1].id)}))(w.delivery())),
    # integrations: outside tools' Content and Admin API keys (admins only)
    ("GET", "/api/integrations"): Route(TOKEN, only("admin")),
    ("POST", "/api/integrations"): Route(TOKEN, only("admin", ok=201), lambda w, who: Call(body={"name": "Matrix"})),
    ("POST", "/api/integrations/{integration_id}/rotate"): Route(TOKEN, only("admin"), lambda w, who: Call(
        {"integration_id": str(w.integration().id)}, body={"keys": ["admin"]})),
    ("DELETE", "/api/integrations/{integration_id}"): Route(TOKEN, only("admin"), lambda w, who: Call(
        {"integration_id": str(w.integration().id)})),
    # import and export (admins only)
    ("GET", "/api/imports"): Route(TOKEN, only("admin")),
    ("POST", "/api/imports"): Route(TOKEN, only("admin", ok=201), _import_upload),
    ("GET", "/api/imports/{job_id}"): Route(TOKEN, only("admin"), lambda w, who: Call(
        {"job_id": str(w.import_job().id)})),
    ("POST", "/api/imports/{job_id}/start"): Route(TOKEN, only("admin", ok=202), lambda w, who: Call(
        {"job_id": str(w.import_job().id)}, {"downloadImages": False})),
    ("GET", "/api/imports/{job_id}/report"): Route(TOKEN, only("admin"), lambda w, who: Call(
        {"job_id": str(w.import_job().id)})),
    ("GET", "/api/imports/missing-images"): Route(TOKEN, only("admin")),
    ("POST", "/api/imports/{job_id}/fetch-missing"): Route(TOKEN, only("admin", ok=202), lambda w, who: Call(
        {"job_id": str(w.import_job(status="completed").id)})),
    ("POST", "/api/exports"): Route(TOKEN, only("admin", ok=202)),
    ("GET", "/api/exports/{job_id}"): Route(TOKEN, only("admin"), lambda w, who: Call(
        {"job_id": str(w.export_job().id)})),
    # members (readers, apps.members): every role reads them; editors and admins manage them
    ("GET", "/api/members"): Route(TOKEN, everyone()),
    ("POST", "/api/members"): Route(TOKEN, only(*EDITORS, ok=201), lambda w, who: Call(body={
        "email": f"new-{_unique()}@example.com", "labels": ["Matrix"]})),
    ("GET", "/api/members/{member_id}"): Route(TOKEN, everyone(), lambda w, who: Call(
        {"member_id": str(w.member().id)})),
    ("PUT", "/api/members/{member_id}"): Route(TOKEN, only(*EDITORS), lambda w, who: Call(
        {"member_id": str(w.member().id)}, {"name": "Renamed"})),
    ("DELETE", "/api/members/{member_id}"): Route(TOKEN, only(*EDITORS), lambda w, who: Call(
        {"member_id": str(w.member().id)})),
    ("POST", "/api/members/bulk/labels"): Route(TOKEN, only(*EDITORS), lambda w, who: Call(body={
        "memberIds": [str(w.member().id)], "add": ["Matrix"]})),
    ("GET", "/api/members/labels"): Route(TOKEN, everyone()),
    ("POST", "/api/members/labels"): Route(TOKEN, only(*EDITORS, ok=201), lambda w, who: Call(body={
        "name": f"Label {_unique()}"})),
    ("PUT", "/api/members/labels/{label_id}"): Route(TOKEN, only(*EDITORS), lambda w, who: Call(
        {"label_id": str(w.member_label().id)}, {"name": f"Renamed {_unique()}"})),
    ("DELETE", "/api/members/labels/{label_id}"): Route(TOKEN, only(*EDITORS), lambda w, who: Call(
        {"label_id": str(w.member_label().id)})),
    ("POST", "/api/members/imports"): Route(TOKEN, only(*EDITORS, ok=201), _members_upload),
    ("GET", "/api/members/imports/{job_id}"): Route(TOKEN, only(*EDITORS), lambda w, who: Call(
        {"job_id": str(w.member_import().id)})),
    ("POST", "/api/members/imports/{job_id}/start"): Route(TOKEN, only(*EDITORS, ok=202), lambda w, who: Call(
        {"job_id": str(w.member_import(analysed=True).id)})),
    ("GET", "/api/members/export"): Route(TOKEN, only(*EDITORS)),
    # newsletters (apps.newsletters): every role sees them and their sends; editors and admins manage
    # them and send posts by email
    ("GET", "/api/newsletters"): Route(TOKEN, everyone()),
    ("POST", "/api/newsletters"): Route(TOKEN, only(*EDITORS, ok=201), lambda w, who: Call(body={
        "name": f"Newsletter {_unique()}"})),
    ("GET", "/api/newsletters/{newsletter_id}"): Route(TOKEN, everyone(), lambda w, who: Call(
        {"newsletter_id": str(w.newsletter().id)})),
    ("PUT", "/api/newsletters/{newsletter_id}"): Route(TOKEN, only(*EDITORS), lambda w, who: Call(
        {"newsletter_id": str(w.newsletter().id)}, {"senderName": "Matrix sender"})),
    ("GET", "/api/newsletters/settings"): Route(TOKEN, everyone()),
    ("PUT", "/api/newsletters/settings"): Route(TOKEN, only("admin"), lambda w, who: Call(body={"trackOpens": True})),
    ("GET", "/api/newsletters/sends/{send_id}"): Route(TOKEN, everyone(), lambda w, who: Call(
        {"send_id": str(w.send().id)})),
    ("POST", "/api/newsletters/sends/{send_id}/cancel"): Route(TOKEN, only(*EDITORS), lambda w, who: Call(
        {"send_id": str(w.send("scheduled").id)})),
    ("GET", "/api/posts/{post_id}/send/recipients"): Route(TOKEN, only(*EDITORS), lambda w, who: Call(
        {"post_id": str(w.post().id)}, query={"newsletterId": str(w.newsletter().id)})),
    ("POST", "/api/posts/{post_id}/send"): Route(TOKEN, only(*EDITORS, ok=202), lambda w, who: Call(
        {"post_id": str(w.post().id)}, {"newsletterId": str(w.newsletter().id)})),
    ("POST", "/api/posts/{post_id}/send/test"): Route(TOKEN, only(*EDITORS, ok=202), lambda w, who: Call(
        {"post_id": str(w.post().id)}, {"newsletterId": str(w.newsletter().id)})),
    ("GET", "/api/posts/{post_id}/sends"): Route(TOKEN, everyone(), lambda w, who: Call(
        {"post_id": str(w.send().post_id)})),
    # outgoing messages (admins)
    ("GET", "/api/outgoing"): Route(TOKEN, only("admin")),
    ("POST", "/api/outgoing/emails/{email_id}/retry"): Route(TOKEN, only("admin", ok=202), lambda w, who: Call(
        {"email_id": str(w.failed_email().id)})),
    # public content API (x-api-key)
    ("GET", "/api/v1/posts"): Route(KEY, {"content": 200, "preview": 200}),
    ("GET", "/api/v1/posts/slug/{slug}"): Route(KEY, {"content": 200, "preview": 200}, lambda w, who: Call(
        {"slug": w.ids["slug"]})),
    ("GET", "/api/v1/posts/category/{slug}"): Route(KEY, {"content": 200, "preview": 200}, lambda w, who: Call(
        {"slug": w.ids["category_slug"]})),
    ("GET", "/api/v1/posts/tag/{slug}"): Route(KEY, {"content": 200, "preview": 200}, lambda w, who: Call(
        {"slug": w.ids["tag_slug"]})),
    ("GET", "/api/v1/pages"): Route(KEY, {"content": 200, "preview": 200}),
    ("GET", "/api/v1/pages/slug/{slug}"): Route(KEY, {"content": 200, "preview": 200}, lambda w, who: Call(
        {"slug": w.ids["page_slug"]})),
    ("GET", "/api/v1/preview/{token}"): Route(KEY, {"content": 200, "preview": 200}, lambda w, who: Call(
        {"token": w.preview_token()})),
    ("GET", "/api/v1/categories"): Route(KEY, {"content": 200, "preview": 200}),
    ("GET", "/api/v1/tags"): Route(KEY, {"content": 200, "preview": 200}),
    ("GET", "/api/v1/redirects"): Route(KEY, {"content": 200, "preview": 200}),
    ("GET", "/api/v1/settings"): Route(KEY, {"content": 200, "preview": 200}),
    ("POST", "/api/v1/analytics/track"): Route(KEY, {"content": 200, "preview": 200}, lambda w, who: Call(body={
        "pageUrl": "https://example.com/blog/hello", "postSlug": w.ids["slug"]})),
    # readers (apps.members): sign-up and sign-in answer the same for every address; a sign-in link's
    # token is exchanged once for a member token
    ("POST", "/api/v1/members/subscribe"): Route(KEY, {"content": 202, "preview": 202}, lambda w, who: Call(body={
        "email": f"reader-{_unique()}@example.com"})),
    ("POST", "/api/v1/members/signin"): Route(KEY, {"content": 202, "preview": 202}, lambda w, who: Call(body={
        "email": f"reader-{_unique()}@example.com"})),
    ("POST", "/api/v1/members/session"): Route(KEY, {"content": 200, "preview": 200}, lambda w, who: Call(body={
        "token": w.member_signin_token()})),
}


def documented_routes() -> list[tuple[str, str]]:
    routes = []
    for api, prefix, tag in ((dashboard_api, "/api/", ""), (public_api, "/api/v1/", ""), (root_api, "/api/", "root:")):
        for path, methods in api.get_openapi_schema(path_prefix=prefix)["paths"].items():
            routes += [(method.upper(), tag + path) for method in methods]
    return routes


DOCUMENTED = documented_routes()


# --- the requests ----------------------------------------------------------------------------------
def _send(host: str, method: str, path_template: str, call: Call, headers: dict):
    path = path_template.removeprefix("root:")
    for name, value in call.params.items():
        path = path.replace("{" + name + "}", value)
    if call.query:
        path += "?" + "&".join(f"{k}={v}" for k, v in call.query.items())
    client = HttpClient(HTTP_HOST=host)
    if method == "GET":
        return client.get(path, headers=headers)
    if call.multipart:
        assert method == "POST", "multipart bodies are sent with POST"
        return client.post(path, call.body, content_type=MULTIPART_CONTENT, headers=headers)
    data = json.dumps(call.body) if call.body is not None else ""
    return getattr(client, method.lower())(path, data, content_type="application/json", headers=headers)


@pytest.fixture
def worlds(db, settings, tmp_path):
    from apps.core import redis_conn

    redis_conn.reset()
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.AI_PROVIDER = "offline"
    settings.AI_DAILY_QUOTA_DEFAULT = settings.AI_MAX_RUNNING_PER_TENANT = 10_000
    settings.AI_DAILY_QUOTA = {}
    return World(seed_tenant()), World(seed_tenant())


def _status(response) -> str:
    return f"{response.status_code} {response.content[:200]!r}"


@pytest.mark.parametrize(("method", "path"), DOCUMENTED, ids=[f"{m} {p}" for m, p in DOCUMENTED])
def test_route(method, path, worlds):
    route = ROUTES.get((method, path))
    assert route is not None, f"{method} {path} is not in the route matrix: add its row to ROUTES"
    ours, theirs = worlds
    host = testing.host_of(None if route.root_host else ours.tenant)

    if route.access == PUBLIC:
        response = _send(host, method, path, route.call(ours, "anonymous"), {})
        assert response.status_code == route.expect["anonymous"], _status(response)
        return

    if route.access == TOKEN:
        def credentials(world, who):
            return world.seeded.bearer(who)
        roles = ROLES
        wrong = {"another company's token": theirs.seeded.bearer("admin"),
                 "a content key instead of a token": {"x-api-key": ours.tenant.api_key},
                 "a malformed token": {"Authorization": "Bearer not-a-jwt"}}
    else:
        def credentials(world, who):
            return {"x-api-key": world.tenant.api_key if who == "content" else world.tenant.preview_key}
        roles = KEY_KINDS
        wrong = {"another company's key": {"x-api-key": theirs.tenant.api_key},
                 "another company's preview key": {"x-api-key": theirs.tenant.preview_key},
                 "a dashboard token instead of a key": ours.seeded.bearer("admin")}
    first = roles[0]

    # (a) no credentials
    response = _send(host, method, path, route.call(ours, first), {})
    assert response.status_code == 401, f"(a) without credentials: {_status(response)}"
    assert response.json()["error"] == "unauthorized"
    # (b) credentials of another company, or of the other API
    for label, headers in wrong.items():
        response = _send(host, method, path, route.call(ours, first), headers)
        assert response.status_code == 401, f"(b) {label}: {_status(response)}"
    # (c) an object of another company, asked for on our host with our credentials
    if "{" in path:
        foreign = route.call(theirs, first)
        mine = route.call(ours, first)
        response = _send(host, method, path, Call(foreign.params, mine.body, mine.query, mine.multipart),
                         credentials(ours, first))
        assert response.status_code == 404, f"(c) another company's object: {_status(response)}"
        assert response.json()["success"] is False
    # (d) each role (or key kind); no reply on our host ever names an object of theirs
    assert set(route.expect) == set(roles), f"declare exactly {roles}"
    foreign_values = set(theirs.ids.values())
    for who in roles:
        response = _send(host, method, path, route.call(ours, who), credentials(ours, who))
        assert response.status_code == route.expect[who], f"(d) {who}: {_status(response)}"
        text = response.content.decode()
        assert not [value for value in foreign_values if value in text], f"(d) {who}: another company's data"
        body = response.json()
        if response.status_code < 400:
            assert body.get("success", True) is not False, body
        else:
            assert body["success"] is False and body["error"] == "forbidden", body


def test_every_row_of_the_table_is_a_route():
    stale = sorted(set(ROUTES) - set(DOCUMENTED))
    assert not stale, f"rows without a route: {stale}"


# --- what each route declares (apps.core.permissions.requires) --------------------------------------
# The dashboard and sign-up routes state what they need on the route itself, from the capability table;
# the check runs from that declaration. Every route declares one, and each declaration agrees with
# the statuses the table above expects of each role.
def declared_routes() -> dict[tuple[str, str], str | None]:
    from apps.core.api import route_declarations

    return {**route_declarations(dashboard_api, path_prefix="/api/"),
            **route_declarations(root_api, path_prefix="/api/", tag="root:")}


DECLARED = declared_routes()


def test_every_dashboard_and_sign_up_route_declares_what_it_needs():
    documented = {route for route in DOCUMENTED if not route[1].startswith("/api/v1/")}
    assert set(DECLARED) == documented, "the declarations are read from every documented route"
    missing = sorted(route for route, declared in DECLARED.items() if declared is None)
    assert not missing, f"routes without @requires(...) (apps/core/permissions.py): {missing}"


@pytest.mark.parametrize(("method", "path"), sorted(DECLARED), ids=[f"{m} {p}" for m, p in sorted(DECLARED)])
def test_the_declaration_agrees_with_the_matrix(method, path):
    from apps.core.permissions import PUBLIC as DECLARED_PUBLIC, allowed_roles

    declared, route = DECLARED[(method, path)], ROUTES[(method, path)]
    assert (declared == DECLARED_PUBLIC) == (route.access == PUBLIC), f"declared {declared!r}, matrix {route.access}"
    if route.access == PUBLIC:
        return
    denied = {role for role, status in route.expect.items() if status == 403}
    # Each role the declaration refuses gets 403; a role it lets through may still be refused by an
    # object-level rule of a service (these objects belong to another user).
    assert set(ROLES) - allowed_roles(declared) <= denied, f"declared {declared!r}, matrix {route.expect}"
