"""The operator console's pages (server-rendered; docs/operator-console.md). Every page but the two
sign-in steps needs an operator who gave the password and an authenticator code; every form is
CSRF-protected; every change goes through lifecycle.operator.services (audited)."""
from __future__ import annotations

from datetime import datetime
from functools import wraps

from django.conf import settings
from django.core.paginator import Paginator
from django.http import FileResponse, Http404, HttpResponseRedirect
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_protect
from django.views.decorators.http import require_http_methods, require_POST

from apps.core.ratelimit import client_ip
from lifecycle.operator import selectors, services, session
from lifecycle.operator.services import ConsoleRefused, SessionEnded
from apps.plans import rules
from tenants.models import Client

LIMIT_NAMES = {"staff_seats": "Staff accounts", "posts": "Posts", "media_bytes": "Media storage (bytes)",
               "webhook_endpoints": "Webhook endpoints", "public_api_rpm": "Public API requests per window",
               "ai_jobs_per_day": "AI jobs per day", "members": "Members",
               "emails_per_month": "Newsletter emails per month"}


# No script at all; the page's own styles; forms post to the console only.
CONSOLE_POLICY = ("default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; "
                  "frame-ancestors 'none'; base-uri 'none'")


def operator_required(view):
    """A signed-in operator (password and code, a session open on the server), or the sign-in page.
    Every console page is CSRF-protected (its forms carry the token of the CSRF cookie this sets)."""
    @wraps(view)
    @never_cache
    @csrf_protect
    def wrapped(request, *args, **kwargs):
        request.operator_session = session.session_get(request, step=session.CODE)
        if request.operator_session is None:
            return HttpResponseRedirect("/operator/login")
        request.operator = request.operator_session.operator
        return view(request, *args, **kwargs)

    return wrapped


def _agent(request) -> str:
    return request.META.get("HTTP_USER_AGENT", "")[:200]


def _page(request, template: str, context: dict, status: int = 200):
    response = render(request, f"operator/{template}", {"operator": getattr(request, "operator", None), **context},
                      status=status)
    response["X-Robots-Tag"] = "noindex"
    response["Content-Security-Policy"] = CONSOLE_POLICY
    return response


# --- signing in ---------------------------------------------------------------------------------------
@never_cache
@csrf_protect
@require_http_methods(["GET", "POST"])
def sign_in(request):
    error = ""
    if request.method == "POST":
        try:
            row, key = services.operator_sign_in(
                email=request.POST.get("email", ""), password=request.POST.get("password", ""),
                ip=client_ip(request), user_agent=_agent(request), replaces=session.session_of(request))
        except ConsoleRefused as refused:
            error = refused.message
        else:
            response = HttpResponseRedirect("/operator/code")
            session.cookie_set(response, row, key)
            return response
    return _page(request, "sign_in.html", {"error": error, "email": request.POST.get("email", "")},
                 status=400 if error else 200)


@never_cache
@csrf_protect
@require_http_methods(["GET", "POST"])
def code(request):
    pending = session.session_get(request, step=session.PASSWORD)
    if pending is None:
        signed_in = session.session_get(request, step=session.CODE) is not None
        return HttpResponseRedirect("/operator/" if signed_in else "/operator/login")
    error = ""
    if request.method == "POST":
        try:
            row, key = services.operator_confirm_code(pending=pending, code=request.POST.get("code", ""),
                                                      ip=client_ip(request), user_agent=_agent(request))
        except SessionEnded:
            response = HttpResponseRedirect("/operator/login")
            session.cookie_clear(response)
            return response
        except ConsoleRefused as refused:
            error = refused.message
        else:
            response = HttpResponseRedirect("/operator/")
            session.cookie_set(response, row, key)
            return response
    return _page(request, "code.html", {"error": error}, status=400 if error else 200)


@csrf_protect
@require_POST
def sign_out(request):
    """End the browser's session on the server (either step), then its cookie."""
    current = session.session_of(request)
    if current is not None:
        services.operator_sign_out(current=current, ip=client_ip(request))
    response = HttpResponseRedirect("/operator/login")
    session.cookie_clear(response)
    return response


