"""The people of an imported blog: their accounts are made inactive and wait for an admin, unless
the import is started with `inviteAuthors` (or `--invite-authors`); an admin invites a waiting
account from Users (`POST /api/users/{id}/invite`); the dry run says how many accounts the import
makes, that they are not emailed, and what the import takes of each plan limit, and an import that
does not fit is refused before anything is written (docs/import-export.md)."""
from __future__ import annotations

import copy
import json

import pytest
from django.contrib.auth.hashers import is_password_usable
from django.core.management import call_command
from django.db import connection
from django_tenants.utils import schema_context

from apps.accounts.models import Invitation, User
from apps.content.models import Post
from apps.core import testing
from tenants.models import OutgoingEmail
from apps.portability import services
from apps.portability.models import ImportJob
from apps.portability.tests.test_import_samples import upload_bytes

AUTHORS = [("ann", "ann@old.example", "Ann Writer"), ("bob", "bob@old.example", "Bob Poet")]


def ghost_export(posts: int = 2, *, ids: str = "u") -> bytes:
    users = [{"id": f"{ids}{n}", "name": name, "slug": slug, "email": email, "bio": f"{name} writes.",
              "profile_image": "https://images.old.example/" + slug + ".jpg"}
             for n, (slug, email, name) in enumerate(AUTHORS)]
    rows = [{"id": f"p{n}", "title": f"Post {n}", "slug": f"post-{n}", "html": "<p>x</p>", "status": "published",
             "published_at": "2020-01-02T10:00:00.000Z", "author_id": f"{ids}{n % 2}"} for n in range(posts)]
    return json.dumps({"db": [{"meta": {"version": "5.80.0"}, "data": {"posts": rows, "users": users}}]}).encode()


def start_and_run(tenant, api, job_id: str, **options) -> dict:
    started = api.post(f"/api/imports/{job_id}/start", {"downloadImages": False, **options})
    assert started.status_code == 202, started.content
    with schema_context(tenant.schema_name):
        services.import_run(job_id=job_id)
    job = api.get(f"/api/imports/{job_id}").json()["job"]
    assert job["status"] == "completed", job["error"]
    return job


def _invitation_emails(tenant) -> int:
    return OutgoingEmail.objects.filter(kind="invitation", schema_name=tenant.schema_name).count()


@pytest.mark.django_db
def test_by_default_the_accounts_wait_uninvited_and_an_admin_invites_them_from_users(tenant, api):
    job = upload_bytes(api, ghost_export(), "export.json").json()["job"]
    assert job["plan"]["accounts"]["create"] == 2 and job["plan"]["accounts"]["emailed"] is False
    assert "2 staff accounts" in job["plan"]["accounts"]["message"]
    assert "No email is sent" in job["plan"]["accounts"]["message"]
    job = start_and_run(tenant, api, job["id"])
    assert job["report"]["counts"]["author"] == {"created": 2}
    waiting = [i for i in job["report"]["items"] if i["outcome"] == "waiting"]
    assert [i["item"] for i in waiting] == ["ann", "bob"] and "not emailed" in waiting[0]["reason"]
    with schema_context(tenant.schema_name):
        ann = User.objects.get(email="ann@old.example")
        assert ann.status == "inactive" and not is_password_usable(ann.password)
        assert not Invitation.objects.exists() and _invitation_emails(tenant) == 0
        # The profile came across (name, bio, image), and the posts are theirs.
        assert (ann.display_name, ann.bio) == ("Ann Writer", "Ann Writer writes.")
        assert ann.profile_image == "https://images.old.example/ann.jpg"
        assert Post.objects.filter(author=ann).count() == 1

    invited = api.post(f"/api/users/{ann.pk}/invite", {})
    assert invited.status_code == 201, invited.content
    assert invited.json()["invitation"]["email"] == "ann@old.example"
    with schema_context(tenant.schema_name):
        invitation = Invitation.objects.get()
        assert invitation.user_id == ann.pk and _invitation_emails(tenant) == 1
    # An account that can sign in already is not invited this way.
    admin_id = api.user.pk
    assert api.post(f"/api/users/{admin_id}/invite", {}).status_code == 409


