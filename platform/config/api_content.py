"""The public content API (x-api-key, /api/v1/ on every company host), apart from the other two
APIs of config.api so that a content web process (WEB_ROUTES=content, config.urls_content)
imports it without the dashboard's routes and what they need (tokens, password hashing, the
HTML sanitiser, the AI and media services)."""
from apps.core.api import create_api
from apps.members.public import ROUTES as MEMBER_PUBLIC_ROUTES
from apps.public_api.api import ROUTES as PUBLIC_ROUTES

public_api = create_api(
    title="CMS public content API",
    version="v1",
    urls_namespace="public",
    docs_url="/docs",
    conditional_get=True,  # GETs carry ETag; If-None-Match gets 304
)
for prefix, router in [*PUBLIC_ROUTES, *MEMBER_PUBLIC_ROUTES]:
    public_api.add_router(prefix, router)

# The health routes of a content web process are apps.core.health's views (config.urls_content).
