"""The success replies of every dashboard operation, byte for byte.

`dashboard_replies.json` holds the exact body (and status) of one representative request per
operation, recorded before the success replies were given OpenAPI schemas: documenting a reply
must not change it (key order, nulls, date formats, number formats, envelopes). Each case runs
on a fresh company whose rows have fixed names and timestamps; what cannot be fixed is replaced
by a placeholder before comparing: ids (`<post:published>`), keys and tokens, and timestamps
written during the request (`<now>`, only in the encoder's exact format, so a format change
still shows). Re-record deliberately with RECORD_REPLIES=1 after an intended change of a reply.

The second half checks the OpenAPI side: every dashboard operation documents its success
replies with a named schema, and each recorded reply is valid against it.
"""
from __future__ import annotations

import io
import json
import os
import re
from datetime import date, datetime, timedelta
from datetime import timezone as dt_timezone
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test.client import MULTIPART_CONTENT
from django.utils import timezone
from django_tenants.utils import schema_context
from PIL import Image

from apps.core import testing

GOLDEN = Path(__file__).with_name("dashboard_replies.json")
RECORD = os.environ.get("RECORD_REPLIES") == "1"
SUBDOMAIN = "golden"
PASSWORD = testing.DEFAULT_PASSWORD

# Fixed instants (with microseconds: the encoder keeps milliseconds).
T0 = datetime(2001, 2, 3, 4, 5, 6, 789123, tzinfo=dt_timezone.utc)
TODAY = date(2001, 2, 7)  # the analytics' "today" (UTC)


TRIAL_END = datetime(2999, 2, 17, 4, 5, 6, 789123, tzinfo=dt_timezone.utc)


def at(minutes: int) -> datetime:
    return T0 + timedelta(minutes=minutes)


# --- a company with one row of each kind -----------------------------------------------------------
class World:
    def __init__(self, tenant):
        self.tenant = tenant
        self.names: dict[str, str] = {}  # exact value -> placeholder
        self.objects: dict[str, object] = {}
        self.values: dict[str, str] = {}  # {value:name} in a case: tokens of emailed links

    def keep(self, name: str, obj) -> None:
        self.objects[name] = obj
        self.names[str(obj.pk)] = f"<{name}>"

    def id(self, name: str) -> str:
        if name in self.values:
            return self.values[name]
        return str(self.objects[name].pk)

    def api(self, role: str = "admin") -> testing.Api:
        return testing.Api(self.tenant, user=self.objects[f"user:{role}"])


