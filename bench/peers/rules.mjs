// The Pet Store's rules as plain functions, written the way an app on Fastify or Hono would: what both peers call (on Node, Deno and Bun).
import { Buffer } from 'node:buffer';
import { createHash } from 'node:crypto';
import ipaddr from 'ipaddr.js';

const MINUTE = 60_000;
const DAY = 86_400_000;
/** The Free plan's numbers, which callers without a valid key are limited by. */
export const FREE = { perMinute: 60, perDay: 1_000 };
export const STATUSES = ['available', 'pending', 'sold'];
export const MAX_BODY_BYTES = 65_536;
const CHALLENGE = 'Bearer realm="petstore"';
const MAX_TOKEN_LENGTH = 4096;

/** An Error body, `{ code, message, status }` (and `details` on a 400), as the peers send it. */
export class Refusal extends Error {
  constructor(status, code, message, headers, details) {
    super(message);
    Object.assign(this, { status, code, headers, details });
  }
  toJSON() {
    return this.details
      ? { code: this.code, message: this.message, status: this.status, details: this.details }
      : { code: this.code, message: this.message, status: this.status };
  }
}

export const invalid = (message, details) => new Refusal(400, 'invalid_request', message, undefined, details);

/**
 * Authentication against a table of key digests (first 128 bits of SHA-256, node:crypto): the
 * lookup's time depends on the digest of what was sent, never on a configured key.
 * Resolves to `{ caller }` or `{ error }` (the 401 to send unless a refusal comes first).
 */
export function createAuthenticator(apiKeys) {
  const callers = new Map();
  for (const [key, quota] of Object.entries(apiKeys)) {
    const keyId = digest(key);
    callers.set(keyId, { keyId, subject: `key:${keyId}`, quota });
  }
  return (header) => {
    const token = /^[ \t]*bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? '')?.[1];
    if (token === undefined)
      return { error: new Refusal(401, 'unauthorized', 'Send an API key: Authorization: Bearer <key>.', { 'WWW-Authenticate': CHALLENGE }) };
    const caller = token.length <= MAX_TOKEN_LENGTH ? callers.get(digest(token)) : undefined;
    if (caller) return { caller };
    return { error: new Refusal(401, 'unauthorized', 'The API key is not valid.', { 'WWW-Authenticate': `${CHALLENGE}, error="invalid_token"` }) };
  };
}

const digest = (text) => createHash('sha256').update(text).digest('hex').slice(0, 32);

/** The rate-limit subject of a caller without a key: its IPv4 address, or its IPv6 /56; `unknown` for anything else. */
export function anonymousSubject(address) {
  let ip;
  if (address !== undefined && ipaddr.IPv4.isValidFourPartDecimal(address)) ip = ipaddr.IPv4.parse(address);
  else if (address !== undefined && ipaddr.IPv6.isValid(address)) {
    ip = ipaddr.IPv6.parse(address);
    if (ip.isIPv4MappedAddress()) ip = ip.toIPv4Address();
  }
  if (ip === undefined) return 'address:unknown';
  if (ip.kind() === 'ipv4') return `address:${ip.toString()}`;
  const parts = ip.parts.map((part, i) => part & ((0xffff << (16 - Math.min(16, Math.max(0, 56 - 16 * i)))) & 0xffff));
  return `address:${new ipaddr.IPv6(parts).toRFC5952String()}/56`;
}

/**
 * The two fixed UTC windows per subject over a limit store (`take`, `reject`, `ban`), as the spec
 * words them. Resolves to `{ headers }` (the 5 quota headers) and, when refused, a 429 `refusal`.
 */
export function createLimiter({ limitStore, now = Date.now, banThreshold = 10, banDurationMs = 15 * MINUTE }) {
  const policies = new WeakMap();
  return async function limit(subject, quota) {
    const time = now();
    const minute = Math.floor(time / MINUTE) * MINUTE;
    const day = Math.floor(time / DAY) * DAY;
    const windows = [
      { name: 'minute', limit: quota.perMinute, start: minute, end: minute + MINUTE },
      { name: 'day', limit: quota.perDay, start: day, end: day + DAY },
    ];
    let policy = policies.get(quota);
    if (policy === undefined) policies.set(quota, (policy = windows.map((w) => `"${w.name}";q=${w.limit};w=${(w.end - w.start) / 1000}`).join(', ')));
    const { admitted, used, bannedUntil } = await limitStore.take(subject, windows, time);
    if (bannedUntil !== undefined && bannedUntil > time) return banned(windows, used, bannedUntil, time, policy);
    const headers = quotaHeaders(windows, used, time, policy);
    if (admitted) return { headers };
    const refusals = await limitStore.reject(subject, windows[0], time);
    if (refusals > banThreshold) {
      const until = time + banDurationMs;
      await limitStore.ban(subject, until, time);
      return banned(windows, used, until, time, policy);
    }
    const retryAfter = seconds(Math.max(...windows.filter((w, i) => used[i] >= w.limit).map((w) => w.end)), time);
    headers['Retry-After'] = retryAfter;
    return { headers, refusal: new Refusal(429, 'rate_limited', `Rate limit exceeded; retry in ${retryAfter} seconds.`) };
  };
}

