"""What the operator console does. Each change of a company calls the function its management
command calls (tenants.services, tenants.verification, tenants.deletion, tenants.backup), and is
written to the operator audit log (OperatorAction) with who did it."""
from __future__ import annotations

import logging
import re
import tempfile
from datetime import datetime, timedelta
from pathlib import Path

from django.conf import settings
from django.contrib.auth.hashers import check_password, make_password
from django.core.files import File
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django_tenants.utils import schema_context

from apps.accounts import support, two_factor
from apps.accounts.models import User
from apps.accounts.passwords import password_matches
from apps.core import ratelimit
from apps.core.errors import ApplicationError, ValidationFailed
from apps.core.outbox import Busy, outbox_add
from apps.media.storage import private_storage
from lifecycle.operator import session
from lifecycle.operator.models import OperatorAccount, OperatorAction, OperatorBackup, OperatorSession
from apps.plans import rules
from lifecycle import backup, deletion, verification
from tenants.addresses import tenant_base_url
from tenants.models import Client
from lifecycle.services import client_rotate_keys, client_set_status

logger = logging.getLogger(__name__)

SIGN_IN_FAILED = "Wrong email or password"
CODE_WRONG = "Wrong or already used code"
PASSWORD_MIN = 12


class ConsoleRefused(Exception):  # noqa: N818 - a refusal shown on the page
    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class SessionEnded(ConsoleRefused):
    """The browser's session can no longer be used: sign in again."""

    def __init__(self):
        super().__init__("Your session has ended. Please sign in again.")


def action_record(*, operator: OperatorAccount | None, action: str, company: str = "", detail: dict | None = None,
                  ip: str = "", email: str = "") -> OperatorAction:
    return OperatorAction.objects.create(operator=operator, operator_email=operator.email if operator else email,
                                         action=action, company=company, detail=detail or {}, ip=ip)


# --- accounts and signing in -----------------------------------------------------------------------
def operator_create(*, email: str, password: str, name: str = "") -> tuple[OperatorAccount, str]:
    """A new operator and the authenticator key to add to their app (returned once)."""
    if len(password) < PASSWORD_MIN:
        raise ValidationFailed(f"An operator's password has at least {PASSWORD_MIN} characters", field="password")
    secret = two_factor.secret_new()
    account = OperatorAccount.objects.create(email=email.strip().lower(), name=name, password=make_password(password),
                                             totp_secret=two_factor.secret_seal(secret))
    return account, secret


def provisioning_uri(account: OperatorAccount, secret: str) -> str:
    return two_factor.provisioning_uri(secret, name=account.email, issuer=f"{settings.TWO_FACTOR_ISSUER} operators")


def _throttle(*, email: str, ip: str) -> None:
    try:
        ratelimit.spend([(ratelimit.parse_rate(settings.OPERATOR_SIGN_IN_RATE), ("operator-sign-in", ip)),
                         (ratelimit.parse_rate(settings.OPERATOR_SIGN_IN_RATE), ("operator-sign-in", email))],
                        "Too many attempts. Please try again in {wait}.")
    except Exception as exc:  # RateLimited: shown on the page
        raise ConsoleRefused(getattr(exc, "message", str(exc))) from exc


def operator_sign_in(*, email: str, password: str, ip: str, user_agent: str = "",
                     replaces: OperatorSession | None = None) -> tuple[OperatorSession, str]:
    """The first step: the password of an active operator account. Company users are not operators:
    their addresses and passwords are refused like any wrong pair. Starts the short password step
    (OPERATOR_PASSWORD_STEP_SECONDS, used once by the code step) and returns it with its cookie's
    key; the session the browser had (`replaces`) ends."""
    email = (email or "").strip().lower()
    _throttle(email=email, ip=ip)
    account = OperatorAccount.objects.filter(email=email, active=True).first()
    if not password_matches(password or "", account.password if account else None) or account is None:
        action_record(operator=None, action="sign_in_refused", ip=ip, email=email[:254])
        raise ConsoleRefused(SIGN_IN_FAILED)
    if replaces is not None:
        session.session_revoke(replaces, why="replaced")
    return session.session_start(account=account, step=session.PASSWORD, ip=ip, user_agent=user_agent)