@operator_required
@require_http_methods(["GET", "POST"])
def account(request):
    """The operator's own account: the open sessions, a new password (every other session ends),
    sign out everywhere."""
    error, done = "", ""
    if request.method == "POST":
        if request.POST.get("action") == "sign-out-everywhere":
            services.operator_sign_out_everywhere(operator=request.operator, ip=client_ip(request))
            response = HttpResponseRedirect("/operator/login")
            session.cookie_clear(response)
            return response
        try:
            request.operator_session = services.operator_password_change(
                current=request.operator_session, password=request.POST.get("password", ""),
                new_password=request.POST.get("new_password", ""), repeat=request.POST.get("repeat", ""),
                ip=client_ip(request))
        except ConsoleRefused as refused:
            error = refused.message
        else:
            done = "Password changed. Every other session of your account has ended."
    return _page(request, "account.html", {
        "error": error, "done": done, "current": request.operator_session,
        "sessions": session.sessions_open(request.operator), "idle_seconds": settings.OPERATOR_SESSION_IDLE_SECONDS},
        status=400 if error else 200)


# --- companies ----------------------------------------------------------------------------------------
@operator_required
def company_list(request):
    search, status, plan = (request.GET.get(name, "").strip()[:100] for name in ("q", "status", "plan"))
    page = Paginator(selectors.companies(search=search, status=status, plan=plan), 50).get_page(request.GET.get("page"))
    return _page(request, "companies.html", {
        "page": page, "q": search, "status": status, "plan": plan, "statuses": Client.Status.choices,
        "plans": settings.SUBSCRIPTION_PLANS})


def _company(subdomain: str) -> Client:
    client = Client.objects.exclude(schema_name="public").filter(subdomain=subdomain).first()
    if client is None:
        raise Http404("No such company")
    return client


def _bars(days: list[dict]) -> list[dict]:
    highest = max([1, *(day["api_requests"] for day in days)])
    width = 100 / max(1, len(days))
    return [{"x": round(n * width + width * 0.1, 2), "w": round(width * 0.8, 2),
             "h": round(day["api_requests"] / highest * 38, 2), "y": round(40 - day["api_requests"] / highest * 38, 2),
             "day": day["day"], "value": day["api_requests"]} for n, day in enumerate(days)]


@operator_required
def company_detail(request, subdomain: str, *, error: str = "", status: int = 200):
    client = _company(subdomain)
    grant, users = services.company_support_users(client)
    days = selectors.company_usage(client)
    limits = rules.plan_values(client.subscription_plan)  # the plan's own values, beside the overrides
    overrides = client.plan_overrides or {}
    return _page(request, "company.html", {
        "client": client, "days": days, "bars": _bars(days), "usage": [{"label": LIMIT_NAMES[row.what], "what": row.what, "used": row.used, "allowed": row.allowed}
                  for row in selectors.company_limits(client)],
        "status_of": rules.subscription_status(client), "plans": settings.SUBSCRIPTION_PLANS,
        "limits": [{"name": name, "label": LIMIT_NAMES[name], "value": limits[name],
                    "override": "" if name not in overrides else ("unlimited" if overrides[name] is None
                                                                   else overrides[name])}
                   for name in rules.LIMITS],
        "features": _features(client), "limit_max": f"{rules.LIMIT_MAX:,}",
        "limit_max_bytes": f"{rules.LIMIT_MAX_BYTES:,} ({rules.human_bytes(rules.LIMIT_MAX_BYTES)})",
        "backups": services.company_backups(client)[:10], "actions": selectors.actions(company=client.subdomain)[:20],
        "support_grant": grant, "support_users": users,
        "error": error, "requests_total": sum(day["api_requests"] for day in days)}, status=status)


