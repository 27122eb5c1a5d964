"""Company settings on the dashboard API (docs/company-settings.md): GET/PUT client/info, POST client/api-key/rotate
(the content key and the Ghost content key together).

The company (tenants.models.Client) lives in the public schema; on a tenant host
`request.tenant` is that company (tenants.middleware), so nothing here takes a company id.
Everyone signed in reads the settings and the integration guide (the content key only reads
published posts and is meant for websites); only admins change them or rotate the key. A
rotation takes effect at once: the old key gets 401 on the next request (the public API checks
keys against the company row, and its fast path's host map is rewritten on commit).
"""
from __future__ import annotations

from django.conf import settings
from django.db import transaction
from ninja import Router

from apps.accounts import support
from apps.accounts.two_factor import two_factor_policy_set, users_without_two_factor
from apps.content import kinds
from apps.content.models import Category, Post, Tag, search_config
from apps.core.api import EXTRA_ERRORS
from apps.core import events
from apps.core import languages as company_languages
from apps.core.content_version import content_version_bump
from apps.core.errors import Conflict, ErrorCode
from apps.core.permissions import PUBLIC, SIGNED_IN, can, requires
from apps.core.ratelimit import client_ip
from apps.core.schemas import MessageOut
from apps.plans import rules as plan_rules
from apps.public_api.keys import limit_of
from apps.site import selectors as site_selectors
from apps.site import services as site_services
from apps.site.schemas import SiteSettingsIn, SiteSettingsReply
from lifecycle.deletion import CANNOT_DELETE, client_request_deletion
from lifecycle import verification
from tenants.models import Client
from lifecycle.schemas import (ApiKeyRotatedOut, ClientDeleteIn, ClientInfoIn, ClientInfoOut, LanguagesIn, LanguagesOut,
                               SupportAccessIn, SupportAccessOut, SupportExchangeIn, SupportSignedInOut,
                               TwoFactorPolicyIn, TwoFactorPolicyOut, VerificationOut, VerifyEmailIn)
from tenants.addresses import tenant_base_url
from lifecycle.operator.services import support_ended_record
from lifecycle.services import client_rotate_keys

# Operation ids name the module these routes were first written in (tenants.*): the OpenAPI
# documents and the clients generated from them keep them.
router = Router(tags=["company settings"])

GHOST_VERSION = "v5.0"  # the Ghost Content API version apps.ghost_api speaks

CANNOT_UPDATE = "Only administrators can update company settings"
CANNOT_ROTATE = "Only administrators can rotate the API key"
KEY_NOTE = (
    "Send this key in the x-api-key header of every request. It reads published posts only, so it "
    "may be used in web pages; reading drafts needs the preview key, which must stay on your server."
)


# --- services ------------------------------------------------------------------------------------
@transaction.atomic
def client_info_update(*, client: Client, name: str, contact_name: str, contact_email: str,
                       website_url: str | None = None, post_url_template: str | None = None,
                       feeds_enabled: bool | None = None, time_zone: str | None = None, actor=None) -> Client:
    """The optional fields left as None keep their value (`time_zone` is a name checked by
    lifecycle.schemas.clean_time_zone)."""
    changed = [field for field, value in (("name", name), ("contact_name", contact_name),
                                          ("contact_email", contact_email)) if getattr(client, field) != value]
    client.name, client.contact_name, client.contact_email = name, contact_name, contact_email
    fields = ["name", "contact_name", "contact_email"]
    for field, value in (("website_url", website_url), ("post_url_template", post_url_template),
                         ("feeds_enabled", feeds_enabled), ("time_zone", time_zone)):
        if value is not None:
            if getattr(client, field) != value:
                changed.append(field)
            setattr(client, field, value)
            fields.append(field)
    client.save(update_fields=fields)
    if changed:
        events.publish(events.CompanyChanged(client=client, change="settings", actor=actor, summary=", ".join(changed)))
    return client


@transaction.atomic
def client_api_key_rotate(*, client: Client, actor=None) -> Client:
    """A new content key; the old one stops working when this commits."""
    locked = Client.objects.select_for_update().get(pk=client.pk)
    client_rotate_keys(client=locked, content=True, actor=actor)
    client.api_key, client.ghost_content_key = locked.api_key, locked.ghost_content_key
    return client


LANGUAGE_IN_USE = "{language} still has posts. Move or delete them before removing the language."