def build_world(tenant) -> World:
    from apps.accounts.models import User
    from apps.ai.models import GenerationJob
    from apps.analytics.models import DailyPostViews, DailyReferrerViews, DailyTotal, PageView
    from apps.content.models import Category, Post, Tag
    from apps.media.models import Media
    from tenants.models import Client

    world = World(tenant)
    # A trial that has not ended (an ended one makes the dashboard read-only: apps/plans/tests/test_trial.py).
    Client.objects.filter(pk=tenant.pk).update(created_at=at(0), trial_ends_at=TRIAL_END)
    tenant.refresh_from_db()
    world.names[tenant.api_key] = "<apiKey>"
    world.names[tenant.preview_key] = "<previewKey>"
    world.names[tenant.ghost_content_key] = "<ghostContentKey>"
    world.names[str(tenant.uuid)] = "<company>"
    admin = testing.tenant_admin(tenant)
    world.keep("user:admin", admin)
    for minute, role in enumerate(("editor", "author", "viewer"), start=1):
        world.keep(f"user:{role}", testing.create_user(tenant, role, email=f"{role}@example.com", username=role))
    with schema_context(tenant.schema_name):
        for minute, user in enumerate(User.objects.order_by("created_at")):
            User.objects.filter(pk=user.pk).update(created_at=at(minute))
        User.objects.filter(role="editor").update(last_login=at(30))

        news = Category.objects.create(name="News", slug="news", description="What happened")
        empty = Category.objects.create(name="Empty", slug="empty")
        python = Tag.objects.create(name="Python", slug="python")
        django_tag = Tag.objects.create(name="Django", slug="django")
        spare = Tag.objects.create(name="Spare", slug="spare")
        for name, obj in (("category:news", news), ("category:empty", empty), ("tag:python", python),
                          ("tag:django", django_tag), ("tag:spare", spare)):
            world.keep(name, obj)

        photo = Media.objects.create(
            file_name="photo.png", file_type="image/png", file_size=1234, alt_text="A photo", width=640,
            height=480, storage_key="placeholder-photo", uploaded_by=world.objects["user:author"],
        )
        key = f"{tenant.schema_name}/media/{photo.pk}/photo.png"
        renditions = {
            name: {"webp": f"{tenant.schema_name}/media/{photo.pk}/renditions/{width}w.webp",
                   "original": f"{tenant.schema_name}/media/{photo.pk}/renditions/{width}w.png",
                   "width": width, "height": width * 3 // 4}
            for name, width in (("thumbnail", 150), ("small", 320))
        }
        Media.objects.filter(pk=photo.pk).update(storage_key=key, renditions=renditions, uploaded_at=at(10),
                                                 created_at=at(10))
        orphan = Media.objects.create(
            file_name="orphan.gif", file_type="image/gif", file_size=99, alt_text="", width=None, height=None,
            storage_key="placeholder-orphan", uploaded_by=None,
        )
        Media.objects.filter(pk=orphan.pk).update(
            storage_key=f"{tenant.schema_name}/media/{orphan.pk}/orphan.gif", uploaded_at=at(11), created_at=at(11))
        world.keep("media:photo", photo)
        world.keep("media:orphan", orphan)

        published = Post.objects.create(
            title="Hello world", slug="hello-world", custom_slug="hello-world", excerpt="The first post",
            content="<p>Hello <strong>world</strong></p>", status="published", published_at=at(20),
            author=world.objects["user:author"], featured_image=photo, video_id="dQw4w9WgXcQ",
            meta_title="Hello SEO", meta_description="SEO description", canonical_url="https://example.com/hello",
            focus_keyword="hello", og_title="OG title", og_description="OG description", og_image=photo,
        )
        published.categories.set([news])
        # One link at a time: a post's tags keep the order their links were made in (its first is its
        # primary tag), and set() makes several links in no fixed order.
        for tag in (python, django_tag):
            published.tags.add(tag)
        draft = Post.objects.create(
            title="Draft without author", slug="draft-without-author", excerpt="", content="<p>Draft</p>",
            status="draft", author=None, allow_indexing=False, scheduled_publish_date=at(60 * 24 * 365 * 30),
            publish_scheduled=True, twitter_image=orphan,
        )
        draft.categories.set([news])
        archived = Post.objects.create(
            title="Old news", slug="old-news", excerpt="Archived", content="<p>Old</p>", status="archived",
            published_at=at(5), author=world.objects["user:editor"],
        )
        waiting = Post.objects.create(
            title="Ready for review", slug="ready-for-review", excerpt="Please look", content="<p>Review me</p>",
            status="draft", author=world.objects["user:author"], featured_image=photo, review_requested_at=at(40),
        )
        waiting.categories.set([news])
        for minute, post in ((21, published), (22, draft), (19, archived), (18, waiting)):
            Post.objects.filter(pk=post.pk).update(created_at=at(minute), updated_at=at(minute + 100))
        world.keep("post:waiting", waiting)
        world.keep("post:published", published)
        world.keep("post:draft", draft)
        world.keep("post:archived", archived)
        from apps.content.models import PostRevision
        from apps.content.services import revision_record

        published.refresh_from_db()
        first = revision_record(post=published, actor=world.objects["user:editor"], action="create")
        PostRevision.objects.filter(pk=first.pk).update(created_at=at(21))
        world.keep("revision:first", first)
        from apps.content.models import PreviewLink
        from apps.content.selectors import preview_token, preview_token_hash

        link = PreviewLink(post=draft, created_by=world.objects["user:editor"], expires_at=at(60 * 24 * 7))
        link.token_hash = preview_token_hash(preview_token(link.id))
        link.save(force_insert=True)
        PreviewLink.objects.filter(pk=link.pk).update(created_at=at(23))
        world.keep("link:first", link)

        # Pages (apps.content.kinds.PAGE: rows of the posts' table): a published page (featured), the
        # author's draft page with two revisions, their unsaved copy and an open preview link, and the
        # author's page waiting for review.
        from apps.content import kinds
        from apps.content.services import autosave_put

        author, editor = world.objects["user:author"], world.objects["user:editor"]
        about = Post.objects.create(
            kind=kinds.PAGE.name, title="About", slug="about", custom_slug="about", excerpt="Who we are",
            content="<p>We write about <em>everything</em></p>", status="published", published_at=at(90),
            author=editor, featured_image=photo, featured=True, meta_title="About Golden",
            meta_description="The people behind the journal")
        contact = Post.objects.create(
            kind=kinds.PAGE.name, title="Contact", slug="contact", excerpt="How to reach us",
            content="<p>Write to us</p>", status="draft", author=author, featured_image=photo)
        team = Post.objects.create(
            kind=kinds.PAGE.name, title="Team", slug="team", excerpt="Who does what", content="<p>Our team</p>",
            status="draft", author=author, featured_image=photo, review_requested_at=at(95))
        for minute, page in ((90, about), (92, contact), (94, team)):
            Post.objects.filter(pk=page.pk).update(created_at=at(minute), updated_at=at(minute + 100))
            page.refresh_from_db()
        first_page = revision_record(post=contact, actor=author, action="create")
        Post.objects.filter(pk=contact.pk).update(title="Get in touch", updated_at=at(193))
        contact.refresh_from_db()
        second_page = revision_record(post=contact, actor=author, action="update")
        PostRevision.objects.filter(pk=first_page.pk).update(created_at=at(92))
        PostRevision.objects.filter(pk=second_page.pk).update(created_at=at(93))
        copy = autosave_put(actor=author, post=contact, data={"title": "Get in touch with us"},
                            base_updated_at=contact.updated_at)
        type(copy).objects.filter(pk=copy.pk).update(updated_at=at(96))
        page_link = PreviewLink(post=contact, created_by=author, expires_at=at(60 * 24 * 365 * 30))
        page_link.token_hash = preview_token_hash(preview_token(page_link.id))
        page_link.save(force_insert=True)
        PreviewLink.objects.filter(pk=page_link.pk).update(created_at=at(97))
        for name, obj in (("page:about", about), ("page:contact", contact), ("page:team", team),
                          ("revision:page_first", first_page), ("revision:page_second", second_page),
                          ("link:page", page_link)):
            world.keep(name, obj)

        today = TODAY
        DailyTotal.objects.create(day=today - timedelta(days=1), views=7, unique_visitors=3)
        DailyTotal.objects.create(day=today - timedelta(days=2), views=2, unique_visitors=2)
        DailyPostViews.objects.create(day=today - timedelta(days=1), post=published, views=6)
        DailyPostViews.objects.create(day=today - timedelta(days=2), post=archived, views=2)
        DailyReferrerViews.objects.create(day=today - timedelta(days=1), source="direct", views=5)
        DailyReferrerViews.objects.create(day=today - timedelta(days=1), source="news.example.com", views=4)
        PageView.objects.create(event_id="d:pending", occurred_at=at(60 * 24 * 4), day=today,
                                page_url="https://site.example.com/hello-world", post_slug="hello-world",
                                source="search.example.com", visitor_hash="v1")

        admin_user = world.objects["user:admin"]
        jobs = {
            "job:seo": dict(kind="seo", status="succeeded", input={"title": "t"},
                            result={"metaTitle": "Meta", "metaDescription": "Description", "keywords": ["a", "b"]}),
            "job:failed": dict(kind="blog", status="failed", input={"inputContent": "x" * 20},
                               error="Gemini API error: 503"),
            "job:queued": dict(kind="blog", status="queued", input={"inputContent": "x" * 20}),
        }
        for name, fields in jobs.items():
            world.keep(name, GenerationJob.objects.create(created_by=admin_user, **fields))

        from apps.audit.models import AuditEntry

        entry = AuditEntry.objects.create(action="post.review_requested", actor=world.objects["user:author"],
                                          actor_name="author", object_type="post", object_id=str(waiting.pk),
                                          summary="Ready for review", client_hash="0" * 32)
        AuditEntry.objects.filter(pk=entry.pk).update(created_at=at(40))
        world.keep("audit:first", entry)

        from apps.webhooks.models import WebhookDelivery, WebhookEndpoint

        site = WebhookEndpoint.objects.create(url="https://93.184.215.14/build", description="Static site",
                                              events=["post.published", "post.deleted"], secret="whsec_golden")
        delivery = WebhookDelivery.objects.create(
            endpoint=site, event="post.published", payload={"event": "post.published"}, status="succeeded",
            attempt=1, response_status=200, response_excerpt="ok", duration_ms=12, last_attempt_at=at(30))
        WebhookEndpoint.objects.filter(pk=site.pk).update(created_at=at(25), updated_at=at(26))
        WebhookDelivery.objects.filter(pk=delivery.pk).update(created_at=at(30))
        world.keep("endpoint:site", site)
        world.keep("delivery:first", delivery)
        world.names[str(delivery.event_id)] = "<delivery:event>"

        # Integrations (apps.integrations): one made by the admin; the company's own key's is made
        # when they are first listed.
        from apps.integrations import secrets
        from apps.integrations.models import Integration

        zapier = Integration.objects.create(
            name="Zapier", content_key_hash=secrets.content_key_hash("0" * 26), content_key_hint="0000",
            admin_key_id="1" * 24, admin_secret=secrets.encrypt("2" * 64), admin_secret_hint="2222",
            created_by=admin_user)
        Integration.objects.filter(pk=zapier.pk).update(created_at=at(54), updated_at=at(54))
        world.keep("integration:zapier", zapier)

        # Blog import and export (apps.portability): a dry run waiting, a finished import, a queued export.
        from apps.portability.models import ExportJob, ImportJob

        analysed = ImportJob.objects.create(
            source="ghost", source_version="Ghost 5.0.0", file_name="ghost.json", file_size=120,
            file_key=f"{tenant.schema_name}/portability/imports/analysed.dat", total=3,
            plan={"source": "ghost", "version": "Ghost 5.0.0", "site": "", "counts": {"post": {"create": 2}},
                  "conflicts": [], "unsupported": [], "skipped": []}, created_by=admin_user)
        done = ImportJob.objects.create(
            source="wordpress", source_version="WXR 1.2", file_name="blog.xml", file_size=4567,
            file_key=f"{tenant.schema_name}/portability/imports/done.dat", status="completed", phase="completed",
            done=5, total=5, started_at=at(51), finished_at=at(52), created_by=admin_user,
            report={"counts": {"post": {"created": 4}, "image": {"missing": 1}},
                    "items": [{"kind": "image", "item": "https://old.example.com/a.jpg", "outcome": "missing",
                               "reason": "HTTP 404"}]})
        ImportJob.objects.filter(pk=analysed.pk).update(created_at=at(49))
        ImportJob.objects.filter(pk=done.pk).update(created_at=at(50))
        exported = ExportJob.objects.create(created_by=admin_user)
        ExportJob.objects.filter(pk=exported.pk).update(created_at=at(53))
        world.keep("import:analysed", analysed)
        world.keep("import:done", done)
        world.keep("export:queued", exported)
        # What the finished import left: the featured image of a post it could not bring (as its
        # report says), and the account it made for an author of the old blog, inactive, without a
        # password and not emailed (started without inviteAuthors: apps.portability.importer).
        from django.contrib.auth.hashers import make_password

        from apps.core.permissions import Role
        from apps.portability.models import MissingImage

        lost = MissingImage.objects.create(job=done, post=world.objects["post:archived"],
                                           url="https://old.example.com/a.jpg", role=MissingImage.Role.FEATURED,
                                           alt_text="Old photo", reason="HTTP 404")
        MissingImage.objects.filter(pk=lost.pk).update(created_at=at(52), updated_at=at(52))
        imported = User.objects.create(username="margaret", email="margaret@old.example.com",
                                       password=make_password(None), role=Role.AUTHOR, status=User.Status.INACTIVE)
        User.objects.filter(pk=imported.pk).update(created_at=at(52), updated_at=at(52))
        world.keep("user:imported", imported)

        # Readers (apps.members, apps.newsletters): the first newsletter, two members (one labelled),
        # a members CSV analysed and waiting, a post sent to the newsletter, another waiting for its
        # post's publication.
        from apps.members.models import Label, Member, MemberImport
        from apps.newsletters.models import Delivery, Newsletter, Send
        from apps.newsletters.services import newsletter_first_ensure

        newsletter_first_ensure()
        first = Newsletter.objects.get()
        Newsletter.objects.filter(pk=first.pk).update(created_at=at(80), updated_at=at(80))
        vip = Label.objects.create(name="VIP")
        Label.objects.filter(pk=vip.pk).update(created_at=at(80))
        ada = Member.objects.create(email="ada@example.com", name="Ada", note="Met at the launch", source="website",
                                    consent_at=at(81), consent_ip="203.0.113.7", created_at=at(81))
        grace = Member.objects.create(email="grace@example.com", name="Grace", status="comped", created_at=at(82))
        ada.labels.set([vip])
        for member in (ada, grace):
            member.newsletters.set([first])
        Member.objects.filter(pk__in=[ada.pk, grace.pk]).update(updated_at=at(83))
        waiting = MemberImport.objects.create(
            source="substack", file_name="subscribers.csv", file_size=321, status="analysed",
            file_key=f"{tenant.schema_name}/portability/members/analysed.csv", done=3, created_by=admin_user,
            plan={"encoding": "utf-8", "counts": {"rows": 3, "created": 2, "updated": 0, "duplicates": 0, "skipped": 0,
                                                 "invalid": 1},
                  "problems": [{"line": 4, "email": "nope", "reason": "Not a valid email address"}], "remarks": []})
        MemberImport.objects.filter(pk=waiting.pk).update(created_at=at(84))
        sent = Send.objects.create(post=world.objects["post:archived"], post_title=world.objects["post:archived"].title,
                                   newsletter=first, subject="Last issue", status="sent", recipients=2,
                                   created_by=admin_user)
        Delivery.objects.create(send=sent, member=ada, email=ada.email, status="sent", attempts=1, sent_at=at(86))
        Delivery.objects.create(send=sent, member=grace, email=grace.email, status="failed", attempts=1,
                                error="SMTPRecipientsRefused: 550 No such mailbox here")
        Send.objects.filter(pk=sent.pk).update(created_at=at(85), started_at=at(85), finished_at=at(86))
        scheduled = Send.objects.create(post=world.objects["post:draft"], post_title="Draft without author",
                                        newsletter=first, subject="Draft without author", status="scheduled",
                                        created_by=admin_user)
        Send.objects.filter(pk=scheduled.pk).update(created_at=at(87))
        for name, obj in (("newsletter:first", first), ("label:vip", vip), ("member:ada", ada),
                          ("member:grace", grace), ("mimport:analysed", waiting), ("send:sent", sent),
                          ("send:scheduled", scheduled)):
            world.keep(name, obj)

        # Outgoing messages: an invitation email given up after its tries.
        from tenants.models import OutgoingEmail

        failed = OutgoingEmail.objects.create(
            message_id="<golden-failed@example.com>", kind="invitation", schema_name=tenant.schema_name,
            to="invitee@example.com", subject="You are invited", text="t", html="<p>t</p>", attempts=6,
            last_error="SMTPServerDisconnected: Connection unexpectedly closed", failed_at=at(45))
        OutgoingEmail.objects.filter(pk=failed.pk).update(created_at=at(44))
        world.keep("email:failed", failed)

        # Emailed links: a password reset of the viewer, an open invitation, the sign-up verification.
        import hashlib

        from apps.accounts.links import password_reset_tokens, uid_encode
        from apps.accounts.models import Invitation
        from lifecycle import verification

        viewer = world.objects["user:viewer"]
        world.values["value:reset_uid"] = uid_encode(viewer.pk)
        world.values["value:reset_token"] = password_reset_tokens.make_token(viewer)
        invite_token = "golden-invitation-token-0123456789abcdef"
        invitation = Invitation.objects.create(
            email="invitee@example.com", role="editor", token_hash=hashlib.sha256(invite_token.encode()).hexdigest(),
            invited_by=admin, sent_at=at(40), expires_at=at(60 * 24 * 365 * 30))
        Invitation.objects.filter(pk=invitation.pk).update(created_at=at(40))
        world.keep("invitation:open", invitation)
        world.values["value:invite_token"] = invite_token
        # Two-factor sign-in: on for the author (a sign-in waiting for its code), being set up by the viewer.
        import pyotp

        from apps.accounts import two_factor

        author, viewer = world.objects["user:author"], world.objects["user:viewer"]
        for user in (author, viewer):
            two_factor.two_factor_setup(user=user)
        User.objects.filter(pk=author.pk).update(two_factor_enabled_at=at(50), two_factor_recovery_codes=[
            two_factor._recovery_hashes("goldencode")[0]])
        author.refresh_from_db()
        world.values["value:author_code"] = pyotp.TOTP(two_factor._secret_of(author)).now()
        world.values["value:viewer_code"] = pyotp.TOTP(two_factor._secret_of(User.objects.get(pk=viewer.pk))).now()
        world.values["value:challenge"] = two_factor.challenge_make(author)[0]
    # Support access: the admin's open grant, a session whose one-time link is not used yet (the
    # editor's) and one already under way (the viewer's, whose token ends it).
    from django.core import signing

    from apps.accounts import support
    from apps.accounts.models import SupportGrant, SupportSession

    with schema_context(tenant.schema_name):
        admin = world.objects["user:admin"]
        far = at(60 * 24 * 365 * 30)
        grant = SupportGrant.objects.create(granted_by=admin, granted_by_name=admin.username, expires_at=far)
        SupportGrant.objects.filter(pk=grant.pk).update(created_at=at(70))
        for role, minutes in (("editor", 71), ("viewer", 72)):
            session = SupportSession.objects.create(grant=grant, user=world.objects[f"user:{role}"],
                                                    operator_email="support@platform.example", ends_at=far)
            SupportSession.objects.filter(pk=session.pk).update(started_at=at(minutes))
            world.keep(f"support:{role}", session)
        world.values["value:support_link"] = signing.dumps(
            {"s": str(world.objects["support:editor"].pk), "t": tenant.schema_name}, salt=support.LINK_SALT)
    Client.objects.filter(pk=tenant.pk).update(verification_email="admin@example.com", verification_sent_at=at(0))
    tenant.refresh_from_db()
    world.values["value:verify_token"] = verification._token(tenant)
    return world


def png_bytes() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (64, 48), (30, 120, 200)).save(buffer, "PNG")
    return buffer.getvalue()


