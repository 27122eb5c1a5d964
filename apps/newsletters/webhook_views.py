"""The email provider's tracking webhook, one address per provider on the root domain:
/webhooks/email/<provider>/tracking/. Each is anymail's own view for that provider (its signature
checks, its parsing into anymail's `tracking` signal: apps.newsletters.webhooks), imported when the
first event arrives, so a web worker loads no provider's client (the SES view needs boto3) until
one sends it something.

Outside development (DEBUG off) an event is taken only when ANYMAIL's WEBHOOK_SECRET is set (anymail
would otherwise accept unauthenticated events for the providers that sign nothing, and anyone
could disable members' emails): without it, every event is 403 and changes nothing. The processes
refuse to start without it when newsletters go through a provider (config.settings)."""
from __future__ import annotations

import logging

from django.conf import settings
from django.http import Http404
from django.utils.module_loading import import_string
from django.views.decorators.csrf import csrf_exempt

from apps.core.api import envelope
from config.signing_keys import webhook_secret_problem

logger = logging.getLogger(__name__)
NOT_ACCEPTED = "Email events are not accepted: this platform has no webhook secret for its email provider"

PROVIDERS = {
    "amazon_ses": "anymail.webhooks.amazon_ses.AmazonSESTrackingWebhookView",
    "brevo": "anymail.webhooks.brevo.BrevoTrackingWebhookView",
    "mailersend": "anymail.webhooks.mailersend.MailerSendTrackingWebhookView",
    "mailgun": "anymail.webhooks.mailgun.MailgunTrackingWebhookView",
    "mailjet": "anymail.webhooks.mailjet.MailjetTrackingWebhookView",
    "mailtrap": "anymail.webhooks.mailtrap.MailtrapTrackingWebhookView",
    "mandrill": "anymail.webhooks.mandrill.MandrillCombinedWebhookView",
    "postal": "anymail.webhooks.postal.PostalTrackingWebhookView",
    "postmark": "anymail.webhooks.postmark.PostmarkTrackingWebhookView",
    "resend": "anymail.webhooks.resend.ResendTrackingWebhookView",
    "sendgrid": "anymail.webhooks.sendgrid.SendGridTrackingWebhookView",
    "sparkpost": "anymail.webhooks.sparkpost.SparkPostTrackingWebhookView",
    "unisender_go": "anymail.webhooks.unisender_go.UnisenderGoTrackingWebhookView",
}
_views: dict = {}


@csrf_exempt
def tracking(request, provider: str):
    path = PROVIDERS.get(provider)
    if path is None:
        raise Http404("No such email provider")
    problem = None if settings.DEBUG else webhook_secret_problem(getattr(settings, "ANYMAIL", None))
    if problem:
        logger.warning("email event from %s refused: %s", provider, problem)
        return envelope(403, NOT_ACCEPTED, "forbidden")
    view = _views.get(provider)
    if view is None:
        view = _views[provider] = import_string(path).as_view()
    return view(request)
