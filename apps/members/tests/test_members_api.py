"""Members on the dashboard API: the list (search, filters, pages, a fixed number of queries), add,
edit, delete, labels, the roles, other companies' members, the plan's members."""
from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django_tenants.utils import schema_context

from apps.core.testing import Api, create_user
from apps.members.models import Member
from apps.members.tests import factories


def _emails(reply) -> list[str]:
    return [m["email"] for m in reply.json()["members"]]


def test_an_editor_adds_a_member_who_joins_the_default_newsletter(tenant, role_api):
    editor = role_api("editor")
    reply = editor.post("/api/members", {"email": "  Reader@Example.COM ", "name": "Ada", "labels": ["VIP", "vip "],
                                          "note": "met at the launch"})
    assert reply.status_code == 201, reply.content
    member = reply.json()["member"]
    assert member["email"] == "reader@example.com" and member["name"] == "Ada" and member["source"] == "admin"
    assert [label["name"] for label in member["labels"]] == ["VIP"]  # one label, whatever its case
    assert [n["name"] for n in member["newsletters"]] == ["Newsletter"]  # the company's default newsletter
    assert member["status"] == "free" and member["emailDisabled"] is False


def test_the_same_address_in_another_case_is_refused(api):
    assert api.post("/api/members", {"email": "ada@example.com"}).status_code == 201
    reply = api.post("/api/members", {"email": "ADA@example.com"})
    assert reply.status_code == 409 and reply.json()["code"] == "email_taken"


@pytest.mark.parametrize("body", [{"email": "not an address"}, {"email": ""}, {"email": "a@b.c", "status": "paid"},
                                  {"email": "a@example.com", "name": "x" * 192},
                                  {"email": "a@example.com", "labels": "vip"},
                                  {"email": "a@example.com", "newsletters": ["not-an-id"]},
                                  {"email": "a@example.com", "labels": [""]}])
def test_hostile_bodies_are_400(api, body):
    reply = api.post("/api/members", body)
    assert reply.status_code == 400, reply.content
    assert reply.json()["success"] is False


# 312 characters that Django's validate_email accepts (it allows 320): longer than any email column (254).
LONG_ADDRESS = "a" * 64 + "@" + ".".join(["b" * 60] * 4) + ".com"


def test_an_address_longer_than_254_characters_is_400_wherever_it_is_given(tenant, api):
    member = factories.member(tenant, email="short@example.com")
    for reply in (api.post("/api/members", {"email": LONG_ADDRESS}),
                  api.put(f"/api/members/{member.id}", {"email": LONG_ADDRESS})):
        assert reply.status_code == 400, reply.content
        assert reply.json()["errors"] == [{"field": "email", "message": "Please enter a valid email address"}]
    with schema_context(tenant.schema_name):
        assert list(Member.objects.values_list("email", flat=True)) == ["short@example.com"]


def test_the_list_searches_filters_and_pages(tenant, api):
    weekly = factories.newsletter(tenant, "Weekly", default_on_signup=False)
    factories.member(tenant, email="ada@example.com", name="Ada Lovelace", labels=["vip"])
    factories.member(tenant, email="grace@example.com", name="Grace", status="comped", newsletters=[weekly])
    factories.member(tenant, email="linus@example.com", newsletters=[])
    with schema_context(tenant.schema_name):
        vip = Member.objects.get(email="ada@example.com").labels.get()
    assert _emails(api.get("/api/members", {"search": "lovelace"})) == ["ada@example.com"]
    assert _emails(api.get("/api/members", {"search": "GRACE@"})) == ["grace@example.com"]
    assert _emails(api.get("/api/members", {"label": str(vip.id)})) == ["ada@example.com"]
    assert _emails(api.get("/api/members", {"status": "comped"})) == ["grace@example.com"]
    assert _emails(api.get("/api/members", {"newsletter": str(weekly.id)})) == ["grace@example.com"]
    assert _emails(api.get("/api/members", {"newsletter": "none"})) == ["linus@example.com"]
    page = api.get("/api/members", {"limit": 2, "page": 2}).json()
    assert page["pagination"] == {"total": 3, "totalPages": 2, "currentPage": 2, "limit": 2}
    assert len(page["members"]) == 1
    for bad in ({"label": "x"}, {"status": "paid"}, {"newsletter": "x"}, {"limit": 101}, {"page": 0}):
        assert api.get("/api/members", bad).status_code == 400, bad


def test_the_list_reads_a_page_in_a_fixed_number_of_queries(tenant, api):
    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert api.get("/api/members", {"limit": 100}).status_code == 200
        return len(captured)

    factories.member(tenant, labels=["a"])
    few = queries()
    for n in range(30):
        factories.member(tenant, labels=[f"l{n % 4}", "b"])
    assert queries() == few