def run_job_now(monkeypatch):
    """generate-* waits for its job: run it here, in the request (no worker in these tests)."""
    from apps.ai import selectors, services

    def wait(*, job, timeout):
        services.generation_job_run(job_id=job.pk)
        job.refresh_from_db()
        return job

    monkeypatch.setattr(selectors, "generation_job_wait", wait)


POST_PAYLOAD = {
    "postTitle": "Created post", "postContent": "<p>New <em>content</em></p>", "postExcerpt": "New excerpt",
    "customSlug": "", "postStatus": "draft", "tags": [], "allowIndexing": True, "scheduledPublishDate": "",
    "videoId": "", "seoMetadata": {"title": "SEO", "description": "Desc", "canonicalUrl": "", "focusKeyword": ""},
}

# name -> (role, method, path, body); paths and bodies may name objects as {post:published}.
CASES: dict[str, tuple] = {
    # accounts
    "login": (None, "post", "/api/auth/login", {"email": "editor@example.com", "password": PASSWORD}),
    "me": ("editor", "get", "/api/auth/me", None),
    "register_user": ("admin", "post", "/api/auth/register-user",
                      {"username": "newbie", "email": "newbie@example.com", "password": PASSWORD, "role": "author"}),
    "users_list": ("admin", "get", "/api/users", None),
    "user_get": ("admin", "get", "/api/users/{user:editor}", None),
    "user_update": ("admin", "put", "/api/users/{user:viewer}", {"role": "author", "status": "inactive"}),
    "user_update_own_password": ("editor", "put", "/api/users/{user:editor}",
                                 {"password": "another-pass-123", "currentPassword": PASSWORD}),
    "user_delete": ("admin", "delete", "/api/users/{user:viewer}", None),
    "user_invite": ("admin", "post", "/api/users/{user:imported}/invite", None),
    "author_profile_get": ("editor", "get", "/api/users/{user:editor}/profile", None),
    "author_profile_update": ("admin", "put", "/api/users/{user:author}/profile",
                              {"displayName": "Ann Author", "bio": "Writes the news", "twitter": "@ann",
                               "website": "https://ann.example"}),
    # content
    "posts_list": ("admin", "get", "/api/posts", None),
    "posts_list_filtered": ("admin", "get", "/api/posts?status=published&limit=1&category=news&tag=python", None),
    "posts_list_past_the_end": ("admin", "get", "/api/posts?page=9", None),
    "post_create": ("admin", "post", "/api/posts/upload",
                    {**POST_PAYLOAD, "categories": ["{category:news}"], "featuredMediaId": "{media:photo}"}),
    "post_create_at_collection": ("admin", "post", "/api/posts",
                                  {**POST_PAYLOAD, "categories": ["{category:news}"],
                                   "featuredMediaId": "{media:photo}", "tags": ["{tag:spare}"]}),
    "post_by_slug": ("viewer", "get", "/api/posts/slug/hello-world", None),
    "post_by_slug_draft": ("viewer", "get", "/api/posts/slug/draft-without-author", None),
    "post_get": ("viewer", "get", "/api/posts/{post:published}", None),
    "post_update": ("admin", "put", "/api/posts/{post:published}", {"title": "Hello again", "videoId": None}),
    "post_delete": ("admin", "delete", "/api/posts/{post:archived}", None),
    "post_revisions": ("editor", "get", "/api/posts/{post:published}/revisions", None),
    "post_revision": ("editor", "get", "/api/posts/{post:published}/revisions/{revision:first}", None),
    "post_revision_restore": ("admin", "post", "/api/posts/{post:published}/revisions/{revision:first}/restore",
                              None),
    "posts_list_waiting": ("editor", "get", "/api/posts?review=waiting", None),
    "post_review_request": ("author", "post", "/api/posts/{post:waiting}/review/request", None),
    "post_review_return": ("editor", "post", "/api/posts/{post:waiting}/review/return",
                           {"note": "Please add a source"}),
    "post_autosave_get": ("admin", "get", "/api/posts/{post:draft}/autosave", None),
    "post_autosave_put": ("admin", "put", "/api/posts/{post:draft}/autosave",
                          {"fields": {"title": "Unsaved"}, "baseUpdatedAt": "2001-02-03T06:07:06.789Z"}),
    "post_autosave_delete": ("admin", "delete", "/api/posts/{post:draft}/autosave", None),
    "post_preview_links": ("editor", "get", "/api/posts/{post:draft}/preview-links", None),
    "post_preview_link_create": ("editor", "post", "/api/posts/{post:draft}/preview-links", None),
    "post_preview_link_revoke": ("admin", "delete", "/api/posts/{post:draft}/preview-links/{link:first}", None),
    # pages: the posts' routes for the other content kind (apps.content.kinds.PAGE)
    "pages_list": ("editor", "get", "/api/pages", None),
    "page_create": ("editor", "post", "/api/pages",
                    {"postTitle": "Privacy policy", "postContent": "<p>What we keep</p>", "postExcerpt": "Your data",
                     "postStatus": "published", "featuredMediaId": "{media:photo}"}),
    "page_create_upload": ("admin", "post", "/api/pages/upload",
                           {**POST_PAYLOAD, "postTitle": "Terms", "categories": [],
                            "featuredMediaId": "{media:photo}"}),
    "page_by_slug": ("viewer", "get", "/api/pages/slug/about", None),
    "page_get": ("viewer", "get", "/api/pages/{page:contact}", None),
    "page_update": ("editor", "put", "/api/pages/{page:about}",
                    {"title": "About Golden", "excerpt": "Who we are and what we do", "featured": False}),
    "page_delete": ("admin", "delete", "/api/pages/{page:about}", None),
    "page_review_request": ("author", "post", "/api/pages/{page:contact}/review/request", None),
    "page_review_return": ("editor", "post", "/api/pages/{page:team}/review/return",
                           {"note": "Add everyone's role"}),
    "page_revisions": ("editor", "get", "/api/pages/{page:contact}/revisions", None),
    "page_revision": ("author", "get", "/api/pages/{page:contact}/revisions/{revision:page_first}", None),
    "page_revision_restore": ("author", "post",
                              "/api/pages/{page:contact}/revisions/{revision:page_first}/restore", None),
    "page_autosave_get": ("author", "get", "/api/pages/{page:contact}/autosave", None),
    "page_autosave_put": ("author", "put", "/api/pages/{page:contact}/autosave",
                          {"fields": {"title": "Contact the team"}, "baseUpdatedAt": "2001-02-03T07:18:06.789Z"}),
    "page_autosave_delete": ("author", "delete", "/api/pages/{page:contact}/autosave", None),
    "page_preview_links": ("editor", "get", "/api/pages/{page:contact}/preview-links", None),
    "page_preview_link_create": ("author", "post", "/api/pages/{page:contact}/preview-links", None),
    "page_preview_link_revoke": ("author", "delete", "/api/pages/{page:contact}/preview-links/{link:page}", None),
    "page_translation_create": ("editor", "post", "/api/pages/{page:about}/translations", {"language": "fr"}),
    "categories_list": ("viewer", "get", "/api/categories", None),
    "category_add": ("author", "post", "/api/categories/add", {"name": "Guides", "slug": "Guides!"}),
    "category_get": ("viewer", "get", "/api/categories/{category:news}", None),
    "category_update": ("editor", "put", "/api/categories/{category:news}", {"description": ""}),
    "category_delete": ("editor", "delete", "/api/categories/{category:empty}", None),
    "tags_list": ("viewer", "get", "/api/tags?page=1&limit=2", None),
    "tags_list_search": ("viewer", "get", "/api/tags?search=py", None),
    "tag_add": ("author", "post", "/api/tags/add", {"name": "Rust", "slug": "rust"}),
    "tag_get": ("viewer", "get", "/api/tags/{tag:python}", None),
    "tag_update": ("editor", "put", "/api/tags/{tag:python}", {"name": "Python 3"}),
    "tag_delete": ("editor", "delete", "/api/tags/{tag:spare}", None),
    "search": ("viewer", "get", "/api/search?q=hello", None),
    "search_nothing": ("viewer", "get", "/api/search?q=zzzz&types=posts,tags", None),
    # media
    "media_list": ("viewer", "get", "/api/media", None),
    "media_list_search": ("viewer", "get", "/api/media?search=orphan&limit=1", None),
    "media_upload": ("author", "upload", "/api/media/upload", None),
    "media_get": ("viewer", "get", "/api/media/{media:photo}", None),
    "media_update": ("admin", "put", "/api/media/{media:orphan}", {"altText": "Now described"}),
    "media_delete": ("admin", "delete", "/api/media/{media:orphan}", None),
    # analytics
    "track": ("viewer", "post", "/api/analytics/track",
              {"pageUrl": "https://site.example.com/hello-world", "postSlug": "hello-world"}),
    "track_not_recorded": ("viewer", "post", "/api/analytics/track", {"pageUrl": "https://site.example.com/"}),
    "page_views": ("editor", "get", "/api/analytics/page-views?days=3", None),
    "page_views_by_month": ("editor", "get", "/api/analytics/page-views?days=1&groupBy=month", None),
    "dashboard_stats": ("editor", "get", "/api/dashboard/stats", None),
    # ai
    "generate_blog": ("author", "post", "/api/ai/generate-blog",
                      {"inputContent": "Remote work productivity tips for small teams", "tone": "casual"}),
    "generate_seo": ("author", "post", "/api/ai/generate-seo", {"title": "Sourdough bread baking"}),
    "generate_blog_async": ("author", "post", "/api/ai/generate-blog?async=true",
                            {"inputContent": "Remote work productivity tips for small teams"}),
    "job_succeeded": ("admin", "get", "/api/ai/jobs/{job:seo}", None),
    "job_failed": ("admin", "get", "/api/ai/jobs/{job:failed}", None),
    "job_queued": ("admin", "get", "/api/ai/jobs/{job:queued}", None),
    # company settings
    "client_info_admin": ("admin", "get", "/api/client/info", None),
    "client_info_viewer": ("viewer", "get", "/api/client/info", None),
    "client_info_update": ("admin", "put", "/api/client/info",
                           {"name": "Golden Company", "contactName": "Jo Golden", "contactEmail": "JO@golden.example"}),
    "client_api_key_rotate": ("admin", "post", "/api/client/api-key/rotate", None),
    "site_get": ("viewer", "get", "/api/client/site", None),
    "site_update": ("admin", "put", "/api/client/site",
                    {"title": "Golden Journal", "accentColor": "#123456", "navigation": [{"label": "Home", "url": "/"}],
                     "social": {"twitter": "@golden"}, "coverImage": "https://images.example.com/cover.jpg"}),
    "client_delete": ("admin", "post", "/api/client/delete", {"confirmSubdomain": SUBDOMAIN, "password": PASSWORD}),
    # audit log
    "audit_list": ("admin", "get", "/api/audit", None),
    "audit_list_filtered": ("admin", "get", "/api/audit?action=post.review_requested&objectType=post&from=2001-02-03",
                            None),
    # plan and usage
    "usage": ("admin", "get", "/api/usage?days=3", None),
    # webhooks
    "webhooks_list": ("admin", "get", "/api/webhooks", None),
    "webhook_create": ("admin", "post", "/api/webhooks",
                       {"url": "https://93.184.215.14/hooks", "events": ["tag.created", "post.published"]}),
    "webhook_get": ("admin", "get", "/api/webhooks/{endpoint:site}", None),
    "webhook_update": ("admin", "put", "/api/webhooks/{endpoint:site}", {"active": False}),
    "webhook_delete": ("admin", "delete", "/api/webhooks/{endpoint:site}", None),
    "webhook_secret_rotate": ("admin", "post", "/api/webhooks/{endpoint:site}/secret/rotate", None),
    "webhook_test": ("admin", "post", "/api/webhooks/{endpoint:site}/test", None),
    "webhook_deliveries": ("admin", "get", "/api/webhooks/{endpoint:site}/deliveries", None),
    "webhook_redeliver": ("admin", "post", "/api/webhooks/{endpoint:site}/deliveries/{delivery:first}/redeliver",
                          None),
    # integrations
    "integrations_list": ("admin", "get", "/api/integrations", None),
    "integration_create": ("admin", "post", "/api/integrations", {"name": "Static site builder"}),
    "integration_rotate": ("admin", "post", "/api/integrations/{integration:zapier}/rotate", {"keys": ["admin"]}),
    "integration_delete": ("admin", "delete", "/api/integrations/{integration:zapier}", None),
    # accounts by email
    "forgot_password": (None, "post", "/api/auth/forgot-password", {"email": "viewer@example.com"}),
    "reset_link_check": (None, "post", "/api/auth/reset-password/check",
                         {"uid": "{value:reset_uid}", "token": "{value:reset_token}"}),
    "reset_password": (None, "post", "/api/auth/reset-password",
                       {"uid": "{value:reset_uid}", "token": "{value:reset_token}", "password": "a-new-pass-456"}),
    "invitations_list": ("admin", "get", "/api/invitations", None),
    "invitation_create": ("admin", "post", "/api/invitations", {"email": "second@example.com", "role": "author"}),
    "invitation_resend": ("admin", "post", "/api/invitations/{invitation:open}/resend", None),
    "invitation_revoke": ("admin", "delete", "/api/invitations/{invitation:open}", None),
    "invitation_check": (None, "post", "/api/auth/invitation/check", {"token": "{value:invite_token}"}),
    "invitation_accept": (None, "post", "/api/auth/accept-invitation",
                          {"token": "{value:invite_token}", "username": "invitee", "password": PASSWORD}),
    "verification_get": ("admin", "get", "/api/client/verification", None),
    "verification_resend": ("admin", "post", "/api/client/verification/resend", None),
    "verify_email": (None, "post", "/api/client/verify-email", {"token": "{value:verify_token}"}),
    # two-factor sign-in
    "login_two_factor": (None, "post", "/api/auth/login/2fa",
                         {"challengeToken": "{value:challenge}", "code": "{value:author_code}"}),
    "two_factor_status": ("author", "get", "/api/auth/2fa", None),
    "two_factor_setup": ("editor", "post", "/api/auth/2fa/setup", None),
    "two_factor_confirm": ("viewer", "post", "/api/auth/2fa/confirm", {"code": "{value:viewer_code}"}),
    "two_factor_recovery_codes": ("author", "post", "/api/auth/2fa/recovery-codes", {"code": "golden-code"}),
    "two_factor_disable": ("author", "post", "/api/auth/2fa/disable",
                           {"code": "{value:author_code}", "password": PASSWORD}),
    "user_two_factor_reset": ("admin", "post", "/api/users/{user:author}/2fa/reset", None),
    "two_factor_policy_get": ("admin", "get", "/api/client/two-factor-policy", None),
    "two_factor_policy_update": ("admin", "put", "/api/client/two-factor-policy", {"required": True}),
    # blog import and export
    "imports_list": ("admin", "get", "/api/imports", None),
    "import_upload": ("admin", "upload", "/api/imports", None),
    "import_get": ("admin", "get", "/api/imports/{import:done}", None),
    "import_start": ("admin", "post", "/api/imports/{import:analysed}/start", {"downloadImages": False}),
    "import_report": ("admin", "get", "/api/imports/{import:done}/report", None),
    "import_missing_images": ("admin", "get", "/api/imports/missing-images?job={import:done}", None),
    "import_fetch_missing": ("admin", "post", "/api/imports/{import:done}/fetch-missing", None),
    "export_request": ("admin", "post", "/api/exports", None),
    "export_get": ("admin", "get", "/api/exports/{export:queued}", None),
    "languages_get": ("viewer", "get", "/api/client/languages", None),
    "languages_update": ("admin", "put", "/api/client/languages",
                         {"languages": ["en", "fr", "pt-br"], "fallbacks": {"pt-BR": ["fr"]}}),
    "post_translation_create": ("editor", "post", "/api/posts/{post:published}/translations", {"language": "fr"}),
    "generate_translation": ("editor", "post", "/api/ai/translate-post", {"postId": "{post:published}", "language": "fr"}),
    # support access
    "support_access_get": ("admin", "get", "/api/client/support-access", None),
    "support_access_grant": ("admin", "post", "/api/client/support-access", {"hours": 2}),
    "support_access_revoke": ("admin", "delete", "/api/client/support-access", None),
    "support_link_exchange": (None, "post", "/api/client/support-access/exchange", {"token": "{value:support_link}"}),
    "support_session_end": ("support", "post", "/api/client/support-access/end", None),
    # readers: members and their labels, imports and export (apps.members)
    "members_list": ("viewer", "get", "/api/members", None),
    "members_list_filtered": ("viewer", "get",
                              "/api/members?label={label:vip}&newsletter={newsletter:first}&search=ada", None),
    "member_create": ("editor", "post", "/api/members", {"email": "New@Example.com", "name": "New", "labels": ["VIP"]}),
    "member_get": ("viewer", "get", "/api/members/{member:ada}", None),
    "member_update": ("editor", "put", "/api/members/{member:ada}", {"name": "Ada L.", "status": "comped"}),
    "member_delete": ("admin", "delete", "/api/members/{member:grace}", None),
    "members_bulk_labels": ("editor", "post", "/api/members/bulk/labels",
                            {"memberIds": ["{member:ada}", "{member:grace}"], "add": ["Press"]}),
    "member_labels": ("viewer", "get", "/api/members/labels", None),
    "member_label_create": ("editor", "post", "/api/members/labels", {"name": "Early"}),
    "member_label_update": ("editor", "put", "/api/members/labels/{label:vip}", {"name": "VIPs"}),
    "member_label_delete": ("editor", "delete", "/api/members/labels/{label:vip}", None),
    "member_import_upload": ("editor", "upload", "/api/members/imports", None),
    "member_import_get": ("editor", "get", "/api/members/imports/{mimport:analysed}", None),
    "member_import_start": ("editor", "post", "/api/members/imports/{mimport:analysed}/start", None),
    "members_export": ("editor", "get", "/api/members/export?status=free", None),
    # newsletters and sending posts by email (apps.newsletters)
    "newsletters_list": ("viewer", "get", "/api/newsletters", None),
    "newsletter_create": ("editor", "post", "/api/newsletters", {"name": "Weekly", "senderName": "Golden Weekly"}),
    "newsletter_get": ("viewer", "get", "/api/newsletters/{newsletter:first}", None),
    "newsletter_update": ("editor", "put", "/api/newsletters/{newsletter:first}", {"footer": "Golden Ltd"}),
    "send_report": ("viewer", "get", "/api/newsletters/sends/{send:sent}", None),
    "newsletter_settings_get": ("viewer", "get", "/api/newsletters/settings", None),
    "newsletter_settings_update": ("admin", "put", "/api/newsletters/settings", {"trackOpens": True}),
    "send_cancel": ("editor", "post", "/api/newsletters/sends/{send:scheduled}/cancel", None),
    "send_recipients": ("editor", "get", "/api/posts/{post:published}/send/recipients?newsletterId={newsletter:first}",
                        None),
    "send_post": ("editor", "post", "/api/posts/{post:published}/send", {"newsletterId": "{newsletter:first}"}),
    "send_test": ("editor", "post", "/api/posts/{post:published}/send/test", {"newsletterId": "{newsletter:first}"}),
    "post_sends": ("viewer", "get", "/api/posts/{post:archived}/sends", None),
    # core
    "health": (None, "get", "/api/health", None),
    "health_live": (None, "get", "/api/health/live", None),
    "health_ready": (None, "get", "/api/health/ready", None),
    "outgoing_get": ("admin", "get", "/api/outgoing", None),
    "outgoing_email_retry": ("admin", "post", "/api/outgoing/emails/{email:failed}/retry", None),
    # root host
    "find_companies": ("root", "post", "/api/auth/find-companies", {"email": "editor@example.com"}),
    "register_client": ("root", "post", "/api/auth/register-client", {
        "companyName": "Fresh Company", "contactName": "Fresh Person", "contactEmail": "fresh@example.com",
        "subdomain": "fresh-golden", "adminUsername": "fresh", "adminEmail": "fresh@example.com",
        "adminPassword": PASSWORD}),
}

