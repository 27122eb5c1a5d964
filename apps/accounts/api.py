from django.db import connection
from ninja import Router

from apps.accounts import profiles, selectors, services, two_factor
from apps.accounts.schemas import (
    AuthorProfileIn,
    AuthorProfileReply,
    ForgotPasswordIn,
    LoginTwoFactorIn,
    RecoveryCodesOut,
    TwoFactorCodeIn,
    TwoFactorDisableIn,
    TwoFactorSetupOut,
    TwoFactorStatusOut,
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
from apps.core.permissions import PUBLIC, SIGNED_IN, capabilities_of, requires
from apps.core.ratelimit import client_ip
from apps.core.schemas import MessageOut

auth_router = Router(tags=["auth"])
users_router = Router(tags=["users"])
invitations_router = Router(tags=["users"])

ADMIN_ONLY = "Only administrators can manage users"


@auth_router.post("/login", auth=None, response=LoginOut)
@requires(PUBLIC)
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


@auth_router.post("/login/2fa", auth=None, response=LoginOut)
@requires(PUBLIC)
def login_two_factor(request, payload: LoginTwoFactorIn):
    """The second step of a sign-in with two-factor on: the `challengeToken` of the login's 403
    `two_factor_required` and a 6-digit code (or a recovery code) give the session token. 400
    `two_factor_invalid` for a wrong code, `two_factor_challenge_invalid` when the challenge expired,
    was used or is another company's; 429 past TWO_FACTOR_RATE_PER_CHALLENGE / _PER_USER."""
    token, expires_in, user = two_factor.auth_login_two_factor(challenge_token=payload.challengeToken,
                                                               code=payload.code)
    return LoginOut(
        message="Login successful",
        token=token,
        expiresIn=expires_in,
        user=SessionUserOut(userId=str(user.id), username=user.username, role=user.role),
    )


@auth_router.post("/forgot-password", auth=None, response=MessageOut)
@requires(PUBLIC)
def forgot_password(request, payload: ForgotPasswordIn):
    """Emails a link to choose a new password. The reply is the same whether or not the email has
    an account (no enumeration); throttled per client address and per email (429)."""
    services.password_reset_request(email=payload.email, ip=client_ip(request))
    return MessageOut(message=services.RESET_REQUESTED)


@auth_router.post("/reset-password/check", auth=None, response=ResetLinkOut)
@requires(PUBLIC)
def reset_password_check(request, payload: ResetLinkIn):
    """Whether a reset link still works (the form says so before a password is typed)."""
    user = services.password_reset_check(uid=payload.uid, token=payload.token)
    return ResetLinkOut(email=user.email, username=user.username)


@auth_router.post("/reset-password", auth=None, response=MessageOut)
@requires(PUBLIC)
def reset_password(request, payload: ResetPasswordIn):
    """Sets the new password from an emailed link (once; 400 `link_invalid` after) and signs the
    user out everywhere."""
    services.password_reset_confirm(uid=payload.uid, token=payload.token, password=payload.password)
    return MessageOut(message=services.RESET_DONE)


@auth_router.get("/me", response=MeOut)
@requires(SIGNED_IN)
def me(request):
    session = getattr(request, "support_session", None)
    return MeOut(user=UserOut.from_user(request.auth), capabilities=capabilities_of(request.auth),
                 twoFactorEnabled=request.auth.two_factor_enabled,
                 twoFactorRequired=two_factor.two_factor_required_here(),
                 support=None if session is None else {"operator": session.operator_email, "endsAt": session.ends_at})


# --- two-factor sign-in of the signed-in user (their account page) -------------------------------------
@auth_router.get("/2fa", response=TwoFactorStatusOut)
@requires(SIGNED_IN)
def two_factor_status(request):
    return TwoFactorStatusOut(**two_factor.two_factor_status(request.auth))


@auth_router.post("/2fa/setup", response=TwoFactorSetupOut)
@requires(SIGNED_IN)
def two_factor_setup(request):
    """A new authenticator key (otpauth URI, manual key, QR code as SVG); not in use until confirmed."""
    return TwoFactorSetupOut(message="Scan the QR code with your authenticator app, then enter the code it shows.",
                             **two_factor.two_factor_setup(user=request.auth))


@auth_router.post("/2fa/confirm", response=RecoveryCodesOut)
@requires(SIGNED_IN)
def two_factor_confirm(request, payload: TwoFactorCodeIn):
    """A code of the new key turns two-factor sign-in on; the reply carries the 10 recovery codes, once."""
    codes = two_factor.two_factor_confirm(user=request.auth, code=payload.code)
    return RecoveryCodesOut(message="Two-factor sign-in is on. Keep these recovery codes somewhere safe: "
                                    "each one signs you in once if you lose your phone.", recoveryCodes=codes)


@auth_router.post("/2fa/recovery-codes", response=RecoveryCodesOut)
@requires(SIGNED_IN)
def two_factor_recovery_codes(request, payload: TwoFactorCodeIn):
    """New recovery codes for a current code; the previous ones stop working."""
    codes = two_factor.two_factor_recovery_regenerate(user=request.auth, code=payload.code)
    return RecoveryCodesOut(message="New recovery codes. The previous ones no longer work.", recoveryCodes=codes)


@auth_router.post("/2fa/disable", response=MessageOut)
@requires(SIGNED_IN)
def two_factor_disable(request, payload: TwoFactorDisableIn):
    """Turn two-factor sign-in off: the password and a current code (or a recovery code)."""
    two_factor.two_factor_disable(user=request.auth, code=payload.code, password=payload.password)
    return MessageOut(message="Two-factor sign-in is off.")


@auth_router.post("/register-user", response={201: UserCreatedOut})
@requires("users.manage", ADMIN_ONLY)
def register_user(request, payload: UserCreateIn):
    user = services.user_create(
        username=payload.username, email=payload.email, password=payload.password, role=payload.role,
        actor=request.auth,
    )
    return UserCreatedOut(message="User created successfully", user=UserOut.from_user(user))


@users_router.get("", response=UserListOut)
@requires("users.manage", ADMIN_ONLY)
def list_users(request):
    return UserListOut(users=[UserOut.from_user(user) for user in selectors.user_list()])


@users_router.get("/{user_id}", response=UserReplyOut)
@requires(SIGNED_IN)
def get_user(request, user_id: str):
    user = selectors.user_get(user_id)
    services.check_can_view(request.auth, user)
    return UserReplyOut(user=UserOut.from_user(user))


@users_router.put("/{user_id}", response=UserUpdatedOut)
@requires(SIGNED_IN)
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


@users_router.get("/{user_id}/profile", response=AuthorProfileReply)
@requires(SIGNED_IN)  # your own profile, or any with users.manage (services.check_can_view)
def get_author_profile(request, user_id: str):
    """(+) The author profile readers see on the user's posts (docs/accounts.md#author-profile)."""
    user = selectors.user_get(user_id)
    services.check_can_view(request.auth, user)
    return AuthorProfileReply(profile=profiles.profile_of(user))


@users_router.put("/{user_id}/profile", response=AuthorProfileReply)
@requires(SIGNED_IN)  # your own profile, or any with users.manage (profiles.check_can_edit_profile)
def update_author_profile(request, user_id: str, payload: AuthorProfileIn):
    """(+) Change an author profile: your own, or anyone's as an admin (a field left out is kept)."""
    user = profiles.author_profile_update(actor=request.auth, user=selectors.user_get(user_id),
                                          **payload.service_kwargs())
    return AuthorProfileReply(message="Profile saved", profile=profiles.profile_of(user))


@users_router.post("/{user_id}/2fa/reset", response=UserReplyOut)
@requires("users.manage", two_factor.CANNOT_RESET)
def reset_user_two_factor(request, user_id: str):
    """Admins: turn off another user's two-factor sign-in (a lost phone); the user is told by email."""
    user = two_factor.two_factor_admin_reset(actor=request.auth, user=selectors.user_get(user_id))
    return UserReplyOut(user=UserOut.from_user(user))


@users_router.post("/{user_id}/invite", response={201: InvitationReplyOut})
@requires("users.manage", services.ONLY_ADMINS_INVITE)
def invite_user(request, user_id: str):
    """(+) Invite the owner of an account a blog import made (inactive, no password): the usual
    invitation email; accepting it activates this account, with its posts."""
    invitation = services.user_invite(actor=request.auth, user=selectors.user_get(user_id))
    return 201, InvitationReplyOut(message=f"Invitation sent to {invitation.email}",
                                   invitation=InvitationOut.from_invitation(invitation))


@users_router.delete("/{user_id}", response=MessageOut)
@requires(SIGNED_IN)  # your own account: never (services.user_delete); another's: users.manage
def delete_user(request, user_id: str):
    user = selectors.user_get(user_id)
    services.user_delete(actor=request.auth, user=user)
    return MessageOut(message="User deleted successfully")


# --- Invitations by email (admins) -----------------------------------------------------------------
@invitations_router.get("", response=InvitationListOut)
@requires("users.manage", ADMIN_ONLY)
def list_invitations(request):
    pending = selectors.invitation_pending_list()
    return InvitationListOut(invitations=[InvitationOut.from_invitation(invitation) for invitation in pending])


@invitations_router.post("", response={201: InvitationReplyOut})
@requires("users.manage", services.ONLY_ADMINS_INVITE)
def create_invitation(request, payload: InvitationIn):
    invitation = services.invitation_create(actor=request.auth, email=payload.email, role=payload.role)
    return 201, InvitationReplyOut(message=f"Invitation sent to {invitation.email}",
                                   invitation=InvitationOut.from_invitation(invitation))


@invitations_router.post("/{invitation_id}/resend", response=InvitationReplyOut)
@requires("users.manage", services.ONLY_ADMINS_INVITE)
def resend_invitation(request, invitation_id: str):
    invitation = services.invitation_resend(actor=request.auth, invitation_id=invitation_id)
    return InvitationReplyOut(message=f"Invitation sent again to {invitation.email}",
                              invitation=InvitationOut.from_invitation(invitation))


@invitations_router.delete("/{invitation_id}", response=MessageOut)
@requires("users.manage", services.ONLY_ADMINS_INVITE)
def revoke_invitation(request, invitation_id: str):
    services.invitation_revoke(actor=request.auth, invitation_id=invitation_id)
    return MessageOut(message="Invitation revoked")


@auth_router.post("/invitation/check", auth=None, response=InvitationCheckOut)
@requires(PUBLIC)
def check_invitation(request, payload: InvitationTokenIn):
    """Whether an invitation link still works, and for which address and role."""
    invitation = services.invitation_check(token=payload.token)
    return InvitationCheckOut(email=invitation.email, role=invitation.role)


@auth_router.post("/accept-invitation", auth=None, response={201: LoginOut})
@requires(PUBLIC)
def accept_invitation(request, payload: InvitationAcceptIn):
    """Creates the invited user with the chosen username and password and signs them in."""
    token, expires_in, user = services.invitation_accept(
        token=payload.token, username=payload.username, password=payload.password, ip=client_ip(request))
    return 201, LoginOut(message="Welcome! Your account is ready.", token=token, expiresIn=expires_in,
                         user=SessionUserOut(userId=str(user.id), username=user.username, role=user.role))
