"""Ghost 5's Admin API, for writing, under /ghost/api/admin/ on every company host
(docs/publishing-from-tools.md): the tools that publish to Ghost (iA Writer, Ulysses, Obsidian and
Notion publishers, Zapier, n8n, Ghost's own `@tryghost/admin-api`) publish here with an
integration's Admin API key (apps.integrations).

At the edge, as the Content API is (apps.ghost_api): Ghost's JSON is mapped to the content and
media services' arguments, whose rules, events (audit log, webhooks, revisions, cache purges) and
plan limits apply as for a person's write; the writer is the integration
(apps.integrations.actor), named in the audit log. Replies and errors are in Ghost's shapes.

- auth: Ghost's token (`Authorization: Ghost <jwt>`, HS256 signed with the key's secret);
- posts: posts and pages, Ghost's JSON to the services' and back;
- resources: tags, users (read-only), images, site;
- views: the request (its body, its company, its errors), and the routes' dispatch.
"""