_REF = re.compile(r"\{((?:user|category|tag|media|post|job|revision|endpoint|delivery|link|invitation|email|import|export|"
                  r"support|integration|value|member|label|mimport|newsletter|send|page):[a-z_]+)\}")
_MEMBERS_EXPORT = re.compile(r"/api/members/export/download/[^\"]+")  # a signed link made during the request
_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
_TOKEN = re.compile(r"eyJ[\w-]+\.[\w-]+\.[\w-]+")
_KEY = re.compile(r'"(apiKey|previewKey|ghostContentKey)": "[^"<][^"]*"')  # a key made during the request
# DjangoJSONEncoder's format only: a timestamp in another format is left as it is (and differs).
_STAMP = re.compile(r'"(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{3})?Z)"')
_MS = re.compile(r'"ms": \d+(?:\.\d+)?')
_SECRET = re.compile(r'"secret": "whsec_[^"]+"')  # a webhook secret made during the request
# an integration's keys and their hints (random: made with the company, or during the request)
_INTEGRATION_KEY = re.compile(r'"(contentKey|adminKey|contentKeyHint|adminKeyHint|adminKeyId)": "[0-9a-f:]+"')
_PREVIEW = re.compile(r"[0-9a-f]{32}:[\w-]{20,}")  # a preview link's token (its signature depends on the key)
# a new authenticator key (its manual form, URI and QR code) and new recovery codes
_TWO_FACTOR_KEY = re.compile(r'"(secret)": "[A-Z2-7]{32}"|"(otpauthUri|qrSvg)": "(?:[^"\\]|\\.)*"')
_RECOVERY_CODES = re.compile(r'"recoveryCodes": \[[^\]]*\]')


