"""The open pixel and the click redirect of newsletter emails, on the company host
(docs/newsletters.md#opens-and-clicks; the addresses are made by apps.newsletters.tracking):

GET /email/open/<send>/<token>           a 1x1 transparent GIF, always; counts the member's open
GET /email/click/<send>/<n>/<token>      302 to link n of the send's email (read from its links);
                                         counts the member's click; 404 for a link the send has not

The company is the host's (django-tenants); the token (apps.members.tokens.tracking_token) names the
member and is signed for this company and this send: a forged token, or one of another send or
company, counts nothing, and a reader who followed a known link still reaches it. A send that did
not track a kind when it started counts nothing of it. HEAD requests (link checkers) count nothing.
One member's hits of one kind on one send count up to NEWSLETTER_TRACKING_RATE (a leaked or replayed
address cannot turn into a stream of writes); past it the reply is the same and nothing is counted.
No cookie is set; replies are not cached and send no referrer (the token is in the address).
"""
from __future__ import annotations

import base64

from django.conf import settings
from django.db import connection
from django.http import HttpResponse, HttpResponseNotFound, HttpResponseRedirect
from django.views.decorators.http import require_http_methods

from apps.core import ratelimit
from apps.core.selectors import as_uuid
from apps.members.tokens import tracking_member
from apps.newsletters.models import Engagement
from apps.newsletters.selectors import send_link_url
from apps.newsletters.services import engagement_record

PIXEL = base64.b64decode("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7")  # 1x1, transparent


def _private(response: HttpResponse) -> HttpResponse:
    response["Cache-Control"] = "private, no-store"
    response["Referrer-Policy"] = "no-referrer"
    response["X-Robots-Tag"] = "noindex"
    return response


def _count(request, send: str, token: str, kind: str, link: int = Engagement.ANY_LINK) -> None:
    if request.method != "GET":
        return
    send_id, member_id = as_uuid(send), tracking_member(token, send)
    if send_id is None or member_id is None:
        return
    if ratelimit.hit(ratelimit.parse_rate(settings.NEWSLETTER_TRACKING_RATE), "email-tracking",
                     connection.schema_name, send_id.hex, member_id, kind, counter=True):
        engagement_record(send_id=send_id, member_id=member_id, kind=kind, link=link)


@require_http_methods(["GET", "HEAD"])
def email_open(request, send: str, token: str):
    _count(request, send, token, Engagement.Kind.OPEN)  # the same image whatever the token
    return _private(HttpResponse(PIXEL, content_type="image/gif"))


@require_http_methods(["GET", "HEAD"])
def email_click(request, send: str, index: int, token: str):
    url = send_link_url(send, index)
    if url is None:
        return _private(HttpResponseNotFound("Not found", content_type="text/plain; charset=utf-8"))
    _count(request, send, token, Engagement.Kind.CLICK, index)
    return _private(HttpResponseRedirect(url))
