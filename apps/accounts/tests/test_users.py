import pytest
from django_tenants.utils import schema_context

from apps.accounts.models import User
from apps.core.testing import DEFAULT_PASSWORD, Api, create_user

ROLES = ["admin", "editor", "author", "viewer"]
NEW_USER = {"username": "newbie", "email": "newbie@example.com", "password": "password123", "role": "editor"}


def as_role(tenant, role):
    if role == "admin":
        user = create_user(tenant, "admin")
    else:
        user = create_user(tenant, role)
    return Api(tenant, user=user), user


# --- create ------------------------------------------------------------------------------------

def test_admin_creates_a_user_who_can_sign_in(api, tenant):
    response = api.post("/api/auth/register-user", NEW_USER)
    assert response.status_code == 201
    body = response.json()
    assert body["message"] == "User created successfully"
    user = body["user"]
    assert user["username"] == "newbie" and user["email"] == "newbie@example.com" and user["role"] == "editor"
    assert user["status"] == "active" and user["lastLogin"] is None and user["id"] == user["userId"]
    assert "password" not in user
    login = Api(tenant).post("/api/auth/login", {"email": "newbie@example.com", "password": "password123"})
    assert login.status_code == 200 and login.json()["user"]["role"] == "editor"


@pytest.mark.parametrize("role", ["editor", "author", "viewer"])
def test_only_admins_create_users(tenant, role):
    client, _ = as_role(tenant, role)
    response = client.post("/api/auth/register-user", NEW_USER)
    assert response.status_code == 403
    assert response.json()["error"] == "forbidden"
    with schema_context(tenant.schema_name):
        assert not User.objects.filter(email="newbie@example.com").exists()


@pytest.mark.parametrize(
    "field, value, message",
    [
        ("username", "ab", "Username must be at least 3 characters"),
        ("email", "nope", "Please enter a valid email address"),
        ("password", "1234567", "Password must be at least 8 characters"),
        ("role", "", "Please select a role"),
        ("role", "owner", "Role must be one of admin, editor, author, viewer"),
    ],
)
def test_create_user_validation(api, field, value, message):
    response = api.post("/api/auth/register-user", {**NEW_USER, field: value})
    assert response.status_code == 400
    assert response.json()["message"] == message
    assert response.json()["errors"] == [{"field": field, "message": message}]


def test_duplicate_email_and_username_get_409(api):
    assert api.post("/api/auth/register-user", NEW_USER).status_code == 201
    same_email = api.post("/api/auth/register-user", {**NEW_USER, "username": "other"})
    assert same_email.status_code == 409
    assert same_email.json()["message"] == "A user with this email already exists"
    assert same_email.json()["code"] == "email_taken"
    same_name = api.post("/api/auth/register-user", {**NEW_USER, "email": "x@example.com", "username": "NEWBIE"})
    assert same_name.status_code == 409
    assert same_name.json()["message"] == "This username is already taken"
    assert same_name.json()["code"] == "username_taken"


# --- list and get ----------------------------------------------------------------------------

def test_admin_lists_users(api, tenant, admin):
    create_user(tenant, "viewer", username="vera")
    response = api.get("/api/users")
    assert response.status_code == 200
    names = [user["username"] for user in response.json()["users"]]
    assert names == [admin.username, "vera"]


def test_user_list_query_count_is_constant(api, tenant):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as few:
        assert len(api.get("/api/users").json()["users"]) == 1
    for _ in range(15):
        create_user(tenant, "viewer")
    with CaptureQueriesContext(connection) as many:
        assert len(api.get("/api/users").json()["users"]) == 16
    assert len(many.captured_queries) == len(few.captured_queries) <= 6


@pytest.mark.parametrize("role", ["editor", "author", "viewer"])
def test_non_admins_cannot_list_users_but_read_their_own_record(tenant, admin, role):
    client, user = as_role(tenant, role)
    assert client.get("/api/users").status_code == 403
    own = client.get(f"/api/users/{user.id}")
    assert own.status_code == 200 and own.json()["user"]["username"] == user.username
    other = client.get(f"/api/users/{admin.id}")
    assert other.status_code == 403
    assert other.json()["message"] == "You don't have permission to view this user"


