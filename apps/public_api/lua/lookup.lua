-- Django's path: one round trip per public GET (apps.public_api.responses.cached_json).
-- Remembers the host for the fast path (only if it has no entry: a key rotation may have written
-- a newer one meanwhile), reads the company's content version and the cached reply.
-- Returns {version, ETag or false, body or false}.
local version_key = KEYS[1]      -- {prefix}:content-version:{schema}: content_version() reads (or makes) it
local host_key = KEYS[2]         -- HSET {prefix}:papi:host:{host} (if absent): the company's host entry
local response_prefix = ARGV[1]  -- {prefix}:papi:gz:{schema}:
local response_suffix = ARGV[2]  -- :{key kind}:{query hash}
-- ARGV[3..10]: the host entry's fields s, c, p, l, wc, wp, g, wg (apps.public_api.keys.host_fields)
local host_ttl = ARGV[11]

if redis.call('EXISTS', host_key) == 0 then
  redis.call('HSET', host_key, 's', ARGV[3], 'c', ARGV[4], 'p', ARGV[5], 'l', ARGV[6], 'wc', ARGV[7], 'wp', ARGV[8],
             'g', ARGV[9], 'wg', ARGV[10])
  redis.call('EXPIRE', host_key, host_ttl)
end
local version = content_version(version_key)  -- made when missing (apps.core.content_version)
-- HMGET {prefix}:papi:gz:{schema}:{version}:{kind}:{query hash}: the cached reply
local entry = redis.call('HMGET', response_prefix .. version .. response_suffix, 'e', 'b')
return {version, entry[1], entry[2]}
