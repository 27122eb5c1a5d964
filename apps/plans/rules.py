"""What a company's plan allows, decided in one place (docs/plans-and-usage.md).

A plan (settings.PLANS, by name) sets limits: `staff_seats`, `posts`, `media_bytes`,
`webhook_endpoints`, `members` (counted), `emails_per_month` (newsletter emails in a calendar month,
UTC: spent by each send before it starts, from a counter of the month), `public_api_rpm`
(PUBLIC_API_RATE_LIMITS) and `ai_jobs_per_day` (AI_DAILY_QUOTA); an operator may override any of
them for one company (Client.plan_overrides).

- `plan_allows(company, what, amount=1)`: would `amount` more fit? (a read: the dashboard's hint,
  an invitation before its acceptance takes the seat).
- `plan_spend(what, amount=1)`: the check of every limited write, inside its transaction, before
  the row is written: one conditional UPDATE of the company's counter row (apps.plans.company.
  CompanyCounter, in its own schema) that adds `amount` only while the total stays within the limit. The row lock makes
  two writes racing for the last seat queue: the second sees the first's total and is refused
  (403 `plan_limit`, with the limit, the use and the plan's value). No COUNT(*) per write: a
  counter is counted once, the first time it is needed, and checked again by the daily usage task.
- `plan_release(what, amount=1)`: a delete gives back what it took.
- A trial that has ended (`trial_expired`) refuses every spend with 403 `plan_expired`.
- `feature_check(name)`: a feature switch of the plan (FEATURES: `ai_writing`, `webhooks`; an
  operator may switch one per company) that is off refuses the request with 403 `plan_feature`,
  naming the feature. `feature_enabled(company, name)` is the read (the dashboard's switches, the
  webhook deliveries that stop being sent).
"""
from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from datetime import timezone as dt_timezone

import redis
from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone
from django.utils.module_loading import import_string
from django_tenants.utils import quote_schema_name

from apps.core import redis_conn
from apps.core.errors import ErrorCode, PermissionDenied
from tenants.models import Client

logger = logging.getLogger(__name__)

# The counted limits: what each counts (a function of the company's schema, called once per company
# and whenever the usage task checks the counters), and how people name it.
COUNTED = {
    "staff_seats": ("apps.plans.counting.staff_seats", "staff account", "staff accounts"),
    "posts": ("apps.plans.counting.posts", "post", "posts"),
    "media_bytes": ("apps.plans.counting.media_bytes", "", "of media"),
    "webhook_endpoints": ("apps.plans.counting.webhook_endpoints", "webhook endpoint", "webhook endpoints"),
    "members": ("apps.plans.counting.members", "member", "members"),
}
# Limits of a calendar month (UTC): a counter per month (its row's resource is "<name>:<YYYY-MM>"),
# starting at 0; nothing to count.
MONTHLY = {
    "emails_per_month": ("newsletter email", "newsletter emails"),
}
RATES = ("public_api_rpm", "ai_jobs_per_day")
LIMITS = (*COUNTED, *MONTHLY, *RATES)
WAY_OUT = {
    "staff_seats": "Remove an account you no longer need, or ask us for a larger plan.",
    "posts": "Delete posts you no longer need, or ask us for a larger plan.",
    "media_bytes": "Delete media you no longer need, or ask us for a larger plan.",
    "webhook_endpoints": "Delete an endpoint you no longer need, or ask us for a larger plan.",
    "members": "Delete members you no longer need, or ask us for a larger plan.",
    "emails_per_month": "The count starts again on the first day of next month (UTC), or ask us for a larger plan.",
}
# The feature switches: how people name each, and the way out of a refusal.
FEATURES = {
    "ai_writing": ("AI writing", "Ask us for a plan that includes it."),
    "webhooks": ("Webhooks", "Your endpoints and their deliveries are kept; nothing is sent until your plan "
                             "includes webhooks again. Ask us for a plan that includes them."),
}
TRIAL = "trial"
TRIAL_ENDED = ("Your trial has ended: the dashboard is read-only until your plan is changed. "
               "Nothing has been deleted.")