/** A ban shows on the minute window: nothing left until it ends. */
function banned(windows, used, until, time, policy) {
  const retryAfter = seconds(until, time);
  const headers = quotaHeaders(windows, [windows[0].limit, used[1]], time, policy, Math.max(windows[0].end, until));
  headers['Retry-After'] = retryAfter;
  return { headers, refusal: new Refusal(429, 'key_banned', `Too many requests after being limited; banned for ${retryAfter} more seconds.`) };
}

const seconds = (until, time) => String(Math.max(1, Math.ceil((until - time) / 1000)));

/** X-RateLimit-* of the window that binds first (fewest remaining, then the later reset), and the IETF fields, binding first. */
function quotaHeaders(windows, used, time, policy, minuteReset = windows[0].end) {
  const [minute, day] = windows.map((w, i) => ({
    name: w.name,
    limit: w.limit,
    remaining: Math.max(0, w.limit - used[i]),
    reset: i === 0 ? minuteReset : w.end,
  }));
  const [first, second] = minute.remaining < day.remaining || (minute.remaining === day.remaining && minute.reset >= day.reset) ? [minute, day] : [day, minute];
  const left = (w) => `"${w.name}";r=${w.remaining};t=${Math.max(0, Math.ceil((w.reset - time) / 1000))}`;
  return {
    'X-RateLimit-Limit': String(first.limit),
    'X-RateLimit-Remaining': String(first.remaining),
    'X-RateLimit-Reset': String(Math.ceil(first.reset / 1000)),
    'RateLimit-Policy': policy,
    RateLimit: `${left(first)}, ${left(second)}`,
  };
}

/** The opaque `cursor` of a next-page link: `p1:<last id>` in base64url. */
export const encodeCursor = (id) => Buffer.from(`p1:${id}`).toString('base64url');

/** The id a cursor names, or `undefined` when it is not one {@link encodeCursor} made. */
export function decodeCursor(cursor) {
  if (!/^[A-Za-z0-9_-]{1,32}$/.test(cursor)) return undefined;
  const match = /^p1:([1-9][0-9]{0,15})$/.exec(Buffer.from(cursor, 'base64url').toString('latin1'));
  const id = match ? Number(match[1]) : NaN;
  return Number.isSafeInteger(id) && encodeCursor(id) === cursor ? id : undefined;
}

/**
 * One page of `GET /v1/pets` from storage for an already validated query (`limit`, `status`,
 * `cursor` strings): `{ pets, link }`, or a 400 Refusal for a limit out of range or a foreign cursor.
 */
export async function listPage(storage, query) {
  const limit = query.limit === undefined ? 20 : Number(query.limit);
  if (!(limit >= 1 && limit <= 100))
    throw invalid('Invalid query: limit must be an integer from 1 to 100.', [{ field: 'limit', message: 'must be an integer from 1 to 100' }]);
  let after = 0;
  if (query.cursor !== undefined) {
    const id = decodeCursor(query.cursor);
    const pet = id === undefined ? undefined : await storage.get(id);
    if (!pet || (query.status !== undefined && pet.status !== query.status)) {
      const message = 'is not a cursor from a Link header of this list';
      throw invalid(`Invalid query: cursor ${message}.`, [{ field: 'cursor', message }]);
    }
    after = id;
  }
  const found = await storage.list({ status: query.status, after, limit: limit + 1 });
  const pets = found.slice(0, limit);
  if (found.length <= limit) return { pets };
  const next = new URLSearchParams();
  if (query.limit !== undefined) next.set('limit', String(limit));
  if (query.status !== undefined) next.set('status', query.status);
  next.set('cursor', encodeCursor(pets.at(-1).id));
  return { pets, link: `</v1/pets?${next}>; rel="next"` };
}

/**
 * `POST /v1/pets` after validation: stores `{ name, categoryId, status }` (unknown fields dropped),
 * at most once per `Idempotency-Key` of this caller. Resolves to `{ pet, headers }`.
 */
export async function createPet(storage, body, idempotencyKey, keyId, now = Date.now()) {
  if (!body.name.isWellFormed())
    throw invalid('Invalid body: name must be well-formed Unicode text.', [{ field: 'name', message: 'must be well-formed Unicode text' }]);
  const newPet =
    body.status === undefined ? { name: body.name, categoryId: body.categoryId } : { name: body.name, categoryId: body.categoryId, status: body.status };
  if (idempotencyKey === undefined) {
    const pet = await storage.create(newPet);
    return { pet, headers: { Location: `/v1/pets/${pet.id}` } };
  }
  if (!/^[\x21-\x7e]{1,255}$/.test(idempotencyKey)) {
    throw invalid('Invalid header: Idempotency-Key must be 1 to 255 visible ASCII characters.', [
      { field: 'Idempotency-Key', message: 'must be 1 to 255 visible ASCII characters' },
    ]);
  }
  const fingerprint = JSON.stringify([newPet.name, newPet.categoryId, newPet.status ?? null]);
  const { record, created } = await storage.createOnce(`${keyId}:${idempotencyKey}`, fingerprint, newPet, now + DAY, now);
  if (record.fingerprint !== fingerprint) {
    throw new Refusal(422, 'idempotency_key_reused', 'This Idempotency-Key was used with a different body in the last 24 hours.');
  }
  const headers = { Location: `/v1/pets/${record.pet.id}` };
  if (!created) headers['Idempotent-Replayed'] = 'true';
  return { pet: record.pet, headers };
}
