"""A company's languages (docs/translations.md): the one place that decides which language codes
a company writes in, which one is its default, and the order in which a reader asking for one
language is served another (the fallback chain).

- Codes are BCP 47 tags (`en`, `fr`, `pt-BR`, `zh-Hant-TW`) known to the Unicode CLDR, checked
  and written in their usual case by Babel (`pt-br` is stored as `pt-BR`).
- `languages` is ordered (the dashboard lists them so); the default is one of them. A company
  that never chose is `["en"]` with default `en`: all its posts are English and every reply is
  what it always was.
- The chain of a language: the language itself, the fallbacks the company set for it (in their
  order), its primary subtag when that is one of the company's languages (`pt-BR` -> `pt`), then
  the default. Only the company's languages are in a chain, each once.

Every app may read it (content, the public API, feeds, webhooks, media, the company settings); it
reads the company row (tenants.models.Client) through Django's app registry.
"""
from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from functools import lru_cache

from django.apps import apps as django_apps
from django.db import connection, transaction

from apps.core import events
from apps.core.content_version import content_version_bump

DEFAULT_LANGUAGE = "en"
MAX_LANGUAGES = 30
LANGUAGE_INVALID = "Language must be a BCP 47 language code such as en, fr or pt-BR"
LANGUAGES_EMPTY = "Choose at least one language"
LANGUAGES_TOO_MANY = f"A company can have at most {MAX_LANGUAGES} languages"
DEFAULT_NOT_LISTED = "The default language must be one of the company's languages"
FALLBACK_UNKNOWN = "Fallback languages must be languages of the company"
LANGUAGE_NOT_OFFERED = "This language is not one of the company's languages. Add it in Settings first."


def default_languages() -> list[str]:
    return [DEFAULT_LANGUAGE]


def normalize(code) -> str | None:
    """The code in its usual case (`pt-br` -> `pt-BR`) when CLDR knows it, else None (also for
    what is not a string: a list or an object sent in its place)."""
    return _normalize(code) if isinstance(code, str) else None


@lru_cache(maxsize=4096)
def _normalize(code: str) -> str | None:
    value = code.strip().replace("_", "-")
    if not value or len(value) > 35 or not value.isascii() or not all(p.isalnum() for p in value.split("-")):
        return None
    # Babel (and through it CLDR's data) is loaded by the first code checked, not by every web worker
    # as it starts: a content worker meets one only in a `locale` parameter.
    from babel import Locale, UnknownLocaleError

    try:
        locale = Locale.parse(value, sep="-")
    except (UnknownLocaleError, ValueError, TypeError):
        return None
    return "-".join(part for part in (locale.language, locale.script, locale.territory, locale.variant) if part)


def clean_code(value) -> str:
    code = normalize(value)
    if code is None:
        raise ValueError(LANGUAGE_INVALID)
    return code


def display_name(code: str) -> str:
    """The language's own name for itself (`français`, `português (Brasil)`)."""
    from babel import Locale  # loaded on first use, as in _normalize

    try:
        return Locale.parse(code, sep="-").get_display_name() or code
    except Exception:  # noqa: BLE001 - a name is decoration; the code is shown instead
        return code


def primary(code: str) -> str:
    """The primary language subtag (`pt` of `pt-BR`), lowercase."""
    return code.split("-", 1)[0].lower()


@dataclass(frozen=True)
class Languages:
    codes: tuple[str, ...] = (DEFAULT_LANGUAGE,)
    default: str = DEFAULT_LANGUAGE
    fallbacks: dict = field(default_factory=dict)  # code -> [codes], as the company set them

    @property
    def single(self) -> bool:
        """One language: every post is in it (the replies of a company that never chose)."""
        return len(self.codes) == 1

    def chain(self, code: str) -> tuple[str, ...]:
        """Where a reader asking for `code` is served from, best first (see the module's text)."""
        wanted = [code, *self.fallbacks.get(code, ()), primary(code), self.default]
        return tuple(dict.fromkeys(c for c in wanted if c in self.codes))

    def resolve(self, requested: str | None) -> str | None:
        """The company's language a `locale` parameter names (`pt-br` -> `pt-BR`; a code the company
        lacks -> its primary subtag when the company has it, e.g. `fr-CA` -> `fr`), else None."""
        code = normalize(requested)
        if code is None:
            return None
        if code in self.codes:
            return code
        return primary(code) if primary(code) in self.codes else None

    def as_json(self) -> dict:
        return {"languages": list(self.codes), "defaultLanguage": self.default,
                "fallbacks": {code: list(self.fallbacks.get(code, ())) for code in self.codes if self.fallbacks.get(code)},
                "chains": {code: list(self.chain(code)) for code in self.codes}}