class PlanLimitReached(PermissionDenied):
    def __init__(self, *, company, what: str, used: int, allowed: int):
        plan = company.subscription_plan
        super().__init__(f"{describe(what, allowed, plan=plan)} {WAY_OUT.get(what, '')}".strip(),
                         detail=ErrorCode.PLAN_LIMIT,
                         extra={"limit": what, "used": int(used), "allowed": int(allowed), "plan": plan})


class PlanFeatureOff(PermissionDenied):
    def __init__(self, *, company, feature: str):
        label, way_out = FEATURES[feature]
        super().__init__(f"Your plan does not include {label}. {way_out}", detail=ErrorCode.PLAN_FEATURE,
                         extra={"feature": feature, "plan": company.subscription_plan})


class PlanExpired(PermissionDenied):
    def __init__(self, *, company):
        super().__init__(TRIAL_ENDED, detail=ErrorCode.PLAN_EXPIRED, extra={"plan": company.subscription_plan})


def human_bytes(value: int) -> str:
    size = float(value)
    for unit in ("bytes", "KB", "MB", "GB", "TB"):
        if size < 1024 or unit == "TB":
            return f"{int(size)} {unit}" if unit == "bytes" or size == int(size) else f"{size:.1f} {unit}"
        size /= 1024
    return f"{value} bytes"  # pragma: no cover


def describe(what: str, allowed: int, *, plan: str) -> str:
    """"Your plan allows 3 staff accounts." (the dashboard shows the envelope's message)."""
    if what == "media_bytes":
        return f"Your plan allows {human_bytes(allowed)} of media."
    if what in MONTHLY:
        one, many = MONTHLY[what]
        return f"Your plan allows {allowed} {one if allowed == 1 else many} a month."
    _path, one, many = COUNTED[what]
    return f"Your plan allows {allowed} {one if allowed == 1 else many}."


# --- the plan's values -----------------------------------------------------------------------------
def plan_values(plan: str) -> dict:
    """Every limit of a plan (None: none), its features; an unknown plan gets the trial's."""
    base = settings.PLANS.get(plan) or settings.PLANS[TRIAL]
    values = {name: base.get(name) for name in (*COUNTED, *MONTHLY)}
    values["public_api_rpm"] = settings.PUBLIC_API_RATE_LIMITS.get(plan, settings.PUBLIC_API_RATE_LIMIT)
    values["ai_jobs_per_day"] = settings.AI_DAILY_QUOTA.get(plan, settings.AI_DAILY_QUOTA_DEFAULT)
    values["features"] = dict(base.get("features") or {})
    return values


# The range of a limit's value (an operator's override; the console refuses anything else): a whole
# number from LIMIT_MIN to LIMIT_MAX (media_bytes: to LIMIT_MAX_BYTES), or None, no limit. A rate
# always has a number: no limit on a rate is LIMIT_MAX. Every value fits the counters' 64 bits.
LIMIT_MAX = 1_000_000_000
LIMIT_MAX_BYTES = 1024 ** 5  # 1 PB of media
LIMIT_MIN = {"public_api_rpm": 1}  # 0 would shut the public API: suspending the company does that


def limit_range(what: str) -> tuple[int, int]:
    """The lowest and highest value a limit may be set to."""
    if what not in LIMITS:
        raise KeyError(f"Unknown plan limit {what!r}")
    return LIMIT_MIN.get(what, 0), LIMIT_MAX_BYTES if what == "media_bytes" else LIMIT_MAX


def limit_value_check(what: str, value: int | None) -> int | None:
    """The value an override of `what` may take, or ValueError saying the range (the rule the
    console's form applies). None is no limit."""
    if value is None:
        return None
    low, high = limit_range(what)
    if type(value) is not int or not low <= value <= high:
        raise ValueError(f"A limit of {what} is a whole number from {low} to {high:,}, or 'unlimited'")
    return value


