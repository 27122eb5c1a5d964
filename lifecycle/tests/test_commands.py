from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django_tenants.utils import schema_context

from apps.accounts.models import User
from apps.core.testing import Api
from tenants.models import Client


def run(*args) -> str:
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def test_operator_creates_lists_suspends_reactivates_and_rotates(db):
    out = run("tenant_create", "--subdomain", "globex", "--name", "Globex", "--contact-name", "Hank",
              "--contact-email", "hank@globex.com", "--admin-username", "hank", "--admin-email", "hank@globex.com",
              "--admin-password", "password123", "--plan", "business")
    assert "http://globex.testserver.local" in out
    client = Client.objects.get(subdomain="globex")
    assert client.status == "active" and client.subscription_plan == "business"
    assert Api(client).post("/api/auth/login", {"email": "hank@globex.com", "password": "password123"}).status_code == 200

    assert "globex" in run("tenant_list")

    run("tenant_suspend", "globex")
    assert Client.objects.get(pk=client.pk).status == "suspended"
    assert Api(client).post("/api/auth/login", {"email": "hank@globex.com", "password": "password123"}).status_code == 403
    run("tenant_reactivate", "globex")
    assert Client.objects.get(pk=client.pk).status == "active"

    old_key, old_preview = client.api_key, client.preview_key
    out = run("tenant_rotate_keys", "globex")
    client.refresh_from_db()
    assert client.api_key != old_key and client.preview_key == old_preview
    assert client.api_key in out
    run("tenant_rotate_keys", "globex", "--preview-only")
    client.refresh_from_db()
    assert client.preview_key != old_preview


def test_commands_refuse_bad_input_clearly(db):
    with pytest.raises(CommandError, match="Subdomain must be at least 3 characters"):
        run("tenant_create", "--subdomain", "gx", "--name", "Globex", "--contact-name", "Hank",
            "--contact-email", "hank@globex.com", "--admin-username", "hank", "--admin-email", "hank@globex.com",
            "--admin-password", "password123")
    with pytest.raises(CommandError, match="No company with subdomain"):
        run("tenant_suspend", "missing")


def test_seed_demo_is_idempotent_and_gives_the_known_login(db):
    out = run("seed_demo")
    assert "admin@example.com / admin12345" in out
    run("seed_demo")
    demo = Client.objects.get(subdomain="demo")
    with schema_context(demo.schema_name):
        assert User.objects.filter(email="admin@example.com", role="admin").count() == 1
    assert Api(demo).post("/api/auth/login", {"email": "admin@example.com", "password": "admin12345"}).status_code == 200
