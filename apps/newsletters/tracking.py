"""Opens and clicks of a send's email (docs/newsletters.md#opens-and-clicks), when the company counts
them (NewsletterSettings, off by default; an admin turns them on).

When a send starts (apps.newsletters.delivery.send_prepare calls `send_tracking_prepare` with the
rendered email), the send records what it tracks (`Send.track_opens`, `Send.track_clicks`: a send
started with tracking off never counts, whatever the setting says later) and, for a tracked email:

- clicks: every http(s) link of the HTML part (the post's and the template's; not the preferences
  and unsubscribe links, not mailto:) leads to `/email/click/<send>/<n>/<token>` on the company
  host; each distinct address gets a number `n`, written with it in the send's links (SendLink).
  The redirect reads its target there, never from the request: it is no open redirect.
- opens: a 1x1 image, `/email/open/<send>/<token>`, at the end of the HTML body.

`<token>` is the rendering's tracking marker (Markers.tracking), which the senders replace with each
member's signed token (apps.members.tokens.tracking_token). The plain-text part is left as it is.
The endpoints are apps.newsletters.tracking_views.
"""
from __future__ import annotations

import dataclasses
import html as html_lib
import re

from apps.newsletters import rendering
from apps.newsletters.models import Send, SendLink
from apps.newsletters.selectors import newsletter_settings_get
from tenants.addresses import tenant_base_url

OPEN_PATH = "/email/open/{send}/{token}"
CLICK_PATH = "/email/click/{send}/{index}/{token}"

_ANCHOR = re.compile(r"<a\b(?:\"[^\"]*\"|'[^']*'|[^>\"'])*>", re.IGNORECASE)
_HREF = re.compile(r"(\shref\s*=\s*)(\"([^\"]*)\"|'([^']*)')", re.IGNORECASE)
_BODY_END = re.compile(r"</body\s*>", re.IGNORECASE)


def open_url(base_url: str, send_id, token: str) -> str:
    return base_url.rstrip("/") + OPEN_PATH.format(send=_hex(send_id), token=token)


def click_url(base_url: str, send_id, index: int, token: str) -> str:
    return base_url.rstrip("/") + CLICK_PATH.format(send=_hex(send_id), index=index, token=token)


def _hex(send_id) -> str:
    return str(send_id).replace("-", "")


def _tracked(url: str, markers: rendering.Markers) -> bool:
    if markers.preferences in url or markers.unsubscribe in url:
        return False  # the member's own links: never counted, never rewritten
    return url.lower().startswith(("http://", "https://"))


def rewrite_links(html: str, *, base_url: str, send_id, markers: rendering.Markers) -> tuple[str, list[str]]:
    """`html` with each http(s) link of its anchors leading to the click address, and the
    addresses in the order of their numbers (1, 2, ...): one number per distinct address."""
    numbers: dict[str, int] = {}

    def href(match: re.Match) -> str:
        raw = match.group(3) if match.group(3) is not None else match.group(4)
        url = html_lib.unescape(raw).strip()
        if not _tracked(url, markers):
            return match.group(0)
        index = numbers.setdefault(url, len(numbers) + 1)
        return f'{match.group(1)}"{click_url(base_url, send_id, index, markers.tracking)}"'

    html = _ANCHOR.sub(lambda tag: _HREF.sub(href, tag.group(0), count=1), html)
    return html, list(numbers)


def add_pixel(html: str, *, base_url: str, send_id, markers: rendering.Markers) -> str:
    """`html` with the 1x1 open image at the end of its body."""
    pixel = (f'<img src="{open_url(base_url, send_id, markers.tracking)}" width="1" height="1" alt="" '
             'style="display: block; width: 1px; height: 1px; border: 0; margin: 0; padding: 0;">')
    ends = list(_BODY_END.finditer(html))
    if not ends:
        return html + pixel
    at = ends[-1].start()
    return html[:at] + pixel + html[at:]


def send_tracking_prepare(*, send: Send, client, rendered: rendering.Rendered) -> rendering.Rendered:
    """Called once when a send starts, in its transaction: records on the send what it tracks (the
    company's settings now) and returns its email with the pixel and click links when tracked (and
    the send's links written)."""
    settings_row = newsletter_settings_get()
    send.track_opens, send.track_clicks = settings_row.track_opens, settings_row.track_clicks
    Send.objects.filter(pk=send.pk).update(track_opens=send.track_opens, track_clicks=send.track_clicks)
    if not (send.track_opens or send.track_clicks):
        return rendered
    markers, base_url, html = rendering.Markers.of(send.pk), tenant_base_url(client.subdomain), rendered.html
    if send.track_clicks:
        html, urls = rewrite_links(html, base_url=base_url, send_id=send.pk, markers=markers)
        SendLink.objects.filter(send=send).delete()  # a send is prepared once; this keeps it so if asked twice
        SendLink.objects.bulk_create([SendLink(send=send, index=n, url=url) for n, url in enumerate(urls, 1)])
    if send.track_opens:
        html = add_pixel(html, base_url=base_url, send_id=send.pk, markers=markers)
    # The rewritten addresses are longer: lines are broken again where a mail app shows the same.
    return dataclasses.replace(rendered, html=rendering.wrap_html(html))
