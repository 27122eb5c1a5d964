-- A reply built on a miss (either path), and the total it counted.
local response_key = KEYS[1]  -- HSET {prefix}:papi:resp:{schema}:{version}:{kind}:{query hash} {e: ETag, b: body}
local count_key = KEYS[2]     -- SET  {prefix}:papi:count:{schema}:{version}:{filter key}, or "" (no total)
local etag, body, ttl, total = ARGV[1], ARGV[2], ARGV[3], ARGV[4]

redis.call('HSET', response_key, 'e', etag, 'b', body)
redis.call('EXPIRE', response_key, ttl)
if total ~= '' then redis.call('SET', count_key, total, 'EX', ttl) end
return 1