def operator_confirm_code(*, pending: OperatorSession, code: str, ip: str, user_agent: str = "") -> tuple[
        OperatorSession, str]:
    """The second step: a code of the operator's authenticator app, used once (the account's row is
    locked while it is checked: two requests with one code, one succeeds). The password step is used
    up by it (SessionEnded when it is no longer usable: sign in again) and a new session starts, the
    signed-in console's, with a new key."""
    account = pending.operator
    _throttle(email=account.email, ip=ip)
    with transaction.atomic():
        pending = OperatorSession.objects.select_for_update().select_related("operator").get(pk=pending.pk)
        if session.refusal(pending, step=session.PASSWORD):
            raise SessionEnded()
        account = OperatorAccount.objects.select_for_update().get(pk=pending.operator_id)
        step = two_factor.code_step(two_factor.secret_open(account.totp_secret), code, after=account.totp_last_step)
        if step is not None:
            account.totp_last_step, account.last_login_at = step, timezone.now()
            account.save(update_fields=["totp_last_step", "last_login_at"])
            session.session_revoke(pending, why="code_confirmed")
            row, key = session.session_start(account=account, step=session.CODE, ip=ip, user_agent=user_agent)
            action_record(operator=account, action="signed_in", ip=ip, detail={"session": row.pk})
            session.sessions_purge()
            return row, key
    action_record(operator=account, action="code_refused", ip=ip)
    raise ConsoleRefused(CODE_WRONG)


def operator_sign_out(*, current: OperatorSession, ip: str) -> None:
    """End the browser's session (either step): its cookie, replayed, opens nothing. Audited when it
    was still usable."""
    usable = not session.refusal(current, step=current.step)
    if session.session_revoke(current, why="signed_out") and usable:
        action_record(operator=current.operator, action="signed_out", ip=ip,
                      detail={"session": current.pk, "step": current.step})


@transaction.atomic
def operator_sign_out_everywhere(*, operator: OperatorAccount, ip: str) -> int:
    """End every session of the operator, this browser's too. Audited with how many ended."""
    ended = session.sessions_revoke_all(operator, why="signed_out_everywhere")
    action_record(operator=operator, action="signed_out_everywhere", ip=ip, detail={"sessions": ended})
    return ended


def operator_password_change(*, current: OperatorSession, password: str, new_password: str, repeat: str,
                             ip: str) -> OperatorSession:
    """A new password, given the current one: every other session of the account ends (whatever
    the session version says, the sessions are bound to the password), this one goes on, bound to
    the new password. Audited with how many ended."""
    account = current.operator
    _throttle(email=account.email, ip=ip)
    if not check_password(password or "", account.password):
        action_record(operator=account, action="password_change_refused", ip=ip)
        raise ConsoleRefused("The current password is wrong")
    if len(new_password or "") < PASSWORD_MIN:
        raise ConsoleRefused(f"The new password has at least {PASSWORD_MIN} characters")
    if new_password != repeat:
        raise ConsoleRefused("The new password and its repetition differ")
    with transaction.atomic():
        account = OperatorAccount.objects.select_for_update().get(pk=account.pk)
        account.password = make_password(new_password)
        account.save(update_fields=["password"])
        ended = session.sessions_revoke_all(account, why="password_changed", keep=current)
        OperatorSession.objects.filter(pk=current.pk).update(binding=session.binding_of(account))
        action_record(operator=account, action="password_changed", ip=ip, detail={"sessionsEnded": ended})
    current.refresh_from_db()
    return current


# --- companies ----------------------------------------------------------------------------------------
def _locked(client: Client) -> Client:
    return Client.objects.select_for_update().get(pk=client.pk)


FEATURE_CHOICES = ("plan", "on", "off")  # the plan's value, or switched for this company


def _limit_value(name: str, raw: str):
    """A limit field of the form: empty (the plan's value: None), 'unlimited' or a whole number in
    the limit's range (apps.plans.rules.limit_value_check, the one rule of a limit's value)."""
    raw = (raw or "").strip().lower()
    if raw == "":
        return None  # the plan's value
    if raw in ("none", "unlimited"):
        return "unlimited"
    if not re.fullmatch(r"-?[0-9]+", raw):
        raise ConsoleRefused(f"A limit is a whole number, 'unlimited' or empty: {raw[:40]!r} ({name})")
    value = int(raw) if len(raw) <= 30 else (-1 if raw.startswith("-") else 10 ** 30)  # the range says why
    try:
        return rules.limit_value_check(name, value)
    except ValueError as exc:
        raise ConsoleRefused(str(exc)) from exc


