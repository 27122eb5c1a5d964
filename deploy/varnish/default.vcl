vcl 4.1;
# The HTTP cache tier in front of the public content API (/api/v1 on each company's host).
# Varnish 7 with varnish-modules (xkey, vsthrottle). Its backend is the content web pool
# (WEB_ROUTES=content: the public API only); the proxy in front sends it /api/v1 alone, and
# anything else that reaches it is passed through uncached.
#
# - Cached per host + path + query + the `x-api-key` header (Varnish hashes them with SHA-256):
#   a key that is wrong, rotated or another company's never matches an object; it goes to the
#   app, which answers 401 (never cached). A request with a member's token (`x-member-token`:
#   members-only posts' bodies) is never looked up nor kept: it passes to the app.
# - Only 200 replies are cached, for their `s-maxage` (Cache-Control, set by the app from
#   PUBLIC_API_EDGE_MAX_AGE); the `If-None-Match` of a hit is answered 304 here.
# - The app purges after each content write, key rotation, suspension and deletion:
#   `PURGE /` with `xkey-purge: <keys>` (keys of the replies' `xkey` header: `host-<host>`,
#   `posts-<host>`, `search-<host>`, `drafts-<host>`, `p-<post id>`; apps/core/edge_cache.py),
#   accepted from the `purgers` addresses only.
# - The per-key rate limit of the app (PUBLIC_API_RATE_LIMIT requests per PUBLIC_API_RATE_WINDOW
#   seconds) is counted here too: hits never reach the app's counter.
# docs/scaling-engines.md (HTTP cache tier): how to run it; the tests start it from this file
# (apps/public_api/tests/test_varnish.py), replacing the backend's address.

import std;
import xkey;
import vsthrottle;
import var;

backend app {
    .host = "content";
    .port = "8000";
    .connect_timeout = 2s;
    .first_byte_timeout = 90s;  # as nginx's proxy_read_timeout (AI writing waits for its job)
}

acl purgers {
    "127.0.0.1";
    "::1";
    "10.0.0.0"/8;
    "172.16.0.0"/12;
    "192.168.0.0"/16;
}

sub vcl_recv {
    if (req.method == "PURGE") {
        if (client.ip !~ purgers) {
            return (synth(403, "Forbidden"));
        }
        if (!req.http.xkey-purge) {
            return (synth(400, "xkey-purge header missing"));
        }
        set req.http.x-purged = xkey.purge(req.http.xkey-purge);
        return (synth(200, "Purged " + req.http.x-purged));
    }
    if (req.url !~ "^/api/v1/") {
        return (pass);
    }
    if (req.method != "GET" && req.method != "HEAD") {
        return (pass);
    }
    if (!req.http.x-api-key) {
        return (pass);  # the app's 401
    }
    if (req.http.x-member-token) {
        return (pass);  # a member's read: members-only bodies, answered by the app for this request alone
    }
    # Same limit as the app: per host and key, the company's plan's requests per window, learned from
    # the X-RateLimit-Limit of the app's replies for that host (PUBLIC_API_RATE_LIMITS), until then
    # PUBLIC_API_RATE_LIMIT; the window is PUBLIC_API_RATE_WINDOW.
    if (vsthrottle.is_denied("key:" + req.http.host + ":" + req.http.x-api-key,
                             std.integer(var.global_get("limit:" + req.http.host), 600), 60s)) {
        return (synth(429, "Too Many Requests"));
    }
    unset req.http.Cookie;
    return (hash);
}

sub vcl_hash {
    hash_data(req.http.host);
    hash_data(req.url);
    hash_data(req.http.x-api-key);
    return (lookup);
}

sub vcl_backend_fetch {
    # The tier keeps a reply's uncompressed bytes and sends them as they are: the app is not asked
    # for its gzip (Varnish would otherwise ask for it, and unzip it for every client that does
    # not accept gzip), and the object is one for every client (Vary without Accept-Encoding).
    if (bereq.url ~ "^/api/v1/") {
        unset bereq.http.Accept-Encoding;
    }
}

sub vcl_backend_response {
    if (bereq.url ~ "^/api/v1/" && beresp.http.Vary) {
        set beresp.http.Vary = regsub(beresp.http.Vary, ",\s*Accept-Encoding", "");
    }
    if (bereq.url ~ "^/api/v1/" && beresp.http.X-RateLimit-Limit ~ "^[0-9]{1,9}$") {
        var.global_set("limit:" + bereq.http.host, beresp.http.X-RateLimit-Limit);
    }
    if (bereq.url ~ "^/api/v1/" && beresp.status != 200) {
        set beresp.uncacheable = true;
        set beresp.ttl = 0s;
        return (deliver);
    }
    if (bereq.url ~ "^/api/v1/" && !beresp.http.xkey) {
        set beresp.uncacheable = true;  # only replies the app can purge are kept
        set beresp.ttl = 0s;
    }
    set beresp.grace = 0s;
    return (deliver);
}

sub vcl_deliver {
    if (obj.hits > 0) {
        set resp.http.X-Edge = "HIT";
    } else {
        set resp.http.X-Edge = "MISS";
    }
    unset resp.http.xkey;
    unset resp.http.Via;
    unset resp.http.X-Varnish;
}

sub vcl_synth {
    if (resp.status == 429) {
        set resp.http.Content-Type = "application/json";
        set resp.http.Retry-After = "60";
        set resp.body = {"{"success": false, "message": "Too many requests", "error": "rate_limited" }"};
        return (deliver);
    }
    if (req.method == "PURGE") {
        set resp.http.Content-Type = "text/plain";
        set resp.body = resp.reason;
        return (deliver);
    }
}
