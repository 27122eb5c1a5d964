"""Members CSV in and out through the dashboard API: the upload and its dry run, the import, the
export's link and file (Ghost's members CSV, formulas neutralised), other companies' links."""
from __future__ import annotations

import csv
import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test.client import MULTIPART_CONTENT
from django_tenants.utils import schema_context

from apps.core.testing import Api
from apps.members import imports
from apps.members.models import Member
from apps.members.tests import factories

GHOST_CSV = (
    "id,email,name,note,subscribed_to_emails,complimentary_plan,stripe_customer_id,created_at,deleted_at,labels\n"
    "6571,ada@example.com,Ada Lovelace,first reader,true,false,,2023-01-15T10:00:00.000Z,,\"vip,early\"\n"
    "6572,GRACE@example.com,Grace,,false,true,cus_123,2023-02-01T00:00:00.000Z,,\n"
    "6573,gone@example.com,Gone,,true,false,,2023-02-01T00:00:00.000Z,2023-03-01T00:00:00.000Z,\n"
    "6574,not-an-address,Nobody,,true,false,,,,\n"
    "6575,ada@example.com,Ada again,,true,false,,,,\n"
)


@pytest.fixture(autouse=True)
def _media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


def upload(api, data: bytes, name: str = "members.csv", **form):
    return api.post("/api/members/imports", {"file": SimpleUploadedFile(name, data, content_type="text/csv"), **form},
                    content_type=MULTIPART_CONTENT)


def analyse(tenant, job_id: str) -> None:
    with schema_context(tenant.schema_name):
        imports.member_import_analyse(job_id=job_id)


def run(tenant, job_id: str) -> None:
    with schema_context(tenant.schema_name):
        imports.member_import_run(job_id=job_id)


def test_a_ghost_export_is_dry_run_then_imported(tenant, api):
    factories.member(tenant, email="grace@example.com", name="", labels=["press"], newsletters=[])
    reply = upload(api, GHOST_CSV.encode(), labels="From Ghost")
    assert reply.status_code == 201, reply.content
    job = reply.json()["job"]
    assert job["status"] == "analysing" and job["source"] == "ghost" and job["labels"] == ["From Ghost"]
    analyse(tenant, job["id"])
    job = api.get(f"/api/members/imports/{job['id']}").json()["job"]
    assert job["status"] == "analysed" and job["encoding"] == "utf-8"
    assert job["dryRun"] == {"rows": 5, "created": 1, "updated": 1, "duplicates": 1, "skipped": 1, "invalid": 1}
    assert {(p["line"], p["reason"]) for p in job["problems"]} == {
        (4, "Deleted in Ghost: left out"), (5, "Not a valid email address"),
        (6, "The same address is further up the file")}
    with schema_context(tenant.schema_name):
        assert Member.objects.count() == 1  # a dry run writes nothing
    started = api.post(f"/api/members/imports/{job['id']}/start")
    assert started.status_code == 202 and started.json()["job"]["status"] == "queued"
    assert api.post(f"/api/members/imports/{job['id']}/start").status_code == 409
    run(tenant, job["id"])
    job = api.get(f"/api/members/imports/{job['id']}").json()["job"]
    assert job["status"] == "completed" and job["result"]["created"] == 1 and job["result"]["updated"] == 1
    ada = api.get("/api/members", {"search": "ada@"}).json()["members"][0]
    assert ada["name"] == "Ada Lovelace" and ada["note"] == "first reader" and ada["source"] == "import"
    assert ada["createdAt"].startswith("2023-01-15T10:00:00")
    assert sorted(label["name"] for label in ada["labels"]) == ["From Ghost", "early", "vip"]
    assert [n["name"] for n in ada["newsletters"]] == ["Newsletter"]
    grace = api.get("/api/members", {"search": "grace@"}).json()["members"][0]
    assert grace["name"] == "Grace" and grace["status"] == "comped"  # an empty name filled, comped
    assert grace["newsletters"] == []  # not subscribed in Ghost: not subscribed here either
    assert sorted(label["name"] for label in grace["labels"]) == ["From Ghost", "press"]  # nothing taken away


@pytest.mark.parametrize("data", [b"", b"name,note\nAda,x\n", b"\x89PNG\r\n\x1a\n\x00\x00", b"\xff\xfe\x00"])
def test_a_file_that_is_not_a_members_csv_is_400(api, data):
    reply = upload(api, data)
    assert reply.status_code == 400, reply.content
    assert reply.json()["errors"][0]["field"] == "file"


@pytest.mark.parametrize(("labels", "message"), [
    (",".join(f"label {n}" for n in range(101)), "At most 100 labels"),
    ("vip," + "x" * 192, "Label names must be at most 191 characters"),
    ("vip,\x00", "Text must not contain NUL characters"),
])
def test_hostile_labels_of_an_upload_are_400_and_nothing_is_stored(tenant, api, labels, message):
    reply = upload(api, GHOST_CSV.encode(), labels=labels)
    assert reply.status_code == 400, reply.content
    body = reply.json()
    assert body["error"] == "validation_error" and body["message"] == message
    assert body.get("errors", [{"field": "labels"}])[0]["field"] == "labels"
    with schema_context(tenant.schema_name):
        assert not imports.MemberImport.objects.exists()


def test_the_labels_of_an_upload_are_tidied(api):
    reply = upload(api, GHOST_CSV.encode(), labels=" From  Ghost ,,\r\nvip\r\n, ")
    assert reply.status_code == 201, reply.content
    assert reply.json()["job"]["labels"] == ["From Ghost", "vip"]


