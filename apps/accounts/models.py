import uuid

from django.contrib.postgres.fields import ArrayField
from django.db import models
from django.db.models.functions import Lower

from apps.core.permissions import Role


class User(models.Model):
    """A member of one company's staff. Lives in the tenant schema: the same email in two
    companies is two different users."""

    class Status(models.TextChoices):
        ACTIVE = "active", "Active"
        INACTIVE = "inactive", "Inactive"
        SUSPENDED = "suspended", "Suspended"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    username = models.CharField(max_length=150)
    email = models.CharField(max_length=254, unique=True)  # stored lowercased
    password = models.CharField(max_length=128)
    role = models.CharField(max_length=16, choices=Role.choices, default=Role.VIEWER)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.ACTIVE)
    last_login = models.DateTimeField(null=True, blank=True)
    # Bumped on password change, suspension and deactivation: older tokens stop working.
    token_version = models.PositiveIntegerField(default=1)
    # Two-factor sign-in (apps.accounts.two_factor). The TOTP key, encrypted (Fernet, a key derived
    # from SECRET_KEY): set at setup, in use once `two_factor_enabled_at` is set; never sent after
    # confirmation. Recovery codes are kept as keyed hashes, each removed when used; the last time
    # step accepted refuses a code used again within its window.
    two_factor_secret = models.CharField(max_length=255, blank=True, default="")
    two_factor_enabled_at = models.DateTimeField(null=True, blank=True)
    two_factor_recovery_codes = ArrayField(models.CharField(max_length=64), default=list, blank=True)
    two_factor_last_step = models.BigIntegerField(default=0)
    # The author profile (apps.accounts.profiles, docs/accounts.md#author-profile): what readers see
    # of the author of a post (the public API's post `author`, Ghost's authors). Images are absolute
    # addresses (a media item chosen in the library is stored as its address); facebook and
    # twitter the profiles' addresses (apps.site.rules.clean_social).
    display_name = models.CharField(max_length=191, blank=True, default="")
    bio = models.CharField(max_length=250, blank=True, default="")
    profile_image = models.CharField(max_length=2000, blank=True, default="")
    cover_image = models.CharField(max_length=2000, blank=True, default="")
    website = models.CharField(max_length=2000, blank=True, default="")
    location = models.CharField(max_length=150, blank=True, default="")
    facebook = models.CharField(max_length=500, blank=True, default="")
    twitter = models.CharField(max_length=500, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ("created_at",)
        constraints = [
            models.UniqueConstraint(Lower("username"), name="accounts_user_username_ci_unique"),
        ]

    def __str__(self) -> str:
        return self.username

    @property
    def is_active(self) -> bool:
        return self.status == self.Status.ACTIVE

    @property
    def is_admin(self) -> bool:
        return self.role == Role.ADMIN

    @property
    def two_factor_enabled(self) -> bool:
        return self.two_factor_enabled_at is not None


class Invitation(models.Model):
    """An admin's invitation by email to join the company with a role. The emailed link carries a
    random token; only its SHA-256 is stored. Pending until accepted, revoked or expired."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    email = models.CharField(max_length=254)  # stored lowercased
    role = models.CharField(max_length=16, choices=Role.choices, default=Role.VIEWER)
    token_hash = models.CharField(max_length=64, unique=True)
    invited_by = models.ForeignKey(User, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField()
    expires_at = models.DateTimeField()
    accepted_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    user = models.ForeignKey(User, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        ordering = ("-created_at",)
        constraints = [
            # one pending invitation per address (a new one replaces it)
            models.UniqueConstraint(
                "email", condition=models.Q(accepted_at__isnull=True, revoked_at__isnull=True),
                name="accounts_invitation_one_open_per_email"),
        ]


class SupportGrant(models.Model):
    """A company admin's consent to support: for a limited time (SUPPORT_GRANT_HOURS) an operator
    of the platform may sign in as a user of the company (SupportSession). Revoking it ends every
    session it allowed at once (apps.accounts.support)."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    granted_by = models.ForeignKey(User, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    granted_by_name = models.CharField(max_length=150, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-created_at",)


class SupportSession(models.Model):
    """An operator signed in as a user under a grant: its token names this row, which ends at the
    grant's end or after SUPPORT_SESSION_SECONDS, whichever comes first, or when ended or revoked.
    The operator is named, not linked (operators live in the public schema)."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    grant = models.ForeignKey(SupportGrant, on_delete=models.CASCADE, related_name="sessions")
    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="+")
    operator_email = models.CharField(max_length=254)
    started_at = models.DateTimeField(auto_now_add=True)
    ends_at = models.DateTimeField()
    exchanged_at = models.DateTimeField(null=True, blank=True)  # the console's one-time link was used
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-started_at",)