def _fill(value, world: World):
    if isinstance(value, str):
        return _REF.sub(lambda m: world.id(m.group(1)), value)
    if isinstance(value, list):
        return [_fill(item, world) for item in value]
    if isinstance(value, dict):
        return {key: _fill(item, world) for key, item in value.items()}
    return value


def normalise(text: str, world: World) -> str:
    now = timezone.now()

    from django.conf import settings

    # expiries of links made during the request
    made = {f"<now + {days} days>": now + timedelta(days=days)
            for days in (settings.PREVIEW_LINK_DAYS, settings.INVITATION_DAYS)}
    made["<now + 2 h>"] = now + timedelta(hours=2)  # the support access granted in its case

    def stamp(match):
        value = datetime.fromisoformat(match.group(1).replace("Z", "+00:00"))
        for label, expiry in made.items():
            if abs(value - expiry) < timedelta(minutes=30):
                return f'"{label}"'
        return '"<now>"' if abs(value - now) < timedelta(hours=1) else match.group(0)

    text = _STAMP.sub(stamp, text)
    for value, name in sorted(world.names.items(), key=lambda item: -len(item[0])):
        text = text.replace(value, name)
    text = _TOKEN.sub("<token>", text)
    text = _KEY.sub(lambda m: f'"{m.group(1)}": "<new key>"', text)
    text = _SECRET.sub('"secret": "<new secret>"', text)
    text = _INTEGRATION_KEY.sub(lambda m: f'"{m.group(1)}": "<key>"', text)
    text = _PREVIEW.sub("<preview token>", text)
    text = _TWO_FACTOR_KEY.sub(lambda m: f'"{m.group(1) or m.group(2)}": "<new key>"', text)
    text = _RECOVERY_CODES.sub(lambda m: '"recoveryCodes": [' + ", ".join(
        '"<recovery code>"' if re.fullmatch(r"[a-z2-9]{5}-[a-z2-9]{5}", code) else f'"{code}"'
        for code in json.loads(m.group(0).split(": ", 1)[1])) + "]", text)
    text = _MEMBERS_EXPORT.sub("/api/members/export/download/<token>", text)
    text = _UUID.sub("<uuid>", text)
    return _MS.sub('"ms": "<ms>"', text)