@transaction.atomic
def client_languages_update(*, client: Client, chosen: company_languages.Languages, actor=None) -> Client:
    """The company's languages (checked by apps.core.languages.clean_languages). A language that
    still has posts is not removed (409 `language_in_use`). Public replies depend on the setting,
    so the company's content version moves on (its cached replies are left behind)."""
    locked = Client.objects.select_for_update().get(pk=client.pk)
    before = company_languages.of_client(locked)
    removed = [code for code in before.codes if code not in chosen.codes]
    in_use = Post.objects.filter(language__in=removed).values_list("language", flat=True).first() if removed else None
    if in_use is not None:
        raise Conflict(LANGUAGE_IN_USE.format(language=company_languages.display_name(in_use)),
                       errors=[{"field": "languages", "message": LANGUAGE_IN_USE.format(language=in_use)}],
                       detail=ErrorCode.LANGUAGE_IN_USE)
    locked.languages, locked.default_language = list(chosen.codes), chosen.default
    locked.language_fallbacks = chosen.fallbacks
    locked.save(update_fields=["languages", "default_language", "language_fallbacks"])
    client.languages, client.default_language = locked.languages, locked.default_language
    client.language_fallbacks = locked.language_fallbacks
    if before != company_languages.of_client(locked):
        content_version_bump(client.schema_name)
        transaction.on_commit(lambda: company_languages.forget(client.schema_name))
        events.publish(events.CompanyChanged(client=client, change="settings", actor=actor, summary="languages"))
    return client


def languages_out(client: Client, message: str | None = None) -> LanguagesOut:
    chosen = company_languages.of_client(client)
    return LanguagesOut(
        **({"message": message} if message else {}),
        languages=[{"code": code, "name": company_languages.display_name(code), "searchConfig": search_config(code),
                    "chain": list(chosen.chain(code))} for code in chosen.codes],
        defaultLanguage=chosen.default, fallbacks={code: list(chain) for code, chain in chosen.fallbacks.items()})


# --- output --------------------------------------------------------------------------------------
def subscription_status(client: Client) -> str:
    return plan_rules.subscription_status(client)


def _example_slugs() -> dict[str, str]:
    """Real slugs of this company for the example URLs (placeholders while it has none)."""
    return {
        "post": Post.objects.of_kind(kinds.POST).filter(status=Post.Status.PUBLISHED).order_by("-created_at")
        .values_list("slug", flat=True).first() or "your-post-slug",
        "category": Category.objects.order_by("name").values_list("slug", flat=True).first() or "your-category-slug",
        "tag": Tag.objects.order_by("name").values_list("slug", flat=True).first() or "your-tag-slug",
    }


def client_info_out(client: Client, *, user) -> dict:
    host = tenant_base_url(client.subdomain)
    base_url = host + "/api/v1"
    slugs = _example_slugs()
    features = plan_rules.features_of(client)
    authentication = {"method": "API Key", "header": "x-api-key", "apiKey": client.api_key, "note": KEY_NOTE}
    if can(user, "settings.manage"):
        authentication["previewKey"] = client.preview_key  # (+) admins only
    return {
        "company": {
            "uuid": str(client.uuid),
            "name": client.name,
            "contactName": client.contact_name,
            "contactEmail": client.contact_email,
            "subdomain": client.subdomain,
            "status": client.status,
            "subscriptionPlan": client.subscription_plan,
            "subscriptionStatus": subscription_status(client),
            "trialEndsAt": client.trial_ends_at,
            "createdAt": client.created_at,
            "websiteUrl": client.website_url,
            "postUrlTemplate": client.post_url_template,
            "feedsEnabled": client.feeds_enabled,
            "timeZone": client.time_zone,
            "features": {"aiWriting": features["ai_writing"],
                         "webhooks": features["webhooks"]},
        },
        "apiInfo": {
            "baseUrl": base_url,
            "authentication": authentication,
            "endpoints": {
                "posts": {
                    "list": "/posts",
                    "getBySlug": "/posts/slug/{slug}",
                    "getByCategory": "/posts/category/{slug}",
                    "getByTag": "/posts/tag/{slug}",
                },
                "categories": "/categories",  # (+)
                "tags": "/tags",  # (+)
                "trackPageView": "/analytics/track",  # (+) POST
            },
            "exampleRequests": {
                "getAllPosts": {"url": f"{base_url}/posts?page=1&limit=10"},
                "getPostsByCategory": {"url": f"{base_url}/posts/category/{slugs['category']}"},
                "getPostsByTag": {"url": f"{base_url}/posts/tag/{slugs['tag']}"},
                "getPostBySlug": {"url": f"{base_url}/posts/slug/{slugs['post']}"},
            },
            "rateLimit": {"requests": limit_of(client),  # (+)
                          "windowSeconds": settings.PUBLIC_API_RATE_WINDOW},
            "feeds": {"rss": f"{host}/feeds/rss.xml", "atom": f"{host}/feeds/atom.xml",  # (+)
                      "sitemap": f"{host}/sitemap.xml"},
            "ghost": {"url": host, "contentApiKey": client.ghost_content_key, "version": GHOST_VERSION,  # (+)
                      "baseUrl": f"{host}/ghost/api/content/"},
        },
    }