def _limit_read(what: str, stored, plan_value):
    """A stored override as the rules read it, whatever was written to the row: a number above the
    maximum is no limit (what such a number means; a rate gets the maximum), and a value that is
    not a whole number in range (negative, text, a fraction) is ignored: the plan's value holds.
    Never a number that does not fit the counters."""
    low, high = limit_range(what)
    if stored is None:
        value = None
    elif type(stored) is int and stored > high:
        value = None
    elif type(stored) is int and stored >= low:
        value = stored
    else:
        logger.warning("ignoring the out-of-range %s override %r", what, stored)
        value = plan_value
    if value is None and what in RATES:
        return high
    return value


def limits_of(company) -> dict:
    """The company's limits: its plan's, with the operator's overrides (read by _limit_read)."""
    values = plan_values(company.subscription_plan)
    overrides = company.plan_overrides or {}
    if isinstance(overrides, str):  # a row read without the ORM's converters (tenants.middleware)
        overrides = json.loads(overrides or "{}")
    if not isinstance(overrides, dict):
        overrides = {}
    for name in LIMITS:
        if name in overrides:
            values[name] = _limit_read(name, overrides[name], values[name])
    if isinstance(overrides.get("features"), dict):
        values["features"].update(overrides["features"])
    return values


def plan_limit(company, what: str) -> int | None:
    if what not in LIMITS:
        raise KeyError(f"Unknown plan limit {what!r}")
    return limits_of(company)[what]


def feature_enabled(company, name: str) -> bool:
    """Is the feature switch on for the company (its plan's value, or the operator's override)?
    A company of None (the public schema: an operator's command) is not limited."""
    if name not in FEATURES:
        raise KeyError(f"Unknown plan feature {name!r}")
    if company is None:
        return True
    return bool(limits_of(company)["features"].get(name, True))


def features_of(company) -> dict[str, bool]:
    """Every feature switch of the company (the dashboard hides what is off)."""
    return {name: feature_enabled(company, name) for name in FEATURES}


def feature_check(name: str, *, company=None) -> None:
    """Refuse (403 `plan_feature`) a request for a feature the company's plan does not include
    (the company of the connection's schema unless given)."""
    company = company or current_company()
    if not feature_enabled(company, name):
        raise PlanFeatureOff(company=company, feature=name)


# --- the trial -------------------------------------------------------------------------------------
def trial_expired(company) -> bool:
    """The trial has ended and no plan was chosen: the dashboard is read-only (nothing is deleted).
    The rule is the company's (tenants.models.Client.trial_expired)."""
    return company.trial_expired


def subscription_status(company) -> str:
    """suspended, expired (the trial ended), trialing or active."""
    if company.is_suspended:
        return "suspended"
    if company.subscription_plan == TRIAL:
        return "expired" if company.trial_expired else "trialing"
    return "active"


SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
# What a company whose trial ended may still do in the dashboard: sign in and out, its own password
# and two-factor sign-in (apps.accounts' /api/auth routes).
STILL_WRITABLE = ("/api/auth/",)


def dashboard_write_gate(request) -> None:
    """Every dashboard call (apps.accounts.auth): a write of a company whose trial ended is refused
    with 403 `plan_expired`; reads go on."""
    company = getattr(request, "tenant", None)
    if (company is not None and request.method not in SAFE_METHODS and company.trial_expired
            and not request.path_info.startswith(STILL_WRITABLE)):
        raise PlanExpired(company=company)


# --- counters --------------------------------------------------------------------------------------
def current_company():
    """The company of the connection's schema (a request, a task in tenant_context), None on the
    public schema (an operator's command there is not limited)."""
    tenant = getattr(connection, "tenant", None)
    schema = connection.schema_name
    if not schema or schema == "public" or schema == settings.TENANT_TEMPLATE_SCHEMA:
        return None
    if isinstance(tenant, Client) and tenant.pk and tenant.schema_name == schema:
        return tenant
    return Client.objects.filter(schema_name=schema).first()