def request(world: World, name: str, monkeypatch):
    role, method, path, body = CASES[name]
    path, body = _fill(path, world), _fill(body, world)
    if role == "root":
        client = testing.Api(None)
    elif role is None:
        client = testing.Api(world.tenant)
    elif role == "support":  # the viewer's support session, as the dashboard holds it after the exchange
        from apps.accounts.tokens import token_issue

        session = world.objects["support:viewer"]
        token, _ = token_issue(user=session.user, schema_name=world.tenant.schema_name, extra={
            "support": {"sid": str(session.pk), "operator": session.operator_email}})
        client = testing.Api(world.tenant, token=token)
    else:
        client = world.api(role)
    if name.startswith("generate_") and not name.endswith("_async"):
        run_job_now(monkeypatch)
    # a company writing in English and French
    if name in ("post_translation_create", "page_translation_create", "generate_translation"):
        from tenants.models import Client

        Client.objects.filter(pk=world.tenant.pk).update(languages=["en", "fr"])
    if name == "track_not_recorded":  # neither Redis nor PostgreSQL took it
        from apps.analytics import services

        monkeypatch.setattr(services, "pageview_track", lambda **kwargs: False)
    if method == "upload" and path == "/api/members/imports":
        data = b"email,name\nnew@example.com,New\nada@example.com,Ada\n"
        return client.post(path, {"file": SimpleUploadedFile("members.csv", data, content_type="text/csv")},
                           content_type=MULTIPART_CONTENT)
    if method == "upload" and path == "/api/imports":
        export = {"db": [{"meta": {"version": "5.0.0"}, "data": {"posts": [
            {"id": "p1", "title": "Imported", "slug": "imported", "html": "<p>Hi</p>", "status": "published",
             "published_at": "2020-01-02T03:04:05.000Z"}]}}]}
        return client.post(path, {"file": SimpleUploadedFile("ghost.json", json.dumps(export).encode())},
                           content_type=MULTIPART_CONTENT)
    if method == "upload":
        data = png_bytes()
        fields = {"file": SimpleUploadedFile("upload.png", data, content_type="image/png"), "fileName": "upload.png",
                  "fileType": "image/png", "fileSize": str(len(data)), "altText": "Uploaded"}
        return client.post(path, fields, content_type=MULTIPART_CONTENT)
    return getattr(client, method)(path, body)


