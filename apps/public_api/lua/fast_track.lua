-- A page view on the fast path: the key against the host entry, then the event appended to the
-- company's stream. Codes: apps.public_api.cache.Code (prepended as locals when loaded).
local host_key = ARGV[1]    -- HMGET {prefix}:papi:host:{host}: s schema, c / p the key hashes
local key_hash = ARGV[2]
local schema = ARGV[3]      -- the schema the caller believes the host is ("-" when unknown)
local stream_key = ARGV[4]  -- XADD {prefix}:analytics:events:{schema} (apps.analytics.buffer)
local stream_cap = ARGV[5]
-- ARGV[6..]: the event's field/value pairs

local entry = redis.call('HMGET', host_key, 's', 'c', 'p')
if not entry[1] then return {UNKNOWN} end
if key_hash ~= entry[2] and key_hash ~= entry[3] then return {UNKNOWN} end
if entry[1] ~= schema then return {OTHER_SCHEMA, entry[1]} end  -- the caller learns it and retries
redis.call('XADD', stream_key, 'MAXLEN', '~', stream_cap, '*', unpack(ARGV, 6))
return {APPENDED}
