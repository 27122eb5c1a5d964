import secrets
import uuid
from datetime import timedelta

from django.conf import settings
from django.db import models, transaction
from django.utils import timezone
from django_tenants.models import DomainMixin, TenantMixin


def new_content_key() -> str:
    return "cms_live_" + secrets.token_urlsafe(24)


def new_preview_key() -> str:
    return "cms_preview_" + secrets.token_urlsafe(24)


def new_ghost_content_key() -> str:
    """The key of the Ghost-compatible Content API (apps.ghost_api): 26 hexadecimal characters,
    the form Ghost's own client (`@tryghost/content-api`) insists on."""
    return secrets.token_hex(13)


class ClientQuerySet(models.QuerySet):
    def serving(self):
        """Companies whose APIs answer and whose periodic work runs."""
        return self.exclude(status__in=(Client.Status.SUSPENDED, Client.Status.DELETING))


class Client(TenantMixin):
    """A company. Lives in the public schema; its data lives in its own schema."""

    class Status(models.TextChoices):
        ACTIVE = "active", "Active"
        SUSPENDED = "suspended", "Suspended"
        TRIAL = "trial", "Trial"
        DELETING = "deleting", "Deleting"  # an admin asked to delete it: it answers like an unknown company

    uuid = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    name = models.CharField(max_length=200)
    contact_name = models.CharField(max_length=200)
    contact_email = models.EmailField(max_length=254)
    subdomain = models.CharField(max_length=63, unique=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.TRIAL)
    subscription_plan = models.CharField(max_length=32, default="trial")
    trial_ends_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    api_key = models.CharField(max_length=80, unique=True, default=new_content_key)
    preview_key = models.CharField(max_length=80, unique=True, default=new_preview_key)
    # Reads published content like api_key, on /ghost/api/content/ only (sent as ?key=).
    ghost_content_key = models.CharField(max_length=26, unique=True, default=new_ghost_content_key)
    # IANA zone name (lifecycle.schemas.clean_time_zone): the company's days (analytics) are its own.
    time_zone = models.CharField(max_length=64, default="UTC")
    # The company's website: feed and sitemap links point there (apps.feeds).
    website_url = models.URLField(max_length=500, blank=True, default="")
    post_url_template = models.CharField(max_length=500, blank=True, default="")  # e.g. https://acme.com/blog/{slug}
    feeds_enabled = models.BooleanField(default=True)
    # Email verification at sign-up (lifecycle.verification): the address the link went to, when it
    # was last sent (older links stop working), when it was confirmed. Until then the public
    # content API answers 403 and, after UNVERIFIED_COMPANY_DAYS, the company is deleted.
    verification_email = models.CharField(max_length=254, blank=True, default="")
    verification_sent_at = models.DateTimeField(null=True, blank=True)
    email_verified_at = models.DateTimeField(null=True, blank=True)
    # The digest of the migrations its schema records (lifecycle.provisioning), written when the
    # schema is made or migrated: migrate_schemas reads this column instead of visiting 10,000
    # schemas, and checks in the schema itself only those whose digest is not the code's.
    migrations_digest = models.CharField(max_length=64, blank=True, default="")
    # An admin's "require two-factor sign-in for everyone": users without it may only set it up
    # (apps.accounts.auth, checked on every dashboard call from the row the middleware loaded).
    require_two_factor = models.BooleanField(default=False)
    # The languages it writes in (apps.core.languages: BCP 47 codes, ordered; empty: English only), its
    # default, and the fallbacks it set per language ({"pt-BR": ["pt"]}); checked by
    # apps.core.languages.clean_languages.
    languages = models.JSONField(default=list)
    default_language = models.CharField(max_length=35, default="en")
    language_fallbacks = models.JSONField(default=dict)
    # An operator's limits for this company over its plan's (apps.plans.rules), e.g. {"posts": 5000}.
    plan_overrides = models.JSONField(default=dict, blank=True)

    objects = ClientQuerySet.as_manager()

    # Schemas are provisioned from the template (lifecycle.provisioning), never by migrating.
    auto_create_schema = False
    auto_drop_schema = True

    class Meta:
        ordering = ("created_at",)

    def __str__(self) -> str:
        return f"{self.name} ({self.subdomain})"

    @property
    def is_suspended(self) -> bool:
        return self.status == self.Status.SUSPENDED

    @property
    def is_deleting(self) -> bool:
        return self.status == self.Status.DELETING

    @property
    def may_syndicate(self) -> bool:
        """The one rule for "this company may syndicate": its published content may leave the
        product, through its public content API (tenants.middleware, and the host map of the API's
        fast path) and its feeds and sitemap (apps.feeds). It is serving, its email is verified and
        its trial has not lapsed."""
        return self.is_serving and self.email_verified and not self.trial_lapsed

    @property
    def trial_expired(self) -> bool:
        """The trial has ended and no plan was chosen: the dashboard is read-only (apps.plans.rules);
        nothing is deleted, and an operator's change of plan (or of the end) restores it at once."""
        return (self.subscription_plan == "trial" and self.trial_ends_at is not None
                and self.trial_ends_at <= timezone.now())

    @property
    def trial_lapsed(self) -> bool:
        """The trial ended more than TRIAL_PUBLIC_API_GRACE_DAYS ago: the public API answers 402."""
        return self.trial_expired and self.trial_ends_at + timedelta(
            days=settings.TRIAL_PUBLIC_API_GRACE_DAYS) <= timezone.now()

    @property
    def syndicates(self) -> bool:
        """Its feeds, sitemap and robots.txt list posts: it may syndicate, and feeds are switched on
        with a website to link to."""
        return self.may_syndicate and self.feeds_enabled and bool(self.website_url)

    def post_url(self, slug: str, language: str | None = None) -> str:
        """Where a post lives on the company's website. A post in another language than the
        company's default (docs/translations.md): the template's `{locale}`, else `?locale=` after
        the template's address, else `/{locale}/` before the slug."""
        default = self.default_language or "en"
        other = language is not None and language != default
        if self.post_url_template:
            url = self.post_url_template.replace("{slug}", slug)
            if "{locale}" in url:
                return url.replace("{locale}", language or default)
            return f"{url}{'&' if '?' in url else '?'}locale={language}" if other else url
        return f"{self.website_url.rstrip('/')}/{language}/{slug}" if other else f"{self.website_url.rstrip('/')}/{slug}"

    def page_url(self, slug: str, language: str | None = None) -> str:
        """Where a page (apps.content.kinds: About, Contact) lives on the company's website: at its
        root, `/{slug}`, whatever the posts' template; `/{locale}/{slug}` in another language than
        the default."""
        other = language is not None and language != (self.default_language or "en")
        base = self.website_url.rstrip("/")
        return f"{base}/{language}/{slug}" if other else f"{base}/{slug}"

    @property
    def email_verified(self) -> bool:
        return self.email_verified_at is not None

    @property
    def is_serving(self) -> bool:
        """Its APIs answer (not suspended, not being deleted)."""
        return self.status not in (self.Status.SUSPENDED, self.Status.DELETING)