def test_edit_and_delete(tenant, api):
    member = factories.member(tenant, email="old@example.com", email_disabled=True,
                              email_disabled_reason="bounced: mailbox full")
    reply = api.put(f"/api/members/{member.id}", {"email": "New@Example.com", "name": "Renamed", "status": "comped",
                                                  "labels": ["press"], "newsletters": [], "emailDisabled": False})
    assert reply.status_code == 200, reply.content
    changed = reply.json()["member"]
    assert changed["email"] == "new@example.com" and changed["status"] == "comped" and changed["newsletters"] == []
    assert changed["emailDisabled"] is False and changed["emailDisabledReason"] == ""
    assert [label["name"] for label in changed["labels"]] == ["press"]
    assert api.put(f"/api/members/{member.id}", {"emailDisabled": True}).status_code == 400  # the provider's to say
    other = factories.member(tenant, email="taken@example.com")
    assert api.put(f"/api/members/{member.id}", {"email": "TAKEN@example.com"}).status_code == 409
    assert api.delete(f"/api/members/{other.id}").status_code == 200
    assert api.get(f"/api/members/{other.id}").status_code == 404


def test_bulk_labels_and_the_labels_list(tenant, api):
    members = [factories.member(tenant) for _ in range(3)]
    ids = [str(m.id) for m in members]
    reply = api.post("/api/members/bulk/labels", {"memberIds": ids[:2], "add": ["Early", "Press"]})
    assert reply.status_code == 200 and reply.json()["updated"] == 2
    labels = {label["name"]: label for label in api.get("/api/members/labels").json()["labels"]}
    assert labels["Early"]["members"] == 2 and labels["Press"]["members"] == 2
    reply = api.post("/api/members/bulk/labels", {"memberIds": ids, "remove": [labels["Press"]["id"]]})
    assert reply.status_code == 200
    assert {label["name"]: label["members"] for label in api.get("/api/members/labels").json()["labels"]} == {
        "Early": 2, "Press": 0}
    assert api.post("/api/members/bulk/labels", {"memberIds": []}).status_code == 400
    assert api.post("/api/members/labels", {"name": "early"}).status_code == 409
    assert api.put(f"/api/members/labels/{labels['Press']['id']}", {"name": "Media"}).status_code == 200
    assert api.delete(f"/api/members/labels/{labels['Early']['id']}").status_code == 200
    assert [label["name"] for label in api.get("/api/members/labels").json()["labels"]] == ["Media"]


@pytest.mark.parametrize("role", ["viewer", "author"])
def test_viewers_and_authors_read_but_do_not_manage(tenant, role):
    member = factories.member(tenant)
    client = Api(tenant, user=create_user(tenant, role))
    assert client.get("/api/members").status_code == 200
    assert client.get(f"/api/members/{member.id}").status_code == 200
    for reply in (client.post("/api/members", {"email": "x@example.com"}),
                  client.put(f"/api/members/{member.id}", {"name": "x"}),
                  client.delete(f"/api/members/{member.id}"),
                  client.get("/api/members/export")):
        assert reply.status_code == 403
        assert reply.json()["message"] == "Only editors and administrators can manage members"


def test_another_companys_members_are_not_found(tenant, other_tenant, api):
    theirs = factories.member(other_tenant, email="theirs@example.com")
    assert api.get(f"/api/members/{theirs.id}").status_code == 404
    assert api.put(f"/api/members/{theirs.id}", {"name": "x"}).status_code == 404
    assert api.delete(f"/api/members/{theirs.id}").status_code == 404
    assert api.post("/api/members/bulk/labels", {"memberIds": [str(theirs.id)], "add": ["x"]}).json()["updated"] == 0
    assert "theirs@example.com" not in api.get("/api/members").content.decode()
    assert api.post("/api/members", {"email": "theirs@example.com"}).status_code == 201  # unique per company only


def test_a_member_cannot_sign_in_to_the_dashboard(tenant, api):
    api.post("/api/members", {"email": "reader@example.com"})
    reply = Api(tenant).post("/api/auth/login", {"email": "reader@example.com", "password": "password123"})
    assert reply.status_code == 401


def test_the_plan_counts_members(tenant, api, settings):
    settings.PLANS = {**settings.PLANS, "trial": {**settings.PLANS["trial"], "members": 2, "emails_per_month": 500}}
    factories.member(tenant)
    assert api.post("/api/members", {"email": "one@example.com"}).status_code == 201
    refused = api.post("/api/members", {"email": "two@example.com"})
    assert refused.status_code == 403, refused.content
    assert refused.json()["code"] == "plan_limit" and refused.json()["limit"] == "members"
    assert refused.json()["message"].startswith("Your plan allows 2 members.")
    usage = {row["limit"]: row for row in api.get("/api/usage").json()["limits"]}
    assert usage["members"] == {"limit": "members", "used": 2, "allowed": 2}
    assert usage["emails_per_month"] == {"limit": "emails_per_month", "used": 0, "allowed": 500}
    member_id = api.get("/api/members").json()["members"][0]["id"]
    assert api.delete(f"/api/members/{member_id}").status_code == 200
    assert api.post("/api/members", {"email": "two@example.com"}).status_code == 201  # the place was given back