def clean_languages(languages, default, fallbacks) -> Languages:
    """The checked setting, or ValueError with the message a form shows."""
    if not isinstance(languages, list) or not languages:
        raise ValueError(LANGUAGES_EMPTY)
    codes = tuple(dict.fromkeys(clean_code(code) for code in languages))
    if len(codes) > MAX_LANGUAGES:
        raise ValueError(LANGUAGES_TOO_MANY)
    default_code = normalize(default) if default is not None else codes[0]
    if default_code not in codes:
        raise ValueError(DEFAULT_NOT_LISTED)
    chains: dict[str, list[str]] = {}
    for code, chain in (fallbacks or {}).items():
        source = normalize(code)
        if source not in codes or not isinstance(chain, list):
            raise ValueError(FALLBACK_UNKNOWN)
        targets = [normalize(target) for target in chain]
        if any(target not in codes for target in targets):
            raise ValueError(FALLBACK_UNKNOWN)
        chains[source] = [target for target in dict.fromkeys(targets) if target != source]
    return Languages(codes=codes, default=default_code, fallbacks=chains)


def of_client(client) -> Languages:
    """The setting of a company (tenants.models.Client), as stored (checked when it was saved)."""
    if client is None:
        return Languages()
    codes = tuple(_json(getattr(client, "languages", None)) or (DEFAULT_LANGUAGE,))
    default = getattr(client, "default_language", None) or codes[0]
    return Languages(codes=codes, default=default, fallbacks=dict(_json(getattr(client, "language_fallbacks", None))
                                                                  or {}))


def _json(value):
    """A JSON field's value; as text when the row was read by a raw statement (tenants.middleware
    builds the company from its row without the fields' converters)."""
    return json.loads(value) if isinstance(value, str) else value


def current() -> Languages:
    """The setting of the company of this request or task: the connection's tenant (a request's
    company row), else the company of its schema (a task in `schema_context` has no row)."""
    tenant = getattr(connection, "tenant", None)
    if tenant is not None and hasattr(tenant, "language_fallbacks"):
        return of_client(tenant)
    schema = getattr(connection, "schema_name", None)
    if not schema or schema == "public":
        return Languages()
    return of_schema(schema)


# --- by schema (the public API's WSGI layer knows the schema, not the company row) -----------------
SCHEMA_TTL = 5.0  # seconds a worker keeps a company's setting when there is no content version
_by_schema: dict[tuple[str, str], tuple[float, Languages]] = {}
_lock = threading.Lock()


def of_schema(schema: str, version: str | None = None) -> Languages:
    """The setting of the company of `schema`, kept per worker. With the company's content version
    (the reply cache on) it is kept by (schema, version): a change of the setting bumps the
    version (lifecycle.client_api), so a kept answer is never stale. Without one (the cache off) it
    is kept SCHEMA_TTL seconds (and forgotten at once in the worker that changed it)."""
    now = time.monotonic()
    slot = (schema, version or "")
    found = _by_schema.get(slot)
    if found is not None and (version or now - found[0] < SCHEMA_TTL):
        return found[1]
    client = django_apps.get_model("tenants", "Client").objects.filter(schema_name=schema).only(
        "languages", "default_language", "language_fallbacks").first()
    chosen = of_client(client)
    with _lock:
        if len(_by_schema) >= 4096:
            _by_schema.clear()
        _by_schema[slot] = (now, chosen)
    return chosen


def forget(schema: str) -> None:
    """This worker's kept setting of `schema` (after a change of it)."""
    with _lock:
        for slot in [slot for slot in _by_schema if slot[0] == schema]:
            _by_schema.pop(slot, None)


# --- a change of the setting by a writer other than Settings (a blog import) ----------------------
def languages_add(*, codes: list[str], default: str | None = None, actor=None) -> Languages:
    """Add `codes` (checked codes) to the languages of the connection's company, and make `default`
    its default when given: the languages a blog import brings (apps.portability). The company's
    own choice stays otherwise (its order, its fallbacks). A company that never chose (`["en"]`
    with no posts) given a `default` writes in that language only. Checked as Settings checks it
    (clean_languages: ValueError past MAX_LANGUAGES); public replies depend on the setting, so the
    company's content version moves on when it changed. Called inside the caller's transaction."""
    client_model = django_apps.get_model("tenants", "Client")
    locked = client_model.objects.select_for_update().get(schema_name=connection.schema_name)
    before = of_client(locked)
    wanted = list(before.codes)
    if default is not None and wanted == [DEFAULT_LANGUAGE] and default != DEFAULT_LANGUAGE and not _has_posts():
        wanted = []  # never chosen, nothing written in it: the file's language replaces it
    chosen = clean_languages([*wanted, *(c for c in ([default] if default else []) + list(codes) if c not in wanted)],
                             default or (before.default if before.default in wanted else None),
                             {code: list(chain) for code, chain in before.fallbacks.items()
                              if code in wanted})
    if chosen == before:
        return before
    locked.languages, locked.default_language = list(chosen.codes), chosen.default
    locked.language_fallbacks = chosen.fallbacks
    locked.save(update_fields=["languages", "default_language", "language_fallbacks"])
    content_version_bump(locked.schema_name)
    transaction.on_commit(lambda: forget(locked.schema_name))
    forget(locked.schema_name)
    tenant = getattr(connection, "tenant", None)
    if tenant is not None and getattr(tenant, "pk", None) == locked.pk:
        tenant.languages, tenant.default_language = locked.languages, locked.default_language
        tenant.language_fallbacks = locked.language_fallbacks
    events.publish(events.CompanyChanged(client=locked, change="settings", actor=actor, summary="languages"))
    return chosen


def _has_posts() -> bool:
    return django_apps.get_model("content", "Post").objects.exists()
