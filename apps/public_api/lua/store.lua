-- A reply built on a miss (either path), and the total it counted.
local response_key = KEYS[1]  -- HSET {prefix}:papi:gz:{schema}:{version}:{kind}:{query hash} {e: ETag, b: the body's gzip}
local count_key = KEYS[2]     -- SET  {prefix}:papi:count:{schema}:{version}:{filter key}, or "" (no total)
local etag = ARGV[1]
local body = ARGV[2]
local ttl = ARGV[3]
local total = ARGV[4]           -- the list's total, or "" (none counted)

redis.call('HSET', response_key, 'e', etag, 'b', body)
redis.call('EXPIRE', response_key, ttl)
if total ~= '' then redis.call('SET', count_key, total, 'EX', ttl) end
return 1