# --- routes --------------------------------------------------------------------------------------
@router.get("/info", response=ClientInfoOut, operation_id="tenants_client_api_get_client_info")
@requires(SIGNED_IN)
def get_client_info(request):
    return ClientInfoOut(message="Client information retrieved successfully",
                         data=client_info_out(request.tenant, user=request.auth))


@router.put("/info", response=ClientInfoOut, operation_id="tenants_client_api_update_client_info")
@requires("settings.manage", CANNOT_UPDATE)
def update_client_info(request, payload: ClientInfoIn):
    client = client_info_update(client=request.tenant, name=payload.name, contact_name=payload.contactName,
                                contact_email=payload.contactEmail, website_url=payload.websiteUrl,
                                post_url_template=payload.postUrlTemplate, feeds_enabled=payload.feedsEnabled,
                                time_zone=payload.timeZone, actor=request.auth)
    return ClientInfoOut(message="Client information updated successfully",
                         data=client_info_out(client, user=request.auth))


# --- the site around the posts (apps.site, docs/company-settings.md#site-settings) ------------------------
@router.get("/site", response=SiteSettingsReply)
@requires(SIGNED_IN)
def get_site_settings(request):
    """(+) The site settings: title, description, images, accent color, navigation, social accounts,
    website and post URL template (everyone signed in reads them)."""
    return SiteSettingsReply(site=site_selectors.dashboard_settings(request.tenant))


@router.put("/site", response=SiteSettingsReply)
@requires("settings.manage", CANNOT_UPDATE)
def update_site_settings(request, payload: SiteSettingsIn):
    """(+) Admins: change the site settings (a field left out is kept)."""
    site_services.site_settings_update(client=request.tenant, actor=request.auth, **payload.service_kwargs())
    return SiteSettingsReply(message="Site settings saved", site=site_selectors.dashboard_settings(request.tenant))


@router.post("/api-key/rotate", response=ApiKeyRotatedOut, operation_id="tenants_client_api_rotate_api_key")
@requires("settings.manage", CANNOT_ROTATE)
def rotate_api_key(request):
    client = client_api_key_rotate(client=request.tenant, actor=request.auth)
    return ApiKeyRotatedOut(message="API key rotated. The previous key no longer works.",
                            data={"apiKey": client.api_key, "ghostContentKey": client.ghost_content_key})


@router.post("/delete", response={202: MessageOut}, operation_id="tenants_client_api_delete_company")
@requires("company.delete", CANNOT_DELETE)
def delete_company(request, payload: ClientDeleteIn):
    """(+) An admin deletes the company: it stops answering at once, its data is removed on the queue."""
    client_request_deletion(client=request.tenant, actor=request.auth, confirm_subdomain=payload.confirmSubdomain,
                            password=payload.password)
    return 202, MessageOut(message="Your company is being deleted. Its data will be gone within minutes.")


# --- languages (apps.core.languages, docs/translations.md) ----------------------------------------------
@router.get("/languages", response=LanguagesOut)
@requires(SIGNED_IN)
def get_languages(request):
    """(+) The company's languages, its default and each language's fallback chain (everyone signed in)."""
    return languages_out(request.tenant)


@router.put("/languages", response=LanguagesOut)
@requires("settings.manage", CANNOT_UPDATE)
def update_languages(request, payload: LanguagesIn):
    """(+) Admins: the languages the company writes in (BCP 47), its default, per-language fallbacks."""
    client = client_languages_update(client=request.tenant, chosen=payload.cleaned, actor=request.auth)
    return languages_out(client, message="Languages saved")


# --- email verification (lifecycle.verification) -------------------------------------------------------
@router.get("/verification", response=VerificationOut, operation_id="tenants_client_api_get_verification")
@requires(SIGNED_IN)
def get_verification(request):
    client = request.tenant
    return VerificationOut(verified=client.email_verified, email=client.verification_email,
                           sentAt=client.verification_sent_at)


@router.post("/verification/resend", response=MessageOut, operation_id="tenants_client_api_resend_verification")
@requires("settings.manage", CANNOT_UPDATE)
def resend_verification(request):
    """Admins: send the verification email again (older links stop working; throttled)."""
    verification.verification_resend(client=request.tenant, ip=client_ip(request))
    return MessageOut(message=f"We sent a new verification link to {request.tenant.verification_email}.")