class Domain(DomainMixin):
    def save(self, *args, **kwargs):
        """As django-tenants' save (a company has one primary domain; its first domain is primary),
        but the other domains are updated only when the company has another primary one. Its save
        ran `UPDATE tenants_domain SET is_primary = false` for every new domain, matching nothing at
        a sign-up: on Citus that UPDATE of a reference table takes the table's lock for the rest
        of the transaction, so concurrent sign-ups waited on each other and deadlocked."""
        with transaction.atomic(savepoint=False):
            others = Domain.objects.filter(tenant_id=self.tenant_id, is_primary=True).exclude(pk=self.pk)
            if self.is_primary and others.exists():
                others.update(is_primary=False)
            elif not self.is_primary and not others.exists():
                self.is_primary = True
            models.Model.save(self, *args, **kwargs)


class SiteSettings(models.Model):
    """The site around a company's posts (docs/company-settings.md#site-settings): beside its other
    settings, one row per company (none until an admin or an import sets one: every value empty).
    The rules of each value are apps.site.rules; the writes apps.site.services. Images are a media
    id of the company's library or an http(s) address; social accounts the profiles' addresses
    ({"twitter": "https://x.com/acme"}); navigations ordered lists of {label, url}."""

    client = models.OneToOneField(Client, on_delete=models.CASCADE, primary_key=True, related_name="site_settings")
    title = models.CharField(max_length=200, blank=True, default="")
    description = models.CharField(max_length=500, blank=True, default="")
    meta_title = models.CharField(max_length=300, blank=True, default="")
    meta_description = models.CharField(max_length=500, blank=True, default="")
    logo = models.CharField(max_length=2000, blank=True, default="")
    icon = models.CharField(max_length=2000, blank=True, default="")
    cover_image = models.CharField(max_length=2000, blank=True, default="")
    accent_color = models.CharField(max_length=7, blank=True, default="")
    social = models.JSONField(default=dict, blank=True)
    navigation = models.JSONField(default=list, blank=True)
    secondary_navigation = models.JSONField(default=list, blank=True)
    updated_at = models.DateTimeField(auto_now=True)