@transaction.atomic
def company_plan_set(*, operator, client: Client, plan: str, limits: dict[str, str], trial_ends_at: datetime | None,
                     ip: str, features: dict[str, str] | None = None) -> Client:
    """The plan, the limits over it (empty: the plan's; 'unlimited': none), its feature switches
    (FEATURE_CHOICES: the plan's, on, off) and the trial's end. Takes effect on the company's next
    request (a trial that ended is restored at once; a feature switched off refuses its requests
    and stops its webhook deliveries, apps.plans.rules.feature_check)."""
    if plan not in settings.SUBSCRIPTION_PLANS:
        raise ConsoleRefused(f"Unknown plan {plan!r}")
    overrides = {}
    for name in rules.LIMITS:
        value = _limit_value(name, limits.get(name, ""))
        if value is not None:
            overrides[name] = None if value == "unlimited" else value
    switched = {}
    for name, raw in (features or {}).items():
        if name not in rules.FEATURES or raw not in FEATURE_CHOICES:
            raise ConsoleRefused(f"A feature switch is one of {', '.join(FEATURE_CHOICES)}: {name}={raw!r}")
        if raw != "plan":
            switched[name] = raw == "on"
    if switched:
        overrides["features"] = switched
    locked = _locked(client)
    before = {"plan": locked.subscription_plan, "overrides": locked.plan_overrides,
              "trialEndsAt": locked.trial_ends_at.isoformat() if locked.trial_ends_at else None}
    locked.subscription_plan, locked.plan_overrides = plan, overrides
    if trial_ends_at is not None:
        locked.trial_ends_at = trial_ends_at
    locked.save(update_fields=["subscription_plan", "plan_overrides", "trial_ends_at"])
    action_record(operator=operator, action="plan_changed", company=locked.subdomain, ip=ip, detail={
        "before": before, "after": {"plan": plan, "overrides": overrides,
                                    "trialEndsAt": locked.trial_ends_at.isoformat() if locked.trial_ends_at else None}})
    return locked


@transaction.atomic
def company_suspend(*, operator, client: Client, ip: str) -> Client:
    client = client_set_status(client=_locked(client), status=Client.Status.SUSPENDED)
    action_record(operator=operator, action="suspended", company=client.subdomain, ip=ip)
    return client


@transaction.atomic
def company_reactivate(*, operator, client: Client, ip: str) -> Client:
    client = client_set_status(client=_locked(client), status=Client.Status.ACTIVE)
    action_record(operator=operator, action="reactivated", company=client.subdomain, ip=ip)
    return client


@transaction.atomic
def company_verification_resend(*, operator, client: Client, ip: str) -> None:
    if client.email_verified:
        raise ConsoleRefused("The company's email is verified already")
    verification.verification_send(client=client)
    action_record(operator=operator, action="verification_resent", company=client.subdomain, ip=ip)


@transaction.atomic
def company_keys_rotate(*, operator, client: Client, ip: str) -> Client:
    client = client_rotate_keys(client=_locked(client), content=True, preview=True)
    action_record(operator=operator, action="keys_rotated", company=client.subdomain, ip=ip)
    return client


BACKUP_TASK = "operator.backup_run"  # lifecycle.operator.tasks.backup_run
BACKUP_LEASE_SECONDS = 3600  # a backup not finished by then is started again (its worker died)


def backup_key(client: Client, backup_id: int) -> str:
    """Private storage (never served by the media view): `{schema}/portability/backups/...`."""
    return f"{client.schema_name}/portability/backups/{backup_id}.tar.gz"


@transaction.atomic
def company_backup_start(*, operator, client: Client, ip: str) -> OperatorBackup:
    """Queue a backup of the company (made by the worker: lifecycle.operator.tasks.backup_run, the
    function `manage.py tenant_backup` calls). The task is written to the outbox in this
    transaction: a broker that is down delays it, it is not lost."""
    made = OperatorBackup.objects.create(client_id=client.pk, company=client.subdomain, operator=operator,
                                         file_name=f"{client.subdomain}-{timezone.now():%Y%m%d-%H%M%S}.tar.gz")
    outbox_add(task=BACKUP_TASK, args=[made.pk], key=f"operator-backup:{made.pk}", schema_name=client.schema_name,
               lease=BACKUP_LEASE_SECONDS)
    action_record(operator=operator, action="backup_started", company=client.subdomain, ip=ip,
                  detail={"backup": made.pk, "file": made.file_name})
    return made