def count_now(what: str) -> int:
    """The resource counted in the connection's company schema (COUNT/SUM: not on every write); a
    month's counter starts at 0."""
    if what in MONTHLY:
        return 0
    return int(import_string(COUNTED[what][0])() or 0)


def counter_resource(what: str, now=None) -> str:
    """The counter row's resource: the limit's name, or "<name>:<YYYY-MM>" for a monthly one (the
    current UTC month)."""
    if what not in MONTHLY:
        return what
    return f"{what}:{(now or timezone.now()).astimezone(dt_timezone.utc):%Y-%m}"


# The company's counters are rows of its own schema (apps.plans.company.CompanyCounter): the check
# of a write is written where the write is (on Citus, the company's worker node: the write commits on
# one node). The public schema's copy (apps.plans.models.PlanCounter), which the operator's console
# and the usage fold read for every company at once, is brought up to date in batches: a write marks
# its company in Redis after its commit, `counters_mirror` (the usage fold, every USAGE_FOLD_SECONDS)
# copies the marked companies' counters, and the daily recount copies every company's.
_COUNTERS = "plans_companycounter"  # in the connection's company schema
_SPEND = f"""UPDATE {_COUNTERS} SET used = used + %(amount)s, counted_at = now()
WHERE resource = %(what)s
  AND (%(limit)s::bigint IS NULL OR %(amount)s <= 0 OR used + %(amount)s <= %(limit)s::bigint)
RETURNING used"""


def _ensure_counter(company, what: str) -> None:
    resource = counter_resource(what)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT 1 FROM {_COUNTERS} WHERE resource = %s", [resource])
        if cursor.fetchone():
            return
        counted = count_now(what)
        cursor.execute(f"INSERT INTO {_COUNTERS} (resource, used, counted_at) VALUES (%s, %s, now()) "
                       "ON CONFLICT (resource) DO NOTHING", [resource, counted])


def _used(company, what: str) -> int:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT used FROM {_COUNTERS} WHERE resource = %s", [counter_resource(what)])
        row = cursor.fetchone()
    return int(row[0]) if row else 0


def _changed(company) -> None:
    """After the write commits: the company's counters are to be copied to the public schema."""
    schema = company.schema_name

    def mark() -> None:
        try:
            redis_conn.client().sadd(_mirror_key(), schema)
        except redis.RedisError as exc:  # the daily recount copies every company's counters anyway
            redis_conn.failed(exc, "plan counters copied at the next daily recount")

    transaction.on_commit(mark, robust=True)


def _mirror_key() -> str:
    return f"{redis_conn.prefix()}:plans:counters-changed"


def counter_mirror(company) -> None:
    """Copy one company's counters (its schema) to the public schema's PlanCounter rows: two
    statements, one on each side."""
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT resource, used FROM {quote_schema_name(company.schema_name)}.{_COUNTERS}")
        rows = cursor.fetchall()
        if rows:
            # Constants only (no now() in DO UPDATE: Citus refuses a function that is not immutable
            # there, the public copy being one of its tables).
            now = timezone.now()
            cursor.execute(
                "INSERT INTO plans_plancounter (client_id, resource, used, counted_at) VALUES "
                + ", ".join(["(%s, %s, %s, %s)"] * len(rows))
                + " ON CONFLICT (client_id, resource) DO UPDATE SET used = EXCLUDED.used, counted_at = EXCLUDED.counted_at",
                [value for resource, used in rows for value in (company.pk, resource, used, now)])


def counters_mirror(*, batch: int = 1000) -> int:
    """Copy the counters of the companies whose counters changed since the last run (marked in
    Redis after each write); returns how many companies. Beat: the usage fold."""
    try:
        schemas = [name.decode() for name in redis_conn.client().spop(_mirror_key(), batch) or ()]
    except redis.RedisError as exc:
        redis_conn.failed(exc, "plan counters not copied this time")
        return 0
    for company in Client.objects.filter(schema_name__in=schemas):
        try:
            counter_mirror(company)
        except Exception:  # noqa: BLE001 - one company's schema must not stop the others
            logger.exception("plan counters of %s not copied", company.schema_name)
    return len(schemas)


