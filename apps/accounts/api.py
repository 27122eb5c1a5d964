from django.db import connection
from ninja import Router

from apps.accounts import selectors, services
from apps.accounts.schemas import (
    ForgotPasswordIn,
    InvitationAcceptIn,
    InvitationCheckOut,
    InvitationIn,
    InvitationListOut,
    InvitationOut,
    InvitationReplyOut,
    InvitationTokenIn,
    LoginIn,
    LoginOut,
    MeOut,
    ResetLinkIn,
    ResetLinkOut,
    ResetPasswordIn,
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
invitations_router = Router(tags=["users"])

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


@auth_router.post("/forgot-password", auth=None, response=MessageOut)
def forgot_password(request, payload: ForgotPasswordIn):
    """Emails a link to choose a new password. The reply is the same whether or not the email has
    an account (no enumeration); throttled per client address and per email (429)."""
    services.password_reset_request(email=payload.email, ip=client_ip(request))
    return MessageOut(message=services.RESET_REQUESTED)


@auth_router.post("/reset-password/check", auth=None, response=ResetLinkOut)
def reset_password_check(request, payload: ResetLinkIn):
    """Whether a reset link still works (the form says so before a password is typed)."""
    user = services.password_reset_check(uid=payload.uid, token=payload.token)
    return ResetLinkOut(email=user.email, username=user.username)


@auth_router.post("/reset-password", auth=None, response=MessageOut)
def reset_password(request, payload: ResetPasswordIn):
    """Sets the new password from an emailed link (once; 400 `link_invalid` after) and signs the
    user out everywhere."""
    services.password_reset_confirm(uid=payload.uid, token=payload.token, password=payload.password)
    return MessageOut(message=services.RESET_DONE)


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


# --- Invitations by email (admins) -----------------------------------------------------------------
@invitations_router.get("", response=InvitationListOut)
def list_invitations(request):
    require(request.auth, "users.manage", ADMIN_ONLY)
    pending = selectors.invitation_pending_list()
    return InvitationListOut(invitations=[InvitationOut.from_invitation(invitation) for invitation in pending])


@invitations_router.post("", response={201: InvitationReplyOut})
def create_invitation(request, payload: InvitationIn):
    invitation = services.invitation_create(actor=request.auth, email=payload.email, role=payload.role)
    return 201, InvitationReplyOut(message=f"Invitation sent to {invitation.email}",
                                   invitation=InvitationOut.from_invitation(invitation))


@invitations_router.post("/{invitation_id}/resend", response=InvitationReplyOut)
def resend_invitation(request, invitation_id: str):
    invitation = services.invitation_resend(actor=request.auth, invitation_id=invitation_id)
    return InvitationReplyOut(message=f"Invitation sent again to {invitation.email}",
                              invitation=InvitationOut.from_invitation(invitation))


@invitations_router.delete("/{invitation_id}", response=MessageOut)
def revoke_invitation(request, invitation_id: str):
    services.invitation_revoke(actor=request.auth, invitation_id=invitation_id)
    return MessageOut(message="Invitation revoked")


@auth_router.post("/invitation/check", auth=None, response=InvitationCheckOut)
def check_invitation(request, payload: InvitationTokenIn):
    """Whether an invitation link still works, and for which address and role."""
    invitation = services.invitation_check(token=payload.token)
    return InvitationCheckOut(email=invitation.email, role=invitation.role)


@auth_router.post("/accept-invitation", auth=None, response={201: LoginOut})
def accept_invitation(request, payload: InvitationAcceptIn):
    """Creates the invited user with the chosen username and password and signs them in."""
    token, expires_in, user = services.invitation_accept(
        token=payload.token, username=payload.username, password=payload.password, ip=client_ip(request))
    return 201, LoginOut(message="Welcome! Your account is ready.", token=token, expiresIn=expires_in,
                         user=SessionUserOut(userId=str(user.id), username=user.username, role=user.role))
