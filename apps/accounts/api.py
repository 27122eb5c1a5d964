from django.db import connection
from ninja import Router

from apps.accounts import selectors, services
from apps.accounts.schemas import (
    LoginIn,
    LoginOut,
    MeOut,
    SessionUserOut,
    UserCreatedOut,
    UserCreateIn,
    UserListOut,
    UserOut,
    UserReplyOut,
    UserUpdatedOut,
    UserUpdateIn,
)
from apps.accounts.tokens import token_issue
from apps.core.permissions import capabilities_of, require
from apps.core.ratelimit import client_ip
from apps.core.schemas import MessageOut

auth_router = Router(tags=["auth"])
users_router = Router(tags=["users"])

ADMIN_ONLY = "Only administrators can manage users"


@auth_router.post("/login", auth=None, response=LoginOut)
def login(request, payload: LoginIn):
    token, expires_in, user = services.auth_login(
        email=payload.email, password=payload.password, ip=client_ip(request)
    )
    return LoginOut(
        message="Login successful",
        token=token,
        expiresIn=expires_in,
        user=SessionUserOut(userId=str(user.id), username=user.username, role=user.role),
    )


@auth_router.get("/me", response=MeOut)
def me(request):
    return MeOut(user=UserOut.from_user(request.auth), capabilities=capabilities_of(request.auth))


@auth_router.post("/register-user", response={201: UserCreatedOut})
def register_user(request, payload: UserCreateIn):
    require(request.auth, "users.manage", ADMIN_ONLY)
    user = services.user_create(
        username=payload.username, email=payload.email, password=payload.password, role=payload.role,
        actor=request.auth,
    )
    return UserCreatedOut(message="User created successfully", user=UserOut.from_user(user))


@users_router.get("", response=UserListOut)
def list_users(request):
    require(request.auth, "users.manage", ADMIN_ONLY)
    return UserListOut(users=[UserOut.from_user(user) for user in selectors.user_list()])


@users_router.get("/{user_id}", response=UserReplyOut)
def get_user(request, user_id: str):
    user = selectors.user_get(user_id)
    if user.pk != request.auth.pk:
        require(request.auth, "users.manage", services.CANNOT_VIEW)
    return UserReplyOut(user=UserOut.from_user(user))


@users_router.put("/{user_id}", response=UserUpdatedOut)
def update_user(request, user_id: str, payload: UserUpdateIn):
    user = selectors.user_get(user_id)
    changed_own_password = user.pk == request.auth.pk and bool(payload.password)
    user = services.user_update(actor=request.auth, user=user, **payload.service_kwargs())
    fresh = {}
    if changed_own_password:
        # Older tokens stopped working; hand the caller a fresh one so they stay signed in.
        token, expires_in = token_issue(user=user, schema_name=connection.schema_name)
        fresh = {"token": token, "expiresIn": expires_in}
    return UserUpdatedOut(message="User updated successfully", user=UserOut.from_user(user), **fresh)


@users_router.delete("/{user_id}", response=MessageOut)
def delete_user(request, user_id: str):
    user = selectors.user_get(user_id)
    services.user_delete(actor=request.auth, user=user)
    return MessageOut(message="User deleted successfully")