@pytest.fixture
def world(db, make_tenant, settings, tmp_path, monkeypatch):
    from apps.analytics import selectors

    monkeypatch.setattr(selectors, "company_today", lambda now=None: TODAY)
    from apps.plans import usage

    monkeypatch.setattr(usage, "usage_today", lambda: TODAY)
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.AI_PROVIDER = "offline"
    settings.AI_DAILY_QUOTA = {}
    settings.AI_DAILY_QUOTA_DEFAULT = 1000
    from apps.core import redis_conn

    redis_conn.reset()
    return build_world(make_tenant(SUBDOMAIN))


def _load() -> dict:
    return json.loads(GOLDEN.read_text()) if GOLDEN.exists() else {}


# --- the documents -----------------------------------------------------------------------------------
def served_document(host: str, path: str) -> dict:
    from django.test import Client

    return Client(HTTP_HOST=host).get(path).json()


def operation_of(document: dict, method: str, path: str) -> dict:
    path = path.split("?")[0]
    for template, methods in document["paths"].items():
        pattern = "^" + re.sub(r"\\\{[a-z_]+\\\}", r"[^/]+", re.escape(template)) + "$"
        if method in methods and re.match(pattern, path):
            return methods[method]
    raise LookupError(f"{method} {path} is not documented")


