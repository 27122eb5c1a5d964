"""URLs of the root domain: sign-up, health, the operator console and the SPA (whose /login asks for the subdomain)."""
from django.urls import include, path, re_path

from apps.core import health
from apps.core.api import api_not_found
from apps.core.spa import spa_view
from apps.newsletters import webhook_views as newsletter_webhooks
from config.api import root_api

urlpatterns = [
    *health.urlpatterns,  # plain views (apps.core.health); root_api declares them for its OpenAPI document
    path("api/", root_api.urls),
    path("operator/", include("lifecycle.operator.urls")),  # the operator console (lifecycle/operator)
    # the email provider's signed events: bounces and complaints (apps.newsletters.webhooks)
    path("webhooks/email/<str:provider>/tracking/", newsletter_webhooks.tracking),
    re_path(r"^api(?:/.*)?$", api_not_found),
    re_path(r"^.*$", spa_view),
]