def test_unknown_or_malformed_user_id_is_404(api):
    assert api.get("/api/users/00000000-0000-0000-0000-000000000000").status_code == 404
    assert api.get("/api/users/not-a-uuid").status_code == 404


# --- update ----------------------------------------------------------------------------------

def test_admin_updates_any_user_including_role_and_status(api, tenant):
    user = create_user(tenant, "viewer")
    response = api.put(f"/api/users/{user.id}", {"username": "renamed", "email": "renamed@example.com",
                                                 "role": "author", "status": "suspended"})
    assert response.status_code == 200
    assert response.json()["message"] == "User updated successfully"
    updated = response.json()["user"]
    assert (updated["username"], updated["email"], updated["role"], updated["status"]) == (
        "renamed", "renamed@example.com", "author", "suspended")


def test_blank_password_keeps_the_old_one(api, tenant):
    user = create_user(tenant, "editor", email="ed@example.com")
    assert api.put(f"/api/users/{user.id}", {"username": "ed2", "password": ""}).status_code == 200
    assert Api(tenant).post("/api/auth/login", {"email": "ed@example.com", "password": "password123"}).status_code == 200


@pytest.mark.parametrize("role", ["editor", "author", "viewer"])
def test_non_admins_edit_only_their_own_name_email_and_password(tenant, admin, role):
    client, user = as_role(tenant, role)
    other = client.put(f"/api/users/{admin.id}", {"username": "hijack"})
    assert other.status_code == 403
    assert other.json()["message"] == "You don't have permission to edit this user"

    own = client.put(f"/api/users/{user.id}", {"username": f"me-{role}", "email": f"me-{role}@example.com",
                                               "password": "changed-pass",
                                               "currentPassword": DEFAULT_PASSWORD})
    assert own.status_code == 200
    assert own.json()["user"]["username"] == f"me-{role}"

    promote = Api(tenant, token=own.json()["token"]).put(f"/api/users/{user.id}", {"role": "admin"})
    assert promote.status_code == 403
    assert promote.json()["message"] == "Only administrators can change a user's role or status"
    with schema_context(tenant.schema_name):
        assert User.objects.get(pk=user.pk).role == role
        assert User.objects.get(pk=admin.pk).username == admin.username


def test_sending_ones_own_unchanged_role_and_status_is_allowed(tenant):
    client, user = as_role(tenant, "viewer")
    response = client.put(f"/api/users/{user.id}", {"username": "vee", "role": "viewer", "status": "active"})
    assert response.status_code == 200


def test_update_conflicts_and_validation(api, tenant, admin):
    user = create_user(tenant, "viewer")
    taken = api.put(f"/api/users/{user.id}", {"email": "admin@example.com"})
    assert taken.status_code == 409 and taken.json()["message"] == "A user with this email already exists"
    assert taken.json()["code"] == "email_taken"
    bad = api.put(f"/api/users/{user.id}", {"status": "gone"})
    assert bad.status_code == 400 and bad.json()["message"] == "Status must be one of active, inactive, suspended"


def test_the_last_active_admin_cannot_be_demoted(api, admin):
    response = api.put(f"/api/users/{admin.id}", {"role": "editor"})
    assert response.status_code == 409
    assert response.json()["message"] == "The company must keep at least one active admin"
    assert response.json()["code"] == "last_admin"


# --- delete ----------------------------------------------------------------------------------

def test_admin_deletes_a_user(api, tenant):
    user = create_user(tenant, "author")
    response = api.delete(f"/api/users/{user.id}")
    assert response.status_code == 200 and response.json()["message"] == "User deleted successfully"
    assert api.get(f"/api/users/{user.id}").status_code == 404


@pytest.mark.parametrize("role", ROLES)
def test_nobody_deletes_their_own_account(tenant, role):
    client, user = as_role(tenant, role)
    response = client.delete(f"/api/users/{user.id}")
    assert response.status_code == 403
    assert response.json()["message"] == "You cannot delete your own account"