@dataclass(frozen=True)
class Usage:
    what: str
    used: int
    allowed: int | None


def plan_usage(company) -> list[Usage]:
    """Each counted limit: what the company uses and what its plan allows (in the company's schema:
    a counter not counted yet is counted now)."""
    limits = limits_of(company)
    for what in COUNTED:
        _ensure_counter(company, what)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT resource, used FROM {_COUNTERS}")
        used = dict(cursor.fetchall())
    return [Usage(what, int(used.get(counter_resource(what), 0)), limits[what]) for what in (*COUNTED, *MONTHLY)]


def plan_allows(company, what: str, amount: int = 1) -> bool:
    """Would `amount` more of `what` fit in the company's plan? A read (nothing is taken)."""
    if company is None:
        return True
    if trial_expired(company):
        return False
    allowed = plan_limit(company, what)
    if allowed is None or amount <= 0:
        return True
    _ensure_counter(company, what)
    return _used(company, what) + amount <= allowed


def plan_check(what: str, amount: int = 1, *, company=None) -> None:
    """Raise the refusal `plan_allows` would give (an invitation, before its acceptance spends)."""
    company = company or current_company()
    if company is None:
        return
    if trial_expired(company):
        raise PlanExpired(company=company)
    if not plan_allows(company, what, amount):
        raise PlanLimitReached(company=company, what=what, used=_used(company, what),
                               allowed=plan_limit(company, what))


def plan_spend(what: str, amount: int = 1, *, company=None) -> None:
    """Take `amount` of `what` for the company of the connection's schema, or refuse (403). Call it
    inside the write's transaction, before the write: a refusal leaves nothing written, and the
    counter's row (in the company's schema) stays locked until the write commits."""
    company = company or current_company()
    if company is None:
        return
    if trial_expired(company):
        raise PlanExpired(company=company)
    allowed = plan_limit(company, what)
    params = {"amount": int(amount), "what": counter_resource(what), "limit": allowed}
    with connection.cursor() as cursor:
        cursor.execute(_SPEND, params)  # the usual case: one statement
        if cursor.fetchone() is not None:
            _changed(company)
            return
        cursor.execute(f"SELECT used FROM {_COUNTERS} WHERE resource = %s", [params["what"]])
        found = cursor.fetchone()
        if found is None:  # never counted: count once, then spend
            _ensure_counter(company, what)
            cursor.execute(_SPEND, params)
            if cursor.fetchone() is not None:
                _changed(company)
                return
            found = (_used(company, what),)
    if allowed is None:
        # No limit to hold: never a refusal (a counter row another write was creating at this very
        # moment is not there for this statement; the daily recount puts the figure right).
        return
    raise PlanLimitReached(company=company, what=what, used=int(found[0]), allowed=allowed)


def plan_release(what: str, amount: int = 1, *, company=None) -> None:
    """Give back what a delete freed (a counter not counted yet is counted when first needed)."""
    company = company or current_company()
    if company is None or amount <= 0:
        return
    with connection.cursor() as cursor:
        cursor.execute(f"UPDATE {_COUNTERS} SET used = GREATEST(used - %s, 0), counted_at = now() "
                       "WHERE resource = %s", [int(amount), counter_resource(what)])
    _changed(company)


def plan_recount(company, what: str) -> int:
    """Count again (the daily usage task), in the company's schema: the counter row is locked
    first, so a write that spends meanwhile waits, and the count sees every write that committed
    before; the public copy is written too. Returns the count."""
    _ensure_counter(company, what)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT used FROM {_COUNTERS} WHERE resource = %s FOR UPDATE", [what])
        counted = count_now(what)
        cursor.execute(f"UPDATE {_COUNTERS} SET used = %s, counted_at = now() WHERE resource = %s", [counted, what])
    counter_mirror(company)
    return counted
