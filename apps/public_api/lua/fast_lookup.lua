-- The fast path's one round trip per public GET (apps.public_api.fastpath): the key against the
-- host entry, the company's content version, the cached reply and, for a request it answers,
-- one entry of the key's rate limit. The reply codes (UNKNOWN, MISS, ...) are defined once, in
-- apps.public_api.cache.Code, and prepended to this script as locals when it is loaded.
local host_key = ARGV[1]         -- HMGET {prefix}:papi:host:{host}: s schema, c / p / g the hashes of
                                 -- the content / preview / Ghost content key, l the rate limit,
                                 -- wc / wp / wg their rate-limit counters' keys
local key_hash = ARGV[2]         -- the hash of the request's x-api-key
local version_prefix = ARGV[3]   -- {prefix}:content-version:{schema}: content_version() reads (or makes) it
local response_prefix = ARGV[4]  -- HGET {prefix}:papi:gz:{schema}:{version}:{kind}:{query hash}
local query_suffix = ARGV[5]     -- ":" .. query hash
local if_none_match = ARGV[6]    -- one strong ETag, or ""
local window = ARGV[7]           -- seconds of the rate limit's sliding window
local worker_etag = ARGV[8]      -- the ETag of the copy of this reply the worker holds, or ""
local buildable = ARGV[9] == '1'      -- a posts list the fast path builds itself on a miss
local count_prefix = ARGV[10]    -- GET {prefix}:papi:count:{schema}:{version}:{filter key}: its total
local filter_key = ARGV[11]
local needs_preview = ARGV[12] == '1'  -- the list shows posts that are not public
local cached = ARGV[13] == '1'         -- replies are cached (PUBLIC_API_CACHE)
local ghost = ARGV[14] == '1'          -- a Ghost-compatible route: its one key is the Ghost content key
local amount = ARGV[15]          -- the rate-limit entries taken: 1, and the hits the worker answered
                                 -- from its leases since its last round trip (apps.public_api.core.Leases)

local function acquire(KEYS, ARGV)
-- @acquire: the `limits` library's sliding-window-counter script, inserted here when loaded
end

local entry = redis.call('HMGET', host_key, 's', 'c', 'p', 'l', 'wc', 'wp', 'g', 'wg')
local schema, limit = entry[1], entry[4]
if not schema then return {UNKNOWN} end
local kind, limit_key
if ghost then
  if key_hash == entry[7] then kind, limit_key = 'g', entry[8] else return {UNKNOWN} end
elseif key_hash == entry[2] then kind, limit_key = 'c', entry[5]
elseif key_hash == entry[3] then kind, limit_key = 'p', entry[6]
else return {UNKNOWN} end
if not limit_key then return {UNKNOWN} end  -- a tombstone (suspended or deleted company)
local build = buildable and (not needs_preview or kind == 'p')  -- else Django answers the 403
local version = content_version(version_prefix .. schema)  -- made when missing (apps.core.content_version)
local count_key = count_prefix .. schema .. ':' .. version .. ':' .. filter_key
if not cached then
  if not build then return {MISS} end
  if not acquire({limit_key .. '/-1', limit_key}, {limit, window, amount}) then return {RATE_LIMITED, limit} end
  -- the version too: with the cache off it still says when what a worker keeps per company changed,
  -- and a list's total is still kept for it (a search's total is counted once per version)
  return {BUILD, schema, kind, version, redis.call('GET', count_key), limit}
end
local response_key = response_prefix .. schema .. ':' .. version .. ':' .. kind .. query_suffix
local etag = redis.call('HGET', response_key, 'e')
if not etag and not build then return {MISS} end
-- the key's sliding-window counters (the previous window's, the current one's: GET, PTTL, INCRBY)
if not acquire({limit_key .. '/-1', limit_key}, {limit, window, amount}) then return {RATE_LIMITED, limit} end
if not etag then
  return {BUILD, schema, kind, version, redis.call('GET', count_key), limit}
end
-- The key's kind ('c' content, 'p' preview, 'g' Ghost content) and limit go with a cached reply: its surrogate keys
-- differ by kind, and the cache tier in front learns the limit from the reply.
if if_none_match ~= '' and if_none_match == etag then return {NOT_MODIFIED, etag, kind, limit} end
if worker_etag == etag then return {WORKER_COPY, etag, kind, limit} end  -- the ETag is a hash of the body
return {HIT, etag, redis.call('HGET', response_key, 'b'), kind, limit}