def assert_valid(document: dict, operation: dict, status: int, body) -> None:
    """The body against the schema the document gives for this status (formats checked)."""
    from jsonschema import Draft202012Validator, FormatChecker

    schema = operation["responses"][str(status)]["content"]["application/json"]["schema"]
    Draft202012Validator({**schema, "components": document["components"]}, format_checker=FormatChecker()).validate(
        body)


@pytest.mark.parametrize("name", list(CASES))
def test_success_reply_is_unchanged(world, name, monkeypatch):
    """The reply is byte for byte the recorded one, and valid against its OpenAPI schema."""
    role, method, path, _ = CASES[name]
    host = testing.host_of(None if role == "root" else world.tenant)
    document = served_document(host, "/api/openapi.json")  # before the call: one deletes the company
    response = request(world, name, monkeypatch)
    got = {"status": response.status_code, "body": normalise(response.content.decode(), world)}
    assert 200 <= response.status_code < 300, response.content
    if RECORD:
        golden = _load()
        golden[name] = got
        GOLDEN.write_text(json.dumps(dict(sorted(golden.items())), indent=1, ensure_ascii=False) + "\n")
        return
    assert got == _load()[name]

    method = "post" if method == "upload" else method
    assert_valid(document, operation_of(document, method, _fill(path, world)), response.status_code, response.json())


def test_every_dashboard_operation_has_a_case():
    from config.api import dashboard_api

    document = dashboard_api.get_openapi_schema(path_prefix="/api/")
    covered = {id(operation_of(document, "post" if method == "upload" else method, path))
               for role, method, path, _ in CASES.values() if role != "root"}
    missing = [f"{method.upper()} {template}" for template, methods in document["paths"].items()
               for method, operation in methods.items() if id(operation) not in covered]
    assert missing == []


@pytest.mark.parametrize("api_name", ["dashboard_api", "root_api"])
def test_every_success_reply_is_documented_by_a_named_schema(api_name):
    """No success reply is documented as a bare object (`response=dict`) or not at all."""
    from config import api

    document = getattr(api, api_name).get_openapi_schema(path_prefix="/api/")
    components = document["components"]["schemas"]
    vague = []
    for template, methods in document["paths"].items():
        for method, operation in methods.items():
            successes = {status: reply for status, reply in operation["responses"].items() if status.startswith("2")}
            assert successes, f"{method.upper()} {template} documents no success reply"
            for status, reply in successes.items():
                schema = reply.get("content", {}).get("application/json", {}).get("schema", {})
                refs = [item.get("$ref", "") for item in schema.get("anyOf", [schema])]
                names = [ref.rsplit("/", 1)[-1] for ref in refs]
                if not all(ref and components[name].get("properties") and
                           components[name].get("additionalProperties") is not True for ref, name in zip(refs, names)):
                    vague.append(f"{method.upper()} {template} {status}")
    assert vague == []


def test_a_handlers_own_error_status_is_not_replaced_by_the_envelope(db):
    """Health answers 503 with its report; the document keeps that next to the error envelope
    (ninja's int status keys and the envelope's text keys were two "503" keys in the JSON)."""
    document = served_document(testing.host_of(None), "/api/openapi.json")
    schema = document["paths"]["/api/health"]["get"]["responses"]["503"]["content"]["application/json"]["schema"]
    assert [item["$ref"].rsplit("/", 1)[-1] for item in schema["anyOf"]] == ["HealthOut", "ErrorOut"]
    report = {"success": False, "status": "degraded", "checks": {
        "database": {"status": "ok", "ms": 1.5}, "redis": {"status": "down", "error": "ConnectionError"},
        "broker": {"status": "ok", "ms": 2.0}, "storage": {"status": "ok", "ms": 0.4}}}
    assert_valid(document, document["paths"]["/api/health"]["get"], 503, report)
