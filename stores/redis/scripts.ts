/** The Lua scripts behind the Redis stores: each operation is one script, so it is atomic; rate-limit keys expire only by their TTLs. */

/** KEYS: lastId, all, statusSet · ARGV: pet fields as JSON without braces, status or '' → the pet's JSON. */
export const CREATE = `
local id = redis.call('INCR', KEYS[1])
local json = '{"id":' .. id .. ',' .. ARGV[1] .. '}'
redis.call('ZADD', KEYS[2], id, json)
if ARGV[2] ~= '' then redis.call('ZADD', KEYS[3], id, json) end
return json`;

/**
 * KEYS: idempotency key, lastId, all, statusSet · ARGV: fingerprint, expiresAt, now, pet fields,
 * status or '', ttl ms → { created (1|0), record JSON }.
 */
export const CREATE_ONCE = `
local found = redis.call('GET', KEYS[1])
if found and tonumber(cjson.decode(found).expiresAt) > tonumber(ARGV[3]) then return {0, found} end
local id = redis.call('INCR', KEYS[2])
local json = '{"id":' .. id .. ',' .. ARGV[4] .. '}'
redis.call('ZADD', KEYS[3], id, json)
if ARGV[5] ~= '' then redis.call('ZADD', KEYS[4], id, json) end
local record = cjson.encode({ fingerprint = ARGV[1], expiresAt = ARGV[2], pet = json })
redis.call('SET', KEYS[1], record, 'PX', ARGV[6])
return {1, record}`;

/**
 * KEYS: the set of all pets → how many there are: O(1).
 *
 * @example
 * const pets = Number(await run(COUNT, [`${prefix}all`], []));
 */
export const COUNT = `return redis.call('ZCARD', KEYS[1])`;

/**
 * No keys → 1: an answer from Redis, for a client that cannot send PING itself.
 *
 * @example
 * await run(PING, [], []);
 */
export const PING = 'return 1';

/** KEYS: sorted set · ARGV: after, limit → pet JSONs with id > after, ascending. */
export const PAGE = `return redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. ARGV[1], '+inf', 'LIMIT', 0, ARGV[2])`;

/**
 * Check and take for every window at once. KEYS: ban, then one counter per window · ARGV: now,
 * then each window's limit, then each window's ttl ms → { admitted (1|0), bannedUntil or 0, used… }.
 */
export const TAKE = `
local now = tonumber(ARGV[1])
local n = #KEYS - 1
local used = {}
for i = 1, n do used[i] = tonumber(redis.call('GET', KEYS[i + 1]) or '0') end
local ban = tonumber(redis.call('GET', KEYS[1]) or '0')
if ban > now then return {0, ban, unpack(used)} end
for i = 1, n do
  if used[i] >= tonumber(ARGV[i + 1]) then return {0, 0, unpack(used)} end
end
for i = 1, n do
  used[i] = redis.call('INCR', KEYS[i + 1])
  redis.call('PEXPIRE', KEYS[i + 1], ARGV[n + i + 1])
end
return {1, 0, unpack(used)}`;

/** KEYS: refusal counter of one window · ARGV: ttl ms → refusals so far in it. */
export const REJECT = `
local count = redis.call('INCR', KEYS[1])
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return count`;

/**
 * KEYS: ban · ARGV: until (epoch ms), ttl ms → 1 when set, 0 when a ban ending later was kept
 * (two requests refused at once both ban; neither may cut the other's ban short).
 */
export const BAN = `
if tonumber(redis.call('GET', KEYS[1]) or '0') >= tonumber(ARGV[1]) then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1`;