@router.post("/verify-email", auth=None, response=MessageOut, operation_id="tenants_client_api_verify_email")
@requires(PUBLIC)
def verify_email(request, payload: VerifyEmailIn):
    """The emailed link: opens the company's public content API (400 `link_invalid` otherwise)."""
    return MessageOut(message=verification.verification_confirm(client=request.tenant, token=payload.token))


# --- "require two-factor sign-in" (apps.accounts.two_factor) ------------------------------------------
@router.get("/two-factor-policy", response=TwoFactorPolicyOut, operation_id="tenants_client_api_get_two_factor_policy")
@requires("settings.manage", CANNOT_UPDATE)
def get_two_factor_policy(request):
    """Admins: whether the company requires two-factor sign-in, and how many active users are without it."""
    return TwoFactorPolicyOut(required=request.tenant.require_two_factor,
                              usersWithoutTwoFactor=users_without_two_factor())


@router.put("/two-factor-policy", response=TwoFactorPolicyOut,
             operation_id="tenants_client_api_update_two_factor_policy")
@requires("settings.manage", CANNOT_UPDATE)
def update_two_factor_policy(request, payload: TwoFactorPolicyIn):
    """Admins: require two-factor sign-in of everyone (users without it can then only set it up)."""
    client = two_factor_policy_set(client=request.tenant, required=payload.required, actor=request.auth)
    message = ("Two-factor sign-in is now required. Users without it must set it up before they continue."
               if client.require_two_factor else "Two-factor sign-in is no longer required.")
    return TwoFactorPolicyOut(message=message, required=client.require_two_factor,
                              usersWithoutTwoFactor=users_without_two_factor())


# --- support access (apps.accounts.support, docs/operator-console.md#signing-in-as-a-user) ----------------
CANNOT_GRANT = "Only administrators can grant support access"


def support_access_out(*, message: str = "") -> SupportAccessOut:
    grant = support.support_grant_active()
    return SupportAccessOut(
        message=message, maxHours=settings.SUPPORT_GRANT_MAX_HOURS,
        grant=None if grant is None else {"grantedBy": grant.granted_by_name, "createdAt": grant.created_at,
                                          "expiresAt": grant.expires_at},
        sessions=[{"operator": s.operator_email, "username": s.user.username, "startedAt": s.started_at,
                   "endsAt": s.ends_at, "endedAt": s.ended_at} for s in support.support_sessions(grant)])


@router.get("/support-access", response=SupportAccessOut)
@requires("settings.manage", CANNOT_GRANT)
def get_support_access(request):
    """(+) Admins: whether the platform's support may sign in as a user now, until when, and its sessions."""
    return support_access_out()


@router.post("/support-access", response=SupportAccessOut)
@requires("settings.manage", CANNOT_GRANT)
def grant_support_access(request, payload: SupportAccessIn):
    """(+) Admins: let support sign in as a user for `hours` (1 to 24); replaces an open grant."""
    support.support_grant_create(actor=request.auth, hours=payload.hours)
    return support_access_out(message="Support access granted")


@router.delete("/support-access", response=SupportAccessOut)
@requires("settings.manage", CANNOT_GRANT)
def revoke_support_access(request):
    """(+) Admins: revoke support access; every open support session ends at once."""
    with transaction.atomic():
        for session in support.support_grant_revoke(actor=request.auth):
            support_ended_record(session=session, company=request.tenant.subdomain, why="support access revoked")
    return support_access_out(message="Support access revoked")


@router.post("/support-access/exchange", auth=None, response=SupportSignedInOut,
             openapi_extra={EXTRA_ERRORS: [401]})  # the link is the credential
@requires(PUBLIC)
def exchange_support_link(request, payload: SupportExchangeIn):
    """(+) The dashboard opened from the operator console trades its one-time link (valid for two
    minutes) for a support session's token (401 `unauthorized` for a link used, expired or altered)."""
    token, expires_in, session = support.support_session_exchange(token=payload.token)
    return SupportSignedInOut(token=token, expiresIn=expires_in, username=session.user.username,
                              operator=session.operator_email, endsAt=session.ends_at)


@router.post("/support-access/end", response=MessageOut)
@requires(SIGNED_IN)
def end_support_session(request):
    """(+) A support session ends itself (the dashboard's banner); 403 for any other session."""
    with transaction.atomic():
        session = support.support_session_end(request=request)
        support_ended_record(session=session, company=request.tenant.subdomain, why="ended by support")
    return MessageOut(message="The support session has ended")