@pytest.mark.parametrize("role", ["editor", "author", "viewer"])
def test_only_admins_delete_users(tenant, role):
    client, _ = as_role(tenant, role)
    victim = create_user(tenant, "viewer")
    assert client.delete(f"/api/users/{victim.id}").status_code == 403
    with schema_context(tenant.schema_name):
        assert User.objects.filter(pk=victim.pk).exists()


# --- across tenants -----------------------------------------------------------------------------

def test_users_of_another_company_are_invisible(api, tenant, other_tenant):
    stranger = create_user(other_tenant, "editor", username="stranger")
    assert api.get(f"/api/users/{stranger.id}").status_code == 404
    assert api.put(f"/api/users/{stranger.id}", {"username": "xyz"}).status_code == 404
    assert api.delete(f"/api/users/{stranger.id}").status_code == 404
    assert "stranger" not in [u["username"] for u in api.get("/api/users").json()["users"]]
    with schema_context(other_tenant.schema_name):
        assert User.objects.get(pk=stranger.pk).username == "stranger"


# --- changing one's own password or email needs the current password (OWASP ASVS 6.2.3) ---------

CURRENT_REQUIRED = "Current password is required to change your password or email"
CURRENT_WRONG = "Current password is incorrect"


@pytest.mark.parametrize("role", ["admin", "editor", "author", "viewer"])
@pytest.mark.parametrize("change", [{"password": "brand-new-pass"}, {"email": "moved@example.com"}],
                         ids=["password", "email"])
def test_own_password_or_email_change_needs_the_current_password(tenant, admin, role, change):
    user = admin if role == "admin" else create_user(tenant, role)
    client = Api(tenant, user=user)
    for extra, message in (({}, CURRENT_REQUIRED), ({"currentPassword": ""}, CURRENT_REQUIRED),
                           ({"currentPassword": "not-my-password"}, CURRENT_WRONG)):
        refused = client.put(f"/api/users/{user.id}", {**change, **extra})
        assert refused.status_code == 400, refused.json()
        assert refused.json() == {"success": False, "message": message, "error": "validation_error",
                                  "errors": [{"field": "currentPassword", "message": message}]}
    with schema_context(tenant.schema_name):
        unchanged = User.objects.get(pk=user.pk)
    assert unchanged.email == user.email and unchanged.password == user.password

    accepted = client.put(f"/api/users/{user.id}", {**change, "currentPassword": DEFAULT_PASSWORD})
    assert accepted.status_code == 200, accepted.json()
    email = change.get("email", user.email)
    password = change.get("password", DEFAULT_PASSWORD)
    assert Api(tenant).post("/api/auth/login", {"email": email, "password": password}).status_code == 200


def test_own_name_and_unchanged_email_need_no_current_password(tenant):
    """The edit form sends the whole record back: the same email is not a change."""
    user = create_user(tenant, "editor", email="same@example.com")
    response = Api(tenant, user=user).put(f"/api/users/{user.id}", {"username": "new-name", "email": "SAME@example.com",
                                                                     "password": ""})
    assert response.status_code == 200
    assert response.json()["user"]["username"] == "new-name"


def test_an_admin_changes_another_users_email_and_password_without_theirs(api, tenant):
    user = create_user(tenant, "editor")
    response = api.put(f"/api/users/{user.id}", {"email": "reset@example.com", "password": "reset-pass-123"})
    assert response.status_code == 200
    login = Api(tenant).post("/api/auth/login", {"email": "reset@example.com", "password": "reset-pass-123"})
    assert login.status_code == 200


def test_guessing_the_current_password_is_throttled(tenant):
    """A stolen session must not become a way to guess the password without limit."""
    user = create_user(tenant, "author")
    client = Api(tenant, user=user)
    for _ in range(5):
        response = client.put(f"/api/users/{user.id}", {"password": "brand-new-pass", "currentPassword": "guess-guess"})
        assert response.status_code == 400
    blocked = client.put(f"/api/users/{user.id}", {"password": "brand-new-pass", "currentPassword": DEFAULT_PASSWORD})
    assert blocked.status_code == 429 and blocked.json()["error"] == "rate_limited"
    assert int(blocked["Retry-After"]) > 0