class ProvisioningTemplate(models.Model):
    """The DDL of the migrated template schema, captured by `migrate_schemas`, from which
    every new tenant schema is created in one transaction."""

    schema_name = models.CharField(max_length=63, unique=True)
    ddl = models.TextField()
    # The DDL as the statements a clone runs, one by one and in order (template_statements()):
    # what Citus needs, the same on a single PostgreSQL.
    statements = models.JSONField(default=list)
    seed_tables = models.JSONField(default=list)  # tables whose template rows are copied
    migrations_digest = models.CharField(max_length=64)
    built_at = models.DateTimeField(auto_now=True)


class SpareSchema(models.Model):
    """A schema already cloned from the template and not yet anyone's (lifecycle/provisioning.py): a
    sign-up renames one instead of running the template's DDL. `migrations_digest` is the
    template's when it was cloned; spares of an older template are never taken and are dropped."""

    schema_name = models.CharField(max_length=63, unique=True)
    migrations_digest = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)


class OutgoingEmail(models.Model):
    """One email the product sends (apps.core.email), kept in the public schema: rendered when it
    is queued, sent by the `core.send_email` task. `sent_at` makes the task idempotent (a retry or a
    duplicate delivery of the task never sends twice); `message_id` is the Message-ID header."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    message_id = models.CharField(max_length=255, unique=True)
    kind = models.CharField(max_length=40)  # the template's name: password_reset, invitation, ...
    schema_name = models.CharField(max_length=63, blank=True, default="")  # the company, "" for the root domain
    to = models.CharField(max_length=254)
    subject = models.CharField(max_length=255)
    text = models.TextField()
    html = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveIntegerField(default=0)
    last_error = models.CharField(max_length=500, blank=True, default="")
    failed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("created_at",)
        indexes = [models.Index(fields=["created_at"], name="tenants_email_created_idx")]


class AccountDirectory(models.Model):
    """Where an email has an account: one row per user of every company, kept in step by
    apps.accounts.services.user_directory_sync (every create, change of email or status, and
    delete of a user goes through it). The root domain's "find my companies" reads it instead of
    visiting every company's schema."""

    client = models.ForeignKey(Client, on_delete=models.CASCADE, related_name="+")
    user_id = models.UUIDField()
    email = models.CharField(max_length=254)  # stored lowercased
    active = models.BooleanField(default=True)  # the user's status is active

    class Meta:
        constraints = [models.UniqueConstraint(fields=["client", "user_id"], name="tenants_directory_one_per_user")]
        indexes = [models.Index(fields=["email"], name="tenants_directory_email_idx")]
