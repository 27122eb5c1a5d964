"""The plan's staff seats, at every path that makes or wakes an account (docs/plans-and-usage.md): an
account takes a seat while it is active or suspended; an inactive one (deactivated, or made by a blog
import and waiting for its owner) takes none, as a pending invitation takes none: checked when it is
made, taken when it is accepted. The counter is always the count of the accounts that hold a seat."""
from __future__ import annotations

import pytest
from django_tenants.utils import schema_context

from apps.accounts import services
from apps.accounts.models import Invitation, User
from apps.core import testing
from apps.plans.company.models import CompanyCounter
from apps.plans.rules import PlanLimitReached, plan_recount
from apps.plans.tests.test_limits import assert_plan_limit
from apps.portability.importer import blog_analyse, blog_import
from apps.portability.parsers import WORDPRESS, Blog, SourceAuthor
from tenants.models import Client


def blog_of(*emails: str) -> Blog:
    return Blog(source=WORDPRESS, version="WXR 1.2", site_url="https://old.example.com", authors=[
        SourceAuthor(source_id=str(n), email=email, name=f"Writer {n}", login=f"writer{n}")
        for n, email in enumerate(emails)])


def seats_used(tenant) -> int:
    with schema_context(tenant.schema_name):
        return CompanyCounter.objects.get(resource="staff_seats").used


def seats_held(tenant) -> int:
    with schema_context(tenant.schema_name):
        return User.objects.filter(status__in=("active", "suspended")).count()


def import_authors(tenant, admin, *emails: str) -> dict:
    with schema_context(tenant.schema_name):
        return blog_import(blog=blog_of(*emails), actor=admin, invite_authors=True)


def invitation_token_of(tenant, email: str, token: str) -> str:
    with schema_context(tenant.schema_name):
        invitation = Invitation.objects.get(email=email, accepted_at__isnull=True, revoked_at__isnull=True)
        Invitation.objects.filter(pk=invitation.pk).update(token_hash=services._token_hash(token))
    return token


def accept(tenant, token: str, username: str):
    return testing.Api(tenant).post("/api/auth/accept-invitation",
                                    {"token": token, "username": username, "password": "password-123"})


def test_an_import_whose_new_authors_do_not_fit_is_refused_before_anything_is_written(tenant, api, plans):
    plans["trial"]["staff_seats"] = 3  # the admin holds one: room for two
    emails = [f"writer{n}@example.com" for n in range(3)]
    with schema_context(tenant.schema_name):
        plan = blog_analyse(blog_of(*emails, emails[0]))  # the same address twice is one account
    assert plan["staffSeats"] == 3
    with pytest.raises(PlanLimitReached) as refused:
        import_authors(tenant, api.user, *emails)
    assert refused.value.status_code == 403 and refused.value.detail == "plan_limit"
    assert (refused.value.extra["limit"], refused.value.extra["used"], refused.value.extra["allowed"]) == (
        "staff_seats", 1, 3)
    with schema_context(tenant.schema_name):
        assert User.objects.count() == 1 and not Invitation.objects.exists()
    # two fit: both made, invited, and waiting (they take their seats when they accept)
    report = import_authors(tenant, api.user, *emails[:2])
    assert report["counts"]["author"] == {"invited": 2}
    with schema_context(tenant.schema_name):
        assert User.objects.filter(status="inactive").count() == 2
    assert seats_used(tenant) == 1 == seats_held(tenant)
    with schema_context(tenant.schema_name):  # matched now: an import of the same authors needs no seat
        assert blog_analyse(blog_of(*emails[:2]))["staffSeats"] == 0


def test_accepting_an_imported_authors_invitation_takes_a_seat_or_is_refused(tenant, api, plans):
    plans["trial"]["staff_seats"] = 2  # the admin holds one
    import_authors(tenant, api.user, "first@example.com")
    second = api.post("/api/auth/register-user", {"username": "second", "email": "second@example.com",
                                                  "password": "password-123", "role": "editor"})
    assert second.status_code == 201, second.content  # the imported author waits: the seat is still free
    # now the company is full: the imported author's acceptance is refused, the account stays as it was
    body = assert_plan_limit(accept(tenant, invitation_token_of(tenant, "first@example.com", "tok-1"), "first"),
                             "staff_seats", 2, 2)
    assert body["message"].startswith("Your plan allows 2 staff accounts.")
    with schema_context(tenant.schema_name):
        assert User.objects.get(email="first@example.com").status == "inactive"
        assert User.objects.filter(status="active").count() == 2
    # a seat freed: the same link now works, and the seat is taken
    assert api.delete(f"/api/users/{second.json()['user']['id']}").status_code == 200
    accepted = accept(tenant, "tok-1", "first")
    assert accepted.status_code == 201, accepted.content
    assert seats_used(tenant) == 2 == seats_held(tenant)


