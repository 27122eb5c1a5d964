"""The operator console's accounts and their audit log, in the public schema: platform staff, not
users of any company (docs/operator-console.md)."""
from django.db import models


class OperatorAccount(models.Model):
    """A member of the platform's staff. Signing in takes the password and an authenticator code
    (always: an account is created with its authenticator key, `manage.py operator_create`)."""

    email = models.CharField(max_length=254, unique=True)  # stored lowercased
    name = models.CharField(max_length=200, blank=True, default="")
    password = models.CharField(max_length=255)
    totp_secret = models.CharField(max_length=500)  # encrypted at rest (apps.accounts.two_factor.secret_seal)
    totp_last_step = models.BigIntegerField(default=0)  # a code works once
    active = models.BooleanField(default=True)
    session_version = models.PositiveIntegerField(default=0)  # bumped: every open session ends
    created_at = models.DateTimeField(auto_now_add=True)
    last_login_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return self.email


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
