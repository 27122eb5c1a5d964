"""The operator console's accounts and their audit log, in the public schema: platform staff, not
users of any company (docs/operator-console.md)."""
from django.db import models
from django.utils import timezone


class OperatorAccount(models.Model):
    """A member of the platform's staff. Signing in takes the password and an authenticator code
    (always: an account is created with its authenticator key, `manage.py operator_create`)."""

    email = models.CharField(max_length=254, unique=True)  # stored lowercased
    name = models.CharField(max_length=200, blank=True, default="")
    password = models.CharField(max_length=255)
    totp_secret = models.CharField(max_length=500)  # encrypted at rest (apps.accounts.two_factor.secret_seal)
    totp_last_step = models.BigIntegerField(default=0)  # a code works once
    active = models.BooleanField(default=True)
    session_version = models.PositiveIntegerField(default=0)  # bumped: every open session ends (OperatorSession)
    created_at = models.DateTimeField(auto_now_add=True)
    last_login_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return self.email


class OperatorSession(models.Model):
    """One console session (lifecycle.operator.session): its browser's cookie holds a random key,
    signed, of which only the SHA-256 is kept here. A `password` session is the short step between
    the password and the authenticator code, used once; a `code` session is a signed-in console. A
    session ends when revoked (signed out, its code step done, the password changed, signed out
    everywhere), when it was not used for OPERATOR_SESSION_IDLE_SECONDS, at `expires_at`, or as soon
    as the account's password, authenticator key or session version is not the one it was bound to."""

    class Step(models.TextChoices):
        PASSWORD = "password"
        CODE = "code"

    operator = models.ForeignKey(OperatorAccount, on_delete=models.CASCADE, related_name="sessions")
    key_hash = models.CharField(max_length=64, unique=True)  # sha256 of the cookie's key (the key is not kept)
    step = models.CharField(max_length=10, choices=Step.choices)
    binding = models.CharField(max_length=64)  # the account's sign-in state it was started under
    ip = models.CharField(max_length=45, blank=True, default="")
    user_agent = models.CharField(max_length=200, blank=True, default="")
    created_at = models.DateTimeField(default=timezone.now)
    last_seen_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()  # the absolute end
    revoked_at = models.DateTimeField(null=True, blank=True)
    revoked_why = models.CharField(max_length=30, blank=True, default="")

    class Meta:
        ordering = ("-created_at", "-id")
        indexes = [models.Index(fields=["operator", "revoked_at"], name="operator_session_open_idx"),
                   models.Index(fields=["expires_at"], name="operator_session_expires_idx")]


class OperatorAction(models.Model):
    """One thing an operator did (or tried: a refused sign-in). The company is named, not linked:
    the entry outlives a deleted company."""

    operator = models.ForeignKey(OperatorAccount, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    operator_email = models.CharField(max_length=254, blank=True, default="")
    action = models.CharField(max_length=40)
    company = models.CharField(max_length=63, blank=True, default="")  # the subdomain
    detail = models.JSONField(default=dict, blank=True)
    ip = models.CharField(max_length=45, blank=True, default="")
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("-at", "-id")
        indexes = [models.Index(fields=["-at"], name="operator_action_at_idx")]


class OperatorBackup(models.Model):
    """A backup an operator started from the console: made by a Celery task (lifecycle.operator.
    tasks.backup_run, with lifecycle.backup.tenant_backup), kept in private storage under the
    company's schema (apps.media.storage.private_storage), downloaded from the console."""

    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        DONE = "done"
        FAILED = "failed"

    client_id = models.BigIntegerField(db_index=True)  # tenants.Client (not a key: the row outlives it)
    company = models.CharField(max_length=63)  # the subdomain when it was made
    operator = models.ForeignKey(OperatorAccount, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    file_key = models.CharField(max_length=500, blank=True, default="")
    file_name = models.CharField(max_length=200, blank=True, default="")
    size = models.BigIntegerField(default=0)
    error = models.CharField(max_length=500, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-created_at", "-id")