def test_a_row_whose_address_is_too_long_is_reported_and_the_others_are_imported(tenant, api):
    long_address = "a" * 64 + "@" + ".".join(["b" * 60] * 4) + ".com"  # 312: valid for Django, over 254
    job = upload(api, f"email,name\nok@example.com,Ok\n{long_address},Long\n".encode()).json()["job"]
    analyse(tenant, job["id"])
    job = api.get(f"/api/members/imports/{job['id']}").json()["job"]
    assert job["dryRun"]["created"] == 1 and job["dryRun"]["invalid"] == 1
    assert job["problems"] == [{"line": 3, "email": long_address[:254], "reason": "Not a valid email address"}]
    assert api.post(f"/api/members/imports/{job['id']}/start").status_code == 202
    run(tenant, job["id"])
    job = api.get(f"/api/members/imports/{job['id']}").json()["job"]
    assert job["status"] == "completed" and job["error"] == "" and job["result"]["created"] == 1
    with schema_context(tenant.schema_name):
        assert list(Member.objects.values_list("email", flat=True)) == ["ok@example.com"]


def test_one_import_at_a_time(tenant, api):
    assert upload(api, GHOST_CSV.encode()).status_code == 201
    assert upload(api, GHOST_CSV.encode()).status_code == 409


def test_an_import_past_the_plan_is_refused_before_it_starts(tenant, api, settings):
    settings.PLANS = {**settings.PLANS, "trial": {**settings.PLANS["trial"], "members": 1}}
    factories.member(tenant)
    job = upload(api, GHOST_CSV.encode()).json()["job"]
    analyse(tenant, job["id"])
    refused = api.post(f"/api/members/imports/{job['id']}/start")
    assert refused.status_code == 403 and refused.json()["code"] == "plan_limit"


def _download(api, url: str):
    path = url.split("://", 1)[1].split("/", 1)[1]
    return api.get("/" + path)


def test_the_export_is_ghosts_members_csv_with_formulas_neutralised(tenant, api):
    factories.member(tenant, email="ada@example.com", name="=HYPERLINK(\"http://evil\")", labels=["+vip", "plain"])
    factories.member(tenant, email="bob@example.com", name="-2+3", note="@SUM(A1)", status="comped", newsletters=[])
    factories.member(tenant, email="tab@example.com", name="\tTabbed")
    link = api.get("/api/members/export")
    assert link.status_code == 200, link.content
    reply = _download(Api(tenant), link.json()["url"])  # no sign-in: the signed link is the key
    assert reply.status_code == 200 and reply["Content-Type"].startswith("text/csv")
    assert reply["Cache-Control"] == "private, no-store"
    rows = list(csv.DictReader(io.StringIO(b"".join(reply.streaming_content).decode())))
    assert list(rows[0]) == ["id", "email", "name", "note", "subscribed_to_emails", "complimentary_plan",
                             "stripe_customer_id", "created_at", "deleted_at", "labels"]
    by_email = {row["email"]: row for row in rows}
    assert by_email["ada@example.com"]["name"] == "'=HYPERLINK(\"http://evil\")"
    assert by_email["ada@example.com"]["subscribed_to_emails"] == "true"
    assert by_email["bob@example.com"]["name"] == "'-2+3" and by_email["bob@example.com"]["note"] == "'@SUM(A1)"
    assert by_email["bob@example.com"]["complimentary_plan"] == "true"
    assert by_email["bob@example.com"]["subscribed_to_emails"] == "false"
    assert by_email["tab@example.com"]["name"] == "'\tTabbed"
    assert by_email["ada@example.com"]["labels"] == "'+vip,plain"  # the cell starts with +


def test_the_export_link_filters_and_works_on_its_company_only(tenant, other_tenant, api):
    factories.member(tenant, email="free@example.com")
    factories.member(tenant, email="comped@example.com", status="comped")
    url = api.get("/api/members/export", {"status": "comped"}).json()["url"]
    body = b"".join(_download(Api(tenant), url).streaming_content).decode()
    assert "comped@example.com" in body and "free@example.com" not in body
    assert _download(Api(other_tenant), url).status_code == 404  # another company's host
    assert _download(Api(tenant), url[:-3] + "abc").status_code == 404  # altered
    assert api.get("/api/members/export", {"label": "not-an-id"}).status_code == 400


def test_an_export_imports_back_into_another_company(tenant, other_tenant, api):
    factories.member(tenant, email="ada@example.com", name="Ada", labels=["vip"])
    factories.member(tenant, email="bob@example.com", name="Bob", status="comped", newsletters=[])
    data = b"".join(_download(Api(tenant), api.get("/api/members/export").json()["url"]).streaming_content)
    theirs = Api(other_tenant, user=factories_admin(other_tenant))
    job = upload(theirs, data).json()["job"]
    analyse(other_tenant, job["id"])
    theirs.post(f"/api/members/imports/{job['id']}/start")
    run(other_tenant, job["id"])
    members = {m["email"]: m for m in theirs.get("/api/members").json()["members"]}
    assert set(members) == {"ada@example.com", "bob@example.com"}
    assert members["bob@example.com"]["status"] == "comped" and members["bob@example.com"]["newsletters"] == []
    assert [label["name"] for label in members["ada@example.com"]["labels"]] == ["vip"]


def factories_admin(tenant):
    from apps.core.testing import tenant_admin

    return tenant_admin(tenant)
