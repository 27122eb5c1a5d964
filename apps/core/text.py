"""Rules for text: slugs, and the characters text may hold (docs/text-and-feeds.md).

XML 1.0 allows TAB, LF, CR and every character from U+0020 up, except the surrogates
(U+D800-U+DFFF) and U+FFFE/U+FFFF. Feeds, the sitemap and any export are XML, so text that holds
another character cannot be written into them. Two rules keep them whole:

- The input rule (`input_text`, applied to every string of every request body and form by
  apps.core.api and to every field read with apps.core.validation.text): U+0000 and unpaired
  surrogates are refused (400; PostgreSQL can store neither), U+000B and U+000C (the line and page
  breaks of word processors) become a space, and the other characters XML 1.0 forbids are removed.
- The output rule (`xml_text`, applied by every XML writer to every string it writes): the same
  replacements and removals, for rows written before the input rule or by other means.
"""
import re
import unicodedata
from urllib.parse import unquote

_NON_ALNUM = re.compile(r"[^a-z0-9]+")
_HYPHENS = re.compile(r"-{2,}")
_PERCENT = re.compile(r"%[0-9A-Fa-f]{2}")

NUL_MESSAGE = "Text must not contain NUL characters"
SURROGATE_MESSAGE = "Text must not contain unpaired surrogate characters (U+D800 to U+DFFF)"

# Anything XML 1.0 (fifth edition, production [2] Char) does not allow.
_NOT_XML = re.compile("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_BREAKS = re.compile("[\x0b\x0c]")
_SURROGATE = re.compile("[\ud800-\udfff]")


class TextRefused(ValueError):
    """Text that the input rule refuses (its message is the reply's)."""


def slugify(value: str, *, allow_unicode: bool = False) -> str:
    """The spec's slug rule: lowercase; runs of non-alphanumerics become one hyphen;
    leading and trailing hyphens are trimmed.

    `allow_unicode` (the slugs of posts, pages, categories and tags, docs/content.md#slugs): the
    alphanumerics are the letters and digits of every script, with their combining marks (the
    vowel signs of Devanagari, Hebrew points), in NFC; `Café` is `café`, `عربی زبان` is
    `عربی-زبان`. ASCII text gets the same slug either way. (Django's and python-slugify's
    `allow_unicode` keep `\w` only, which drops combining marks: `हिन्दी` would lose its vowel signs.)"""
    if not allow_unicode:
        return _NON_ALNUM.sub("-", (value or "").lower()).strip("-")
    text = unicodedata.normalize("NFC", (value or "").lower())
    kept = "".join(ch if ch.isascii() and ch.isalnum() or not ch.isascii() and unicodedata.category(ch)[0] in "LMN"
                   else "-" for ch in text)
    return _HYPHENS.sub("-", kept).strip("-")


def slug_lookup(value: str) -> str:
    """A slug as a reader asks for it, in the stored form: percent-encoded or not (an IRI,
    `%d8%b9%d8%b1...` or `عر...`), in any case and normalisation form."""
    value = (value or "").strip()
    if _PERCENT.search(value):
        try:
            value = unquote(value, encoding="utf-8", errors="strict")
        except UnicodeDecodeError:
            pass  # not UTF-8 percent-encoding: the value as given
    return unicodedata.normalize("NFC", value).lower()


def xml_text(value: str) -> str:
    """The output rule: `value` as XML 1.0 can hold it. U+000B and U+000C become a space; every
    other character XML 1.0 forbids (C0 controls but TAB, LF and CR; surrogates; U+FFFE, U+FFFF)
    is removed. Text that is already allowed is returned as it is."""
    if _NOT_XML.search(value) is None:
        return value
    return _NOT_XML.sub("", _BREAKS.sub(" ", value))


def input_text(value: str) -> str:
    """The input rule: TextRefused for U+0000 or an unpaired surrogate, else `value` through the
    output rule (what is stored can always be written into XML as it is)."""
    if _NOT_XML.search(value) is None:
        return value
    if "\x00" in value:
        raise TextRefused(NUL_MESSAGE)
    if _SURROGATE.search(value):
        raise TextRefused(SURROGATE_MESSAGE)
    return xml_text(value)


def input_data(data):
    """A decoded JSON document (or any nest of dicts and lists) with the input rule applied to
    every string in it, keys included."""
    if isinstance(data, str):
        return input_text(data)
    if isinstance(data, dict):
        return {input_text(key) if isinstance(key, str) else key: input_data(value) for key, value in data.items()}
    if isinstance(data, list):
        return [input_data(value) for value in data]
    return data


def xml_data(data):
    """`data` (a string, or a nest of dicts, lists and tuples holding strings and other values) with
    the output rule applied to every string in it."""
    if isinstance(data, str):
        return xml_text(data)
    if isinstance(data, dict):
        return {key: xml_data(value) for key, value in data.items()}
    if isinstance(data, list):
        return [xml_data(value) for value in data]
    if isinstance(data, tuple) and type(data) is tuple:
        return tuple(xml_data(value) for value in data)
    return data
