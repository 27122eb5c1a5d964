"""The members' pages on the company's host (docs/members.md#links-and-tokens), small server-rendered
HTML in the company's default language (English for anything else):

GET  /members/confirm?token=...       open a sign-up's confirmation link (double opt-in)
GET  /members/preferences?token=...   the member's newsletters, with checkboxes
POST /members/preferences?token=...   save them (`newsletters`: the ids ticked), or `unsubscribe=all`
GET  /members/unsubscribe?token=...   the preferences page, offering to unsubscribe
POST /members/unsubscribe?token=...   RFC 8058 one-click unsubscribe (what mail apps post for
                                      List-Unsubscribe-Post): off that email's newsletter, or all

A link that is forged, expired or another company's gets a 400 page; a member gone since, 404.
The token is the only credential: it is in the address, never in a cookie, so a form posted from
another site cannot act for a reader.
"""
from __future__ import annotations

from django.http import HttpResponse
from django.template.loader import render_to_string
from django.views.decorators.http import require_http_methods

from apps.core.errors import NotFound
from apps.core.ratelimit import client_ip
from apps.core.selectors import as_uuid
from apps.members import i18n, signup, tokens
from apps.newsletters.selectors import newsletter_list
from apps.newsletters.services import newsletter_first_ensure
from apps.site.selectors import site_view

PAGE_POLICY = ("default-src 'none'; style-src 'unsafe-inline'; img-src https: http: data:; form-action 'self'; "
               "frame-ancestors 'none'; base-uri 'none'")


def _page(request, *, status: int = 200, title_key: str, body: str = "", words: dict, language: str,
          form: dict | None = None, message: str = "") -> HttpResponse:
    view = site_view(request.tenant)
    html = render_to_string("members/page.html", {
        "language": language, "site_title": view.title, "logo": view.images.get("logo"),
        "accent": view.row.accent_color or "#2563eb", "title": words[title_key], "body": body, "words": words,
        "form": form, "message": message, "website": request.tenant.website_url})
    response = HttpResponse(html, status=status, content_type="text/html; charset=utf-8")
    response["Content-Security-Policy"] = PAGE_POLICY
    response["Cache-Control"] = "private, no-store"
    response["Referrer-Policy"] = "no-referrer"  # the token is in the address
    response["X-Robots-Tag"] = "noindex"
    return response


def _words(request) -> tuple[str, dict]:
    return i18n.words(getattr(request.tenant, "default_language", "en"))


def _invalid(request, words, language, status: int = 400) -> HttpResponse:
    key = "gone" if status == 404 else "invalid"
    return _page(request, status=status, title_key=f"{key}_title", body=words[f"{key}_body"], words=words,
                 language=language)


@require_http_methods(["GET", "HEAD"])
def confirm(request):
    language, words = _words(request)
    try:
        done = signup.subscribe_confirm(token=request.GET.get("token", ""), ip=client_ip(request))
    except tokens.LinkInvalid:
        return _invalid(request, words, language)
    if done.full:
        return _page(request, status=503, title_key="invalid_title", body="", words=words, language=language,
                     message="This site cannot take new subscribers right now. Please try again later.")
    if done.already:
        return _page(request, title_key="already_title", body=words["already_body"], words=words, language=language)
    return _page(request, title_key="confirmed_title", body=words["confirmed_body"].format(email=done.member.email),
                 words=words, language=language,
                 form={"manage": f"/members/preferences?token={tokens.preferences_token(done.member.pk)}"})


def _preferences_form(member, token: str, words: dict) -> dict:
    newsletter_first_ensure()
    subscribed = {n.pk for n in member.newsletters.all()}
    newsletters = [{"id": str(n.pk), "name": n.name, "description": n.description, "checked": n.pk in subscribed}
                   for n in newsletter_list(include_archived=False)]
    # Subscribed to none of them (after a mail app's one-click unsubscribe, say): the page says so.
    none = bool(newsletters) and not any(n["checked"] for n in newsletters)
    return {"token": token, "action": f"/members/preferences?token={token}", "newsletters": newsletters,
            "disabled": member.email_disabled,
            "subscribed_none": words["subscribed_none"].format(email=member.email) if none else ""}


@require_http_methods(["GET", "HEAD", "POST"])
def preferences(request):
    language, words = _words(request)
    token = request.GET.get("token", "")
    try:
        member, _newsletter = signup.preferences_member(token)
    except tokens.LinkInvalid:
        return _invalid(request, words, language)
    except NotFound:
        return _invalid(request, words, language, status=404)
    message = ""
    if request.method == "POST":
        if request.POST.get("unsubscribe") == "all":
            signup.unsubscribe(member=member)
            return _page(request, title_key="unsubscribed_title", words=words, language=language,
                         body=words["unsubscribed_body"].format(email=member.email),
                         form={"manage": f"/members/preferences?token={token}"})
        signup.preferences_save(member=member, newsletter_ids=[value for value in request.POST.getlist("newsletters")
                                                               if as_uuid(value)][:100])
        member, _newsletter = signup.preferences_member(token)
        message = words["saved"]
    return _page(request, title_key="preferences_title", words=words, language=language, message=message,
                 body=words["preferences_intro"].format(email=member.email),
                 form=_preferences_form(member, token, words))


@require_http_methods(["GET", "HEAD", "POST"])
def unsubscribe(request):
    """GET: the preferences page (a mail app's link); POST: one click, no questions (RFC 8058)."""
    if request.method != "POST":
        return preferences(request)
    language, words = _words(request)
    try:
        member, newsletter = signup.preferences_member(request.GET.get("token", ""))
    except tokens.LinkInvalid:
        return _invalid(request, words, language)
    except NotFound:
        return _invalid(request, words, language, status=404)
    signup.unsubscribe(member=member, newsletter=newsletter)
    return _page(request, title_key="unsubscribed_title", words=words, language=language,
                 body=words["unsubscribed_body"].format(email=member.email))
