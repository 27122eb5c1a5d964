"""The three APIs of the product, each answering errors with the same envelope.

- dashboard: tenant host, /api/..., Bearer JWT
- public:    tenant host, /api/v1/..., x-api-key (read-only content for websites)
- root:      root domain, /api/... (sign-up, health)
Each app lists its routes in `<app>/api.py` as ROUTES = [(prefix, router)]. The public API is built
in config.api_content (a content web process imports that module alone).
"""
from apps.accounts.api import auth_router, invitations_router, users_router
from apps.accounts.auth import jwt_auth
from apps.ai.api import ROUTES as AI_ROUTES
from apps.analytics.api import ROUTES as ANALYTICS_ROUTES
from apps.audit.api import ROUTES as AUDIT_ROUTES
from apps.content.api import ROUTES as CONTENT_ROUTES
from apps.core.api import create_api
from apps.core.health_api import router as health_router
from apps.core.outbox_api import ROUTES as OUTBOX_ROUTES
from apps.integrations.api import ROUTES as INTEGRATION_ROUTES
from apps.media.api import ROUTES as MEDIA_ROUTES
from apps.members.api import ROUTES as MEMBER_ROUTES
from apps.newsletters.api import ROUTES as NEWSLETTER_ROUTES
from apps.portability.api import ROUTES as PORTABILITY_ROUTES
from apps.plans.api import ROUTES as PLAN_ROUTES
from apps.webhooks.api import ROUTES as WEBHOOK_ROUTES
from lifecycle.api import router as signup_router
from lifecycle.client_api import router as client_router
from config.api_content import public_api  # noqa: F401 (config.urls mounts it from here)

dashboard_api = create_api(
    title="CMS dashboard API",
    version="1.0",
    urls_namespace="dashboard",
    auth=jwt_auth,
    docs_url="/docs",
)
dashboard_api.add_router("/auth", auth_router)
dashboard_api.add_router("/users", users_router)
dashboard_api.add_router("/invitations", invitations_router)
dashboard_api.add_router("/client", client_router)
dashboard_api.add_router("", health_router)
for prefix, router in [*CONTENT_ROUTES, *MEDIA_ROUTES, *ANALYTICS_ROUTES, *AI_ROUTES, *WEBHOOK_ROUTES,
                       *AUDIT_ROUTES, *OUTBOX_ROUTES, *PORTABILITY_ROUTES, *PLAN_ROUTES, *INTEGRATION_ROUTES,
                       *MEMBER_ROUTES, *NEWSLETTER_ROUTES]:
    dashboard_api.add_router(prefix, router)

root_api = create_api(title="CMS sign-up API", version="1.0", urls_namespace="root", docs_url="/docs")
root_api.add_router("", signup_router)
root_api.add_router("", health_router)
