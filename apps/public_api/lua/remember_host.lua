-- Records host -> company for the fast path unless the host has an entry (hosts whose only
-- traffic is tracking; reads record it in lookup.lua). Returns 1 when written.
local host_key = KEYS[1]  -- HSET {prefix}:papi:host:{host}
-- ARGV[1..8]: the fields s, c, p, l, wc, wp, g, wg (apps.public_api.keys.host_fields)
local host_ttl = ARGV[9]

if redis.call('EXISTS', host_key) == 1 then return 0 end
redis.call('HSET', host_key, 's', ARGV[1], 'c', ARGV[2], 'p', ARGV[3], 'l', ARGV[4], 'wc', ARGV[5], 'wp', ARGV[6],
           'g', ARGV[7], 'wg', ARGV[8])
redis.call('EXPIRE', host_key, host_ttl)
return 1