def backup_run(*, backup_id: int) -> OperatorBackup | None:
    """Make the backup (the worker). Idempotent: a backup done or failed is left as it is; one
    another run is making is left to it (outbox.Busy), unless that run started more than the lease ago."""
    stale = timezone.now() - timedelta(seconds=BACKUP_LEASE_SECONDS)
    claimed = OperatorBackup.objects.filter(pk=backup_id).filter(
        Q(status=OperatorBackup.Status.QUEUED) | Q(status=OperatorBackup.Status.RUNNING, started_at__lt=stale)
    ).update(status=OperatorBackup.Status.RUNNING, started_at=timezone.now())
    if not claimed:
        if OperatorBackup.objects.filter(pk=backup_id, status=OperatorBackup.Status.RUNNING).exists():
            raise Busy(backup_id)  # another run is making it: the outbox row stays until it is done
        return None
    made = OperatorBackup.objects.get(pk=backup_id)
    client = Client.objects.filter(pk=made.client_id).first()
    if client is None:
        OperatorBackup.objects.filter(pk=backup_id).update(status=OperatorBackup.Status.FAILED,
                                                           error="The company was deleted", finished_at=timezone.now())
        return None
    try:
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / made.file_name
            backup.tenant_backup(client=client, path=path)
            with path.open("rb") as handle:
                key = private_storage().save(backup_key(client, made.pk), File(handle))
            size = path.stat().st_size
    except Exception as exc:
        logger.exception("backup %s of %s failed", made.pk, client.subdomain)
        OperatorBackup.objects.filter(pk=backup_id).update(status=OperatorBackup.Status.FAILED,
                                                           error=str(exc)[:500], finished_at=timezone.now())
        return OperatorBackup.objects.get(pk=backup_id)
    OperatorBackup.objects.filter(pk=backup_id).update(status=OperatorBackup.Status.DONE, file_key=key, size=size,
                                                       finished_at=timezone.now())
    return OperatorBackup.objects.get(pk=backup_id)


def company_backups(client: Client):
    return OperatorBackup.objects.filter(client_id=client.pk)


def backup_open(*, operator, client: Client, backup_id: str, ip: str):
    """The file of a finished backup of this company (None: no such backup here), audited."""
    made = company_backups(client).filter(pk=int(backup_id) if str(backup_id).isdigit() else 0,
                                          status=OperatorBackup.Status.DONE).first()
    if made is None:
        return None, None
    action_record(operator=operator, action="backup_downloaded", company=client.subdomain, ip=ip,
                  detail={"backup": made.pk, "file": made.file_name})
    return made, private_storage().open(made.file_key, "rb")


# --- support: signing in as a user, with the company admin's consent (apps.accounts.support) ---------------
def company_support_users(client: Client) -> tuple[object | None, list]:
    """The company's open support grant (None: "Sign in as" is not offered) and its active users."""
    with schema_context(client.schema_name):
        grant = support.support_grant_active()
        users = list(User.objects.filter(status=User.Status.ACTIVE).order_by("username")[:100]) if grant else []
    return grant, users


def company_support_sign_in(*, operator: OperatorAccount, client: Client, user_id: str, ip: str) -> str:
    """Start a support session as the user (refused without the admin's open grant): the dashboard
    address, on the company's host, with the one-time link token. Audited on both sides."""
    with schema_context(client.schema_name):
        try:
            session, link = support.support_session_start(operator_email=operator.email, user_id=user_id)
        except ApplicationError as refused:
            action_record(operator=operator, action="support_refused", company=client.subdomain, ip=ip,
                          detail={"user": str(user_id)[:64], "reason": refused.message})
            raise ConsoleRefused(refused.message) from refused
        username = session.user.username
    action_record(operator=operator, action="support_started", company=client.subdomain, ip=ip,
                  detail={"user": username, "session": str(session.pk), "endsAt": session.ends_at.isoformat()})
    return f"{tenant_base_url(client.subdomain)}/support-session#token={link}"


def support_ended_record(*, session, company: str, why: str) -> OperatorAction:
    """The operator audit log's end of a support session (ended by support, or the grant revoked)."""
    account = OperatorAccount.objects.filter(email=session.operator_email).first()
    return action_record(operator=account, email=session.operator_email, action="support_ended", company=company,
                         detail={"user": session.user.username, "session": str(session.pk), "why": why})


def company_delete(*, operator, client: Client, typed: str, ip: str) -> None:
    """Delete for good (as `manage.py tenant_delete`), once the subdomain is typed."""
    if (typed or "").strip() != client.subdomain:
        raise ConsoleRefused("Type the company's subdomain to delete it. Nothing was deleted.")
    subdomain, name = client.subdomain, client.name
    summary = deletion.client_delete(client=client)
    action_record(operator=operator, action="deleted", company=subdomain, ip=ip,
                  detail={"name": name, "schema": summary.get("schema")})