def test_deactivating_frees_the_seat_and_reactivating_takes_one_again(tenant, api, plans):
    plans["trial"]["staff_seats"] = 2
    second = api.post("/api/auth/register-user", {"username": "second", "email": "second@example.com",
                                                  "password": "password-123", "role": "editor"}).json()["user"]
    # a suspension is a pause: the account keeps its seat
    assert api.put(f"/api/users/{second['id']}", {"status": "suspended"}).status_code == 200
    assert_plan_limit(api.post("/api/invitations", {"email": "third@example.com", "role": "viewer"}),
                      "staff_seats", 2, 2)
    # deactivated: the seat is free for someone else
    assert api.put(f"/api/users/{second['id']}", {"status": "inactive"}).status_code == 200
    third = api.post("/api/auth/register-user", {"username": "third", "email": "third@example.com",
                                                 "password": "password-123", "role": "viewer"})
    assert third.status_code == 201, third.content
    # and the deactivated account cannot come back past the plan
    assert_plan_limit(api.put(f"/api/users/{second['id']}", {"status": "active"}), "staff_seats", 2, 2)
    assert_plan_limit(api.put(f"/api/users/{second['id']}", {"status": "suspended"}), "staff_seats", 2, 2)
    with schema_context(tenant.schema_name):
        assert User.objects.get(pk=second["id"]).status == "inactive"
    # a role change is no seat change
    assert api.put(f"/api/users/{third.json()['user']['id']}", {"role": "editor"}).status_code == 200
    # deleting an inactive account gives back nothing it did not hold
    assert api.delete(f"/api/users/{second['id']}").status_code == 200
    assert seats_used(tenant) == 2 == seats_held(tenant)
    assert_plan_limit(api.post("/api/invitations", {"email": "fourth@example.com", "role": "viewer"}),
                      "staff_seats", 2, 2)


def test_the_seat_counter_is_the_count_of_the_accounts_that_hold_one(tenant, api, plans):
    plans["trial"]["staff_seats"] = 10
    import_authors(tenant, api.user, "a@example.com", "b@example.com")
    made = [api.post("/api/auth/register-user", {"username": f"user{n}", "email": f"user{n}@example.com",
                                                 "password": "password-123", "role": "viewer"}).json()["user"]
            for n in range(3)]
    assert accept(tenant, invitation_token_of(tenant, "a@example.com", "tok-a"), "writer-a").status_code == 201
    api.put(f"/api/users/{made[0]['id']}", {"status": "inactive"})
    api.put(f"/api/users/{made[1]['id']}", {"status": "suspended"})
    api.delete(f"/api/users/{made[2]['id']}")
    api.put(f"/api/users/{made[0]['id']}", {"status": "active"})
    api.delete(f"/api/users/{made[1]['id']}")
    with schema_context(tenant.schema_name):
        imported = User.objects.get(email="b@example.com")
    assert api.delete(f"/api/users/{imported.pk}").status_code == 200  # never held a seat
    used = seats_used(tenant)
    assert used == seats_held(tenant) == 3  # the admin, "a" and user0
    with schema_context(tenant.schema_name):
        assert plan_recount(Client.objects.get(pk=tenant.pk), "staff_seats") == used


def test_an_account_made_inactive_is_checked_as_an_invitation_and_takes_no_seat(tenant, plans):
    plans["trial"]["staff_seats"] = 1  # the admin holds it
    with pytest.raises(PlanLimitReached):
        testing.create_user(tenant, status="inactive")
    plans["trial"]["staff_seats"] = 2
    testing.create_user(tenant, status="inactive")
    assert seats_used(tenant) == 1 == seats_held(tenant)
