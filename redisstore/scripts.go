package redisstore

import "github.com/redis/rueidis"

// The scripts share a preamble that reads the Redis clock, in
// microseconds, into now: every replica then measures time by one clock.
// Redis before 5.0 needs effects replication for a script that writes
// after TIME; later versions have it always.
const preamble = `
if redis.replicate_commands then pcall(redis.replicate_commands) end
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000000 + tonumber(clock[2])
`

// takeScript is GCRA on one key: KEYS[1] holds the bucket's theoretical
// arrival time tat, in microseconds of the Redis clock. ARGV[1] is the
// time one token takes to come back (the emission interval) in
// microseconds, ARGV[2] the burst. A request is allowed when
// tat+interval-now is within burst*interval, and then tat+interval is
// stored, expiring when the bucket is full again, so that a key never
// outlives its window. It returns {ok, remaining, reset µs, retry µs}.
var takeScript = rueidis.NewLuaScript(preamble + `
local interval = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local tolerance = burst * interval
local slack = interval * 1e-6
local tat = tonumber(redis.call('GET', KEYS[1]) or '0') or 0
if tat < now then tat = now end
local nxt = tat + interval
if nxt - now > tolerance + slack then
	return {0, 0, math.ceil(tat - now), math.ceil(nxt - now - tolerance)}
end
redis.call('SET', KEYS[1], string.format('%.17g', nxt), 'PX', math.max(1, math.ceil((nxt - now) / 1000)))
local remaining = math.floor((tolerance - (nxt - now)) / interval + 1e-6)
return {1, remaining, math.ceil(nxt - now), 0}
`)

// addScript adds ARGV[1] to the counter KEYS[1]. A counter that does not
// exist starts from zero and expires ARGV[2] milliseconds from now (it is
// not kept when that is not in the future); adding 0 reads without
// creating. It returns {value, milliseconds to expiry, or -1 when the
// counter was not kept}.
var addScript = rueidis.NewLuaScript(preamble + `
local n = tonumber(ARGV[1])
local ttl = tonumber(ARGV[2])
local v = redis.call('GET', KEYS[1])
if not v then
	if n == 0 or ttl <= 0 then return {n, -1} end
	local c = redis.call('INCRBY', KEYS[1], n)
	redis.call('PEXPIRE', KEYS[1], ttl)
	return {c, ttl}
end
if n == 0 then return {tonumber(v), redis.call('PTTL', KEYS[1])} end
local c = redis.call('INCRBY', KEYS[1], n)
return {c, redis.call('PTTL', KEYS[1])}
`)

// spendScript charges ARGV[1] to each limit KEYS[i], all or nothing (see
// ratelimit.Store.Spend). Each limit takes four more arguments: its max,
// its period in microseconds (0 for a counter), a new counter's time to
// live in milliseconds, and 1 when it is soft. A counter is a string
// incremented with INCRBY; a meter a hash of its level l (a float) at
// stamp s (microseconds), expiring once it has drained empty. It returns
// {ok, used, wait µs} for each limit, in order.
var spendScript = rueidis.NewLuaScript(preamble + `
local n = tonumber(ARGV[1])
local slack = 1e-9
local never = 2147483648 * 1000000
local out, used, live = {}, {}, {}
local all = true
for i, key in ipairs(KEYS) do
	local a = 1 + (i - 1) * 4
	local max, per, ttl, soft = tonumber(ARGV[a + 1]), tonumber(ARGV[a + 2]), tonumber(ARGV[a + 3]), ARGV[a + 4] == '1'
	local u, wait = 0, 0
	if per > 0 then
		local m = redis.call('HMGET', key, 'l', 's')
		if m[1] then
			u = tonumber(m[1])
			local elapsed = now - tonumber(m[2])
			if elapsed > 0 and max > 0 then u = math.max(u - elapsed * max / per, 0) end
		end
	else
		local v = redis.call('GET', key)
		if v then
			u = tonumber(v)
			live[i] = true
			wait = redis.call('PTTL', key) * 1000
		end
	end
	used[i] = u
	local ok = 1
	if n > 0 and not soft and u + n - max > slack then
		ok = 0
		all = false
		if per == 0 then
			if not live[i] then wait = math.max(ttl, 0) * 1000 end
		elseif n > max then
			wait = never
		else
			wait = math.min(math.ceil((u + n - max) * per / max - slack), never)
		end
	else
		wait = 0
	end
	local shown = u
	if per > 0 then shown = math.ceil(u - slack) end
	out[#out + 1] = ok
	out[#out + 1] = shown
	out[#out + 1] = wait
end
if not all or n == 0 then return out end
for i, key in ipairs(KEYS) do
	local a = 1 + (i - 1) * 4
	local max, per, ttl = tonumber(ARGV[a + 1]), tonumber(ARGV[a + 2]), tonumber(ARGV[a + 3])
	if per > 0 then
		local level = math.max(used[i] + n, 0)
		if level <= 0 then
			redis.call('DEL', key)
		else
			redis.call('HSET', key, 'l', string.format('%.17g', level), 's', now)
			local life = never / 1000
			if max > 0 then life = math.ceil(level * per / max / 1000) end
			redis.call('PEXPIRE', key, math.max(life, 1))
		end
		out[(i - 1) * 3 + 2] = math.ceil(level - slack)
	else
		local c
		if live[i] then
			c = redis.call('INCRBY', key, n)
		elseif ttl > 0 then
			c = redis.call('INCRBY', key, n)
			redis.call('PEXPIRE', key, ttl)
		else
			c = n
		end
		out[(i - 1) * 3 + 2] = c
	end
end
return out
`)