@pytest.mark.django_db
@pytest.mark.parametrize("role", ["editor", "author", "viewer"])
def test_only_admins_invite_a_waiting_account(tenant, api, role):
    start_and_run(tenant, api, upload_bytes(api, ghost_export(), "export.json").json()["job"]["id"])
    with schema_context(tenant.schema_name):
        ann = User.objects.get(email="ann@old.example")
    other = testing.Api(tenant, user=testing.create_user(tenant, role))
    assert other.post(f"/api/users/{ann.pk}/invite", {}).status_code == 403


@pytest.mark.django_db
def test_a_waiting_account_of_one_company_is_not_found_from_another(tenant, other_tenant, api):
    start_and_run(tenant, api, upload_bytes(api, ghost_export(), "export.json").json()["job"]["id"])
    with schema_context(tenant.schema_name):
        ann = User.objects.get(email="ann@old.example")
    other = testing.Api(other_tenant, user=testing.tenant_admin(other_tenant))
    assert other.post(f"/api/users/{ann.pk}/invite", {}).status_code == 404


@pytest.mark.django_db
def test_invite_authors_emails_each_account_the_import_makes(tenant, api):
    job = start_and_run(tenant, api, upload_bytes(api, ghost_export(), "export.json").json()["job"]["id"],
                        inviteAuthors=True)
    assert job["report"]["counts"]["author"] == {"invited": 2}
    with schema_context(tenant.schema_name):
        assert set(Invitation.objects.values_list("email", flat=True)) == {"ann@old.example", "bob@old.example"}
        assert _invitation_emails(tenant) == 2


@pytest.mark.django_db
def test_the_command_invites_only_when_asked(tenant, tmp_path):
    path = tmp_path / "export.json"
    path.write_bytes(ghost_export())
    call_command("import_blog", str(path), schema=tenant.schema_name, no_images=True)
    with schema_context(tenant.schema_name):
        assert User.objects.filter(status="inactive").count() == 2 and not Invitation.objects.exists()
    connection.set_schema_to_public()
    other = tmp_path / "other.json"
    other.write_bytes(ghost_export(ids="v").replace(b"old.example", b"new.example"))  # another site
    call_command("import_blog", str(other), schema=tenant.schema_name, no_images=True, invite_authors=True)
    with schema_context(tenant.schema_name):
        assert set(Invitation.objects.values_list("email", flat=True)) == {"ann@new.example", "bob@new.example"}


@pytest.mark.django_db
def test_the_dry_run_says_what_each_plan_limit_takes_and_a_start_that_does_not_fit_is_refused(tenant, api, settings):
    from tenants.models import Client

    settings.PLANS = copy.deepcopy(settings.PLANS_AS_SHIPPED)
    Client.objects.filter(pk=tenant.pk).update(plan_overrides={"staff_seats": 2, "posts": 100})
    job = upload_bytes(api, ghost_export(posts=3), "export.json").json()["job"]
    use = {row["limit"]: row for row in job["plan"]["planUse"]}
    assert use["posts"] == {"limit": "posts", "importUses": 3, "used": 0, "allowed": 100, "fits": True}
    assert use["staff_seats"]["importUses"] == 2 and use["staff_seats"]["allowed"] == 2
    assert use["staff_seats"]["fits"] is False  # the admin holds one of the two seats
    assert use["media_bytes"]["importUses"] is None  # images to download: their size is not known before
    refused = api.post(f"/api/imports/{job['id']}/start", {"downloadImages": False})
    assert refused.status_code == 403 and refused.json()["code"] == "plan_limit", refused.content
    with schema_context(tenant.schema_name):
        assert ImportJob.objects.get(pk=job["id"]).status == "analysed"
        assert not User.objects.filter(email__endswith="@old.example").exists() and not Post.objects.exists()
