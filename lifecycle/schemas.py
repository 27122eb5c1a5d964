import re
from datetime import datetime
from typing import Annotated, Literal

from pydantic import BeforeValidator, PrivateAttr, field_validator, model_validator

from apps.core.languages import clean_languages
from apps.core.schemas import InSchema, OutSchema, SuccessOut, omitted
from apps.core.validation import Email, Password, Username, clean_min_length, text
# The website and post URL template rules are the site settings' (apps.site.rules), used here too.
from apps.site.rules import PostUrlTemplate, WebsiteUrl

_SUBDOMAIN = re.compile(r"^[a-z0-9-]+$")
SUBDOMAIN_MAX = 50


def clean_company_name(value) -> str:
    return clean_min_length(value, 2, "Company name must be at least 2 characters", maximum=200,
                            too_long="Company name must be at most 200 characters")


TIME_ZONE_INVALID = "Time zone must be an IANA time zone name, such as Europe/Paris or UTC"


def clean_time_zone(value) -> str | None:
    """An IANA zone name of the system's zone database (zoneinfo), as given; None when absent."""
    import zoneinfo

    if value is None:
        return None
    if not isinstance(value, str) or value.strip() not in zoneinfo.available_timezones():
        raise ValueError(TIME_ZONE_INVALID)
    return value.strip()


def clean_contact_name(value) -> str:
    return clean_min_length(value, 2, "Contact name is required", maximum=200,
                            too_long="Contact name must be at most 200 characters")


def clean_subdomain(value) -> str:
    value = text(value, "Subdomain must be at least 3 characters").strip()
    if len(value) < 3:
        raise ValueError("Subdomain must be at least 3 characters")
    if not _SUBDOMAIN.match(value):
        raise ValueError("Subdomain can only contain lowercase letters, numbers, and hyphens")
    if len(value) > SUBDOMAIN_MAX:
        raise ValueError(f"Subdomain must be at most {SUBDOMAIN_MAX} characters")
    if value.startswith("-") or value.endswith("-"):
        raise ValueError("Subdomain cannot start or end with a hyphen")
    return value


CompanyName = Annotated[str, BeforeValidator(clean_company_name)]
ContactName = Annotated[str, BeforeValidator(clean_contact_name)]
Subdomain = Annotated[str, BeforeValidator(clean_subdomain)]
TimeZone = Annotated[str | None, BeforeValidator(clean_time_zone)]


class RegisterClientIn(InSchema):
    companyName: CompanyName = ""
    contactName: ContactName = ""
    contactEmail: Email = ""
    subdomain: Subdomain = ""
    adminUsername: Username = ""
    adminEmail: Email = ""
    adminPassword: Password = ""


class RegisteredClientOut(OutSchema):
    subdomain: str
    loginUrl: str  # the company's dashboard sign-in page (absolute)


class RegisterClientOut(SuccessOut):
    """201 of POST auth/register-client (root domain)."""

    message: str
    data: RegisteredClientOut


# --- company settings (lifecycle/client_api.py) ------------------------------------------------------
class ClientInfoIn(InSchema):
    name: CompanyName = ""
    contactName: ContactName = ""
    contactEmail: Email = ""
    timeZone: TimeZone = None  # (+) kept when absent
    # (+) The company's website, for feed and sitemap links; left out: unchanged.
    websiteUrl: WebsiteUrl = None
    postUrlTemplate: PostUrlTemplate = None
    feedsEnabled: bool | None = None


class PlanFeaturesOut(OutSchema):
    """(+) The plan's feature switches for this company (apps.plans.rules.FEATURES): a screen of a
    feature that is off is shown disabled; its requests answer 403 `plan_feature`."""

    aiWriting: bool  # ai_writing
    webhooks: bool


class CompanyOut(OutSchema):
    uuid: str
    name: str
    contactName: str
    contactEmail: str
    subdomain: str
    status: Literal["active", "suspended", "trial"]
    subscriptionPlan: str
    subscriptionStatus: Literal["trialing", "expired", "active", "suspended"]
    trialEndsAt: datetime | None
    createdAt: datetime
    websiteUrl: str  # (+)
    postUrlTemplate: str  # (+)
    feedsEnabled: bool  # (+)
    timeZone: str  # (+) IANA name; the company's days in analytics
    features: PlanFeaturesOut  # (+)


class ApiAuthenticationOut(OutSchema):
    method: Literal["API Key"]
    header: Literal["x-api-key"]
    apiKey: str  # the content key: published posts only
    note: str
    previewKey: str = omitted(description="(+) Admins only: also reads drafts; keep it on a server")


class PostEndpointsOut(OutSchema):
    """Path templates under `baseUrl`."""

    list: str
    getBySlug: str
    getByCategory: str
    getByTag: str


class ApiEndpointsOut(OutSchema):
    posts: PostEndpointsOut
    categories: str  # (+)
    tags: str  # (+)
    trackPageView: str  # (+) POST


class ExampleRequestOut(OutSchema):
    url: str