def _features(client: Client) -> list[dict]:
    """Each feature switch: the plan's value, the company's override ("plan", "on", "off") and the result."""
    plan = rules.plan_values(client.subscription_plan)["features"]
    switched = (client.plan_overrides or {}).get("features") or {}
    return [{"name": name, "label": label, "plan": bool(plan.get(name, True)),
             "choice": "plan" if name not in switched else ("on" if switched[name] else "off"),
             "enabled": rules.feature_enabled(client, name)}
            for name, (label, _way_out) in rules.FEATURES.items()]


def _trial_end(raw: str) -> datetime | None:
    raw = (raw or "").strip()
    if not raw:
        return None
    try:
        return datetime.fromisoformat(raw).replace(tzinfo=timezone.get_fixed_timezone(0))
    except ValueError as exc:
        raise ConsoleRefused("The trial's end is a date (YYYY-MM-DD)") from exc


ACTIONS = {
    "suspend": lambda request, client: services.company_suspend(operator=request.operator, client=client,
                                                                ip=client_ip(request)),
    "reactivate": lambda request, client: services.company_reactivate(operator=request.operator, client=client,
                                                                      ip=client_ip(request)),
    "resend-verification": lambda request, client: services.company_verification_resend(
        operator=request.operator, client=client, ip=client_ip(request)),
    "rotate-keys": lambda request, client: services.company_keys_rotate(operator=request.operator, client=client,
                                                                        ip=client_ip(request)),
    "backup": lambda request, client: services.company_backup_start(operator=request.operator, client=client,
                                                                    ip=client_ip(request)),
    "plan": lambda request, client: services.company_plan_set(
        operator=request.operator, client=client, plan=request.POST.get("plan", ""),
        limits={name: request.POST.get(f"limit_{name}", "") for name in rules.LIMITS},
        trial_ends_at=_trial_end(request.POST.get("trial_ends_at", "")), ip=client_ip(request),
        features={name: request.POST.get(f"feature_{name}", "plan") for name in rules.FEATURES}),
}


@operator_required
@csrf_protect
@require_POST
def company_action(request, subdomain: str, action: str):
    client = _company(subdomain)
    if action == "delete":
        try:
            services.company_delete(operator=request.operator, client=client, typed=request.POST.get("confirm", ""),
                                    ip=client_ip(request))
        except ConsoleRefused as refused:
            return company_detail(request, subdomain, error=refused.message, status=400)
        return HttpResponseRedirect("/operator/")
    if action not in ACTIONS:
        raise Http404("No such action")
    try:
        ACTIONS[action](request, client)
    except ConsoleRefused as refused:
        return company_detail(request, subdomain, error=refused.message, status=400)
    return HttpResponseRedirect(f"/operator/companies/{client.subdomain}")


@operator_required
@csrf_protect
@require_POST
def support_sign_in(request, subdomain: str, user_id: str):
    """Sign in as a user (only under the company admin's open grant): a page with the one-time link
    that opens the company's dashboard (a link, not a redirect: the console's forms post to itself)."""
    client = _company(subdomain)
    try:
        address = services.company_support_sign_in(operator=request.operator, client=client, user_id=user_id,
                                                    ip=client_ip(request))
    except ConsoleRefused as refused:
        return company_detail(request, subdomain, error=refused.message, status=403)
    return _page(request, "support.html", {"client": client, "address": address,
                                           "link_seconds": settings.SUPPORT_LINK_SECONDS})


@operator_required
def backup_download(request, subdomain: str, backup_id: str):
    client = _company(subdomain)
    made, handle = services.backup_open(operator=request.operator, client=client, backup_id=backup_id,
                                        ip=client_ip(request))
    if made is None:
        raise Http404("No such backup")
    return FileResponse(handle, as_attachment=True, filename=made.file_name)


@operator_required
def audit(request):
    page = Paginator(selectors.actions(company=request.GET.get("company", "").strip()[:63]), 50) \
        .get_page(request.GET.get("page"))
    return _page(request, "audit.html", {"page": page, "company": request.GET.get("company", "")})