class ExampleRequestsOut(OutSchema):
    getAllPosts: ExampleRequestOut
    getPostsByCategory: ExampleRequestOut
    getPostsByTag: ExampleRequestOut
    getPostBySlug: ExampleRequestOut


class RateLimitOut(OutSchema):
    requests: int  # per key and window, by the company's plan
    windowSeconds: int


class FeedLinksOut(OutSchema):
    """(+) Public, no key: RSS and Atom feeds, the sitemap (empty until websiteUrl is set)."""

    rss: str
    atom: str
    sitemap: str


class GhostContentApiOut(OutSchema):
    """(+) The Ghost-compatible Content API (docs/coming-from-ghost.md): what Ghost's client takes."""

    url: str  # the `url` of GhostContentAPI({url, key, version})
    contentApiKey: str  # 26 hex characters; published content only, sent as ?key=
    version: str  # the Accept-Version to send (v5.0)
    baseUrl: str  # where its routes live: {url}/ghost/api/content/


class ApiInfoOut(OutSchema):
    baseUrl: str
    authentication: ApiAuthenticationOut
    endpoints: ApiEndpointsOut
    exampleRequests: ExampleRequestsOut
    rateLimit: RateLimitOut  # (+)
    feeds: FeedLinksOut  # (+)
    ghost: GhostContentApiOut  # (+)


class ClientInfoDataOut(OutSchema):
    company: CompanyOut
    apiInfo: ApiInfoOut


class ClientInfoOut(SuccessOut):
    """GET and PUT client/info"""

    message: str
    data: ClientInfoDataOut


class ApiKeyOut(OutSchema):
    apiKey: str
    ghostContentKey: str  # (+) rotated with the content key


class ApiKeyRotatedOut(SuccessOut):
    message: str
    data: ApiKeyOut


class ClientDeleteIn(InSchema):
    """Deleting the company (admin): its subdomain typed again and the admin's password."""
    confirmSubdomain: str = ""
    password: str = ""

    @field_validator("confirmSubdomain", "password", mode="before")
    @classmethod
    def _text(cls, value):
        return text(value, "Must be text")


class VerificationOut(SuccessOut):
    """Whether the company's email is verified (the dashboard shows a banner until it is)."""

    verified: bool
    email: str
    sentAt: datetime | None


def _clean_token(value):
    if not isinstance(value, str) or not value.strip() or len(value) > 500:
        raise ValueError("This verification link is invalid or has expired.")
    return value.strip()


class VerifyEmailIn(InSchema):
    token: Annotated[str, BeforeValidator(_clean_token)] = ""


def _clean_flag(value):
    if not isinstance(value, bool):
        raise ValueError("Required must be true or false")
    return value


class TwoFactorPolicyIn(InSchema):
    required: Annotated[bool, BeforeValidator(_clean_flag)] = None  # type: ignore[assignment]


class TwoFactorPolicyOut(SuccessOut):
    message: str = omitted()
    required: bool  # the company requires two-factor sign-in of everyone
    usersWithoutTwoFactor: int  # active users who have not set it up


class FindCompaniesIn(InSchema):
    email: Email = ""


# --- the company's languages (tenants/languages.py, docs/translations.md) ----------------------------
class LanguagesIn(InSchema):
    _clean = PrivateAttr(default=None)
    languages: list = []
    defaultLanguage: str | None = None  # the first language when absent
    fallbacks: dict = {}  # {"pt-BR": ["pt"]}: where a reader asking for a language is served from next

    @model_validator(mode="after")
    def _check(self):
        self._clean = clean_languages(self.languages, self.defaultLanguage, self.fallbacks)
        return self

    @property
    def cleaned(self):
        return self._clean


class LanguageOut(OutSchema):
    code: str
    name: str  # the language's own name for itself (CLDR)
    searchConfig: str  # the PostgreSQL text search configuration its posts are indexed with
    chain: list[str]  # where a reader asking for it is served from, best first


class LanguagesOut(SuccessOut):
    message: str = omitted()
    languages: list[LanguageOut]
    defaultLanguage: str
    fallbacks: dict[str, list[str]]


# --- support access (apps.accounts.support, docs/operator-console.md) ----------------------------------
class SupportAccessIn(InSchema):
    hours: int  # 1 to SUPPORT_GRANT_MAX_HOURS


class SupportSessionOut(OutSchema):
    operator: str  # the operator's email
    username: str  # the user they signed in as
    startedAt: datetime
    endsAt: datetime
    endedAt: datetime | None


class SupportGrantOut(OutSchema):
    grantedBy: str
    createdAt: datetime
    expiresAt: datetime


class SupportAccessOut(SuccessOut):
    """(+) The company's support access: the open grant (null: none) and its sessions."""

    message: str = ""
    grant: SupportGrantOut | None
    sessions: list[SupportSessionOut]
    maxHours: int


class SupportExchangeIn(InSchema):
    token: str


class SupportSignedInOut(SuccessOut):
    """(+) A support session's token, for the dashboard opened from the operator console."""

    token: str
    expiresIn: int
    username: str
    operator: str
    endsAt: datetime
