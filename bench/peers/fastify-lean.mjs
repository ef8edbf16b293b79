// The Pet Store's GET and POST /v1/pets on Fastify 5 as an expert writes them for speed: synchronous routes, key digest, both windows and every header inline, no schemas, no hooks.
import { createHash } from 'node:crypto';
import Fastify from 'fastify';
import { anonymousSubject, decodeCursor, encodeCursor, FREE, MAX_BODY_BYTES, STATUSES } from './rules.mjs';

const MINUTE = 60_000;
const DAY = 86_400_000;
/** Refusals within one minute window past which a subject is banned, and for how long: the spec's, as rules.mjs has them. */
const BAN_THRESHOLD = 10;
const BAN_MS = 15 * MINUTE;
/** Anonymous callers whose counters are held, as many as memoryLimitStore holds; the oldest seen first is dropped past it. */
const MAX_ADDRESSES = 100_000;
const CHALLENGE = 'Bearer realm="petstore"';
const BEARER = /^[ \t]*bearer[ \t]+(\S+)[ \t]*$/i;
/** A dotted quad without leading zeros: its own subject, so the common case skips ipaddr.js (anything else goes through it). */
const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
const JSON_TYPE = 'application/json';

/** An Error body as the API words it. */
const error = (status, code, message, details) => JSON.stringify(details ? { code, message, status, details } : { code, message, status });
// The refusals that never change, serialized once.
const INVALID_BODY_JSON = error(400, 'invalid_request', 'The request body is not valid JSON.', [
  { field: 'body', message: 'The request body is not valid JSON.' },
]);
const NO_KEY = error(401, 'unauthorized', 'Send an API key: Authorization: Bearer <key>.');
const BAD_KEY = error(401, 'unauthorized', 'The API key is not valid.');
const NOT_FOUND = error(404, 'not_found', 'There is no such path in this API.');
const NOT_JSON = error(415, 'unsupported_media_type', 'The request body must be JSON: send Content-Type: application/json.');

/**
 * Listens on 127.0.0.1 (any free port) and resolves to the port. Pets live in arrays here, as
 * memoryPetStorage keeps them, seeded from `storage`'s first pets; counters in Maps (the memory
 * limit store's work without its interface). Callers without a key are told apart by `X-Real-IP`.
 */
export async function listen({ storage, apiKeys }) {
  const callers = new Map();
  for (const [key, quota] of Object.entries(apiKeys)) {
    const keyId = digest(key);
    const policy = `"minute";q=${quota.perMinute};w=60, "day";q=${quota.perDay};w=86400`;
    callers.set(keyId, { keyId, subject: `key:${keyId}`, quota, policy });
  }
  const freePolicy = `"minute";q=${FREE.perMinute};w=60, "day";q=${FREE.perDay};w=86400`;
  const keyCounters = new Map();
  const addressCounters = new Map();
  const bans = new Map();
  const all = [];
  const byStatus = new Map(STATUSES.map((status) => [status, []]));
  const idempotency = new Map();
  // Each pet's JSON, made once (pets never change), as ours reuses it: a page is then a join,
  // not 20 serializations. JSON.stringify was ~13 % of this peer's GET samples under perf; with
  // the texts, its server CPU per GET went from 1.13× ours to 0.79× (bench/cpu-per-request.mjs
  // petstore fastify-lean fastify, 5 rounds of 2 s, medians of per-round ratios, busy 2-core VM).
  const texts = [];
  const store = ({ name, categoryId, status }) => {
    const pet = status === undefined ? { id: all.length + 1, name, categoryId } : { id: all.length + 1, name, categoryId, status };
    all.push(pet);
    texts.push(JSON.stringify(pet));
    if (status !== undefined) byStatus.get(status).push(pet);
    return pet;
  };
  for (const pet of await storage.list({ after: 0, limit: 1_000 })) store(pet);

  /**
   * Key, quota and ban for one request: sets the five quota headers and returns the caller, or
   * sends the 401 or 429 and returns undefined. Counters are [minuteStart, minuteUsed, dayStart,
   * dayUsed, refusedIn, refused], counted as rules.mjs's createLimiter counts them.
   */
  function gate(request, reply) {
    const time = Date.now();
    const header = request.headers.authorization;
    const token = header === undefined ? undefined : BEARER.exec(header)?.[1];
    const caller = token !== undefined && token.length <= 4096 ? callers.get(digest(token)) : undefined;
    let subject;
    let counters;
    if (caller) {
      subject = caller.subject;
      counters = keyCounters;
    } else {
      const address = request.headers['x-real-ip'];
      subject = address !== undefined && IPV4.test(address) ? `address:${address}` : anonymousSubject(address);
      counters = addressCounters;
    }
    const { perMinute, perDay } = caller ? caller.quota : FREE;
    const minute = time - (time % MINUTE);
    const day = time - (time % DAY);
    let entry = counters.get(subject);
    if (entry === undefined) {
      entry = [minute, 0, day, 0, 0, 0];
      counters.set(subject, entry);
      if (counters === addressCounters && counters.size > MAX_ADDRESSES) counters.delete(counters.keys().next().value);
    }
    if (entry[0] !== minute) (entry[0] = minute), (entry[1] = 0);
    if (entry[2] !== day) (entry[2] = day), (entry[3] = 0);
    let until = bans.get(subject);
    if (until !== undefined && until <= time) bans.delete(subject), (until = undefined);
    let minuteLeft = perMinute - entry[1];
    let dayLeft = perDay - entry[3];
    let minuteReset = minute + MINUTE;
    let retryAfter;
    let refusal;
    if (until === undefined && minuteLeft > 0 && dayLeft > 0) {
      entry[1]++, entry[3]++, minuteLeft--, dayLeft--;
    } else {
      if (until === undefined) {
        entry[5] = entry[4] === minute ? entry[5] + 1 : 1;
        entry[4] = minute;
        if (entry[5] > BAN_THRESHOLD) bans.set(subject, (until = time + BAN_MS));
      }
      if (until !== undefined) {
        // A ban shows on the minute window: nothing left until it ends.
        minuteLeft = 0;
        if (until > minuteReset) minuteReset = until;
        retryAfter = Math.max(1, Math.ceil((until - time) / 1000));
        refusal = error(429, 'key_banned', `Too many requests after being limited; banned for ${retryAfter} more seconds.`);
      } else {
        retryAfter = Math.max(1, Math.ceil(((dayLeft <= 0 ? day + DAY : minuteReset) - time) / 1000));
        refusal = error(429, 'rate_limited', `Rate limit exceeded; retry in ${retryAfter} seconds.`);
      }
      minuteLeft = Math.max(0, minuteLeft);
      dayLeft = Math.max(0, dayLeft);
    }
    // The window that binds first (fewest left, then the later reset) leads, in X-RateLimit-* and RateLimit alike.
    const dayReset = day + DAY;
    const minuteField = `"minute";r=${minuteLeft};t=${Math.ceil((minuteReset - time) / 1000)}`;
    const dayField = `"day";r=${dayLeft};t=${Math.ceil((dayReset - time) / 1000)}`;
    const minuteFirst = minuteLeft < dayLeft || (minuteLeft === dayLeft && minuteReset >= dayReset);
    reply.header('X-RateLimit-Limit', String(minuteFirst ? perMinute : perDay));
    reply.header('X-RateLimit-Remaining', String(minuteFirst ? minuteLeft : dayLeft));
    reply.header('X-RateLimit-Reset', String(Math.ceil((minuteFirst ? minuteReset : dayReset) / 1000)));
    reply.header('RateLimit-Policy', caller ? caller.policy : freePolicy);
    reply.header('RateLimit', minuteFirst ? `${minuteField}, ${dayField}` : `${dayField}, ${minuteField}`);
    if (refusal !== undefined) {
      reply.code(429).header('Retry-After', String(retryAfter)).type(JSON_TYPE).send(refusal);
      return undefined;
    }
    if (caller) return caller;
    const missing = token === undefined;
    reply
      .code(401)
      .header('WWW-Authenticate', missing ? CHALLENGE : `${CHALLENGE}, error="invalid_token"`)
      .type(JSON_TYPE)
      .send(missing ? NO_KEY : BAD_KEY);
    return undefined;
  }

  const invalid = (reply, message, field, detail) =>
    reply
      .code(400)
      .type(JSON_TYPE)
      .send(error(400, 'invalid_request', message, [{ field, message: detail }]));

  const app = Fastify({ bodyLimit: MAX_BODY_BYTES, keepAliveTimeout: 5_000 });
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser(/^application\/[a-z0-9.-]+\+json$/, { parseAs: 'string' }, app.getDefaultJsonParser('error', 'error'));

  // Handlers return nothing: a value returned from a synchronous handler is sent again (a warning, and an error object built).
  app.get('/v1/pets', (request, reply) => {
    if (gate(request, reply) === undefined) return;
    const { limit: limitText, status, cursor } = request.query;
    let limit = 20;
    if (limitText !== undefined) {
      limit = typeof limitText === 'string' && /^[0-9]{1,16}$/.test(limitText) ? Number(limitText) : 0;
      if (!(limit >= 1 && limit <= 100)) {
        const detail = typeof limitText === 'string' ? 'must be an integer from 1 to 100' : 'must appear at most once';
        return void invalid(reply, `Invalid query: limit ${detail}.`, 'limit', detail);
      }
    }
    if (status !== undefined && !STATUSES.includes(status)) {
      return void invalid(reply, 'Invalid query: status must be one of available, pending, sold.', 'status', 'must be one of available, pending, sold');
    }
    const pets = status === undefined ? all : byStatus.get(status);
    let start = 0;
    if (cursor !== undefined) {
      const id = typeof cursor === 'string' ? decodeCursor(cursor) : undefined;
      const pet = id === undefined ? undefined : all[id - 1];
      if (pet === undefined || (status !== undefined && pet.status !== status)) {
        const message = 'is not a cursor from a Link header of this list';
        return void invalid(reply, `Invalid query: cursor ${message}.`, 'cursor', message);
      }
      start = firstAfter(pets, id);
    }
    const page = pets.slice(start, start + limit);
    if (start + limit < pets.length) {
      const next = `cursor=${encodeCursor(page[page.length - 1].id)}`;
      const query = `${limitText === undefined ? '' : `limit=${limit}&`}${status === undefined ? '' : `status=${status}&`}${next}`;
      reply.header('Link', `</v1/pets?${query}>; rel="next"`);
    }
    let json = '[';
    for (let i = 0; i < page.length; i++) json += i === 0 ? texts[page[i].id - 1] : `,${texts[page[i].id - 1]}`;
    reply.type(JSON_TYPE).send(`${json}]`);
  });

  app.post('/v1/pets', (request, reply) => {
    const caller = gate(request, reply);
    if (caller === undefined) return;
    const body = request.body;
    if (body === null || typeof body !== 'object' || Array.isArray(body))
      return void invalid(reply, 'Invalid body: body must be an object.', 'body', 'must be an object');
    const { name, categoryId, status } = body;
    if (typeof name !== 'string' || name === '')
      return void invalid(reply, 'Invalid body: name must be a non-empty string.', 'name', 'must be a non-empty string');
    if (!name.isWellFormed()) return void invalid(reply, 'Invalid body: name must be well-formed Unicode text.', 'name', 'must be well-formed Unicode text');
    if (!Number.isSafeInteger(categoryId)) return void invalid(reply, 'Invalid body: categoryId must be an integer.', 'categoryId', 'must be an integer');
    if (status !== undefined && !STATUSES.includes(status)) {
      return void invalid(reply, 'Invalid body: status must be one of available, pending, sold.', 'status', 'must be one of available, pending, sold');
    }
    const idempotencyKey = request.headers['idempotency-key'];
    let pet;
    if (idempotencyKey === undefined) pet = store({ name, categoryId, status });
    else {
      if (!/^[\x21-\x7e]{1,255}$/.test(idempotencyKey)) {
        const detail = 'must be 1 to 255 visible ASCII characters';
        return void invalid(reply, `Invalid header: Idempotency-Key ${detail}.`, 'Idempotency-Key', detail);
      }
      const time = Date.now();
      // Insertion order is expiry order (one fixed lifetime): ended records are swept from the front.
      for (const [key, record] of idempotency) {
        if (record.expiresAt > time) break;
        idempotency.delete(key);
      }
      const fingerprint = JSON.stringify([name, categoryId, status ?? null]);
      const key = `${caller.keyId}:${idempotencyKey}`;
      const found = idempotency.get(key);
      if (found === undefined) idempotency.set(key, { fingerprint, pet: (pet = store({ name, categoryId, status })), expiresAt: time + DAY });
      else if (found.fingerprint !== fingerprint) {
        return void reply
          .code(422)
          .type(JSON_TYPE)
          .send(error(422, 'idempotency_key_reused', 'This Idempotency-Key was used with a different body in the last 24 hours.'));
      } else {
        pet = found.pet;
        reply.header('Idempotent-Replayed', 'true');
      }
    }
    reply
      .code(201)
      .header('Location', `/v1/pets/${pet.id}`)
      .type(JSON_TYPE)
      .send(texts[pet.id - 1]);
  });

  app.setNotFoundHandler((request, reply) => {
    if (gate(request, reply) === undefined) return;
    return void reply.code(404).type(JSON_TYPE).send(NOT_FOUND);
  });
  // A body Fastify refused before the route ran: the key and quota first, as the routes do, then the body's refusal.
  app.setErrorHandler((failure, request, reply) => {
    if (gate(request, reply) === undefined) return;
    if (failure.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return void reply.code(415).type(JSON_TYPE).send(NOT_JSON);
    }
    if (failure.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return void reply
        .code(413)
        .header('Connection', 'close')
        .type(JSON_TYPE)
        .send(error(413, 'payload_too_large', `The request body is larger than ${MAX_BODY_BYTES} bytes.`));
    }
    if (failure.statusCode === 400) return void reply.code(400).type(JSON_TYPE).send(INVALID_BODY_JSON);
    return void reply
      .code(500)
      .type(JSON_TYPE)
      .send(error(500, 'internal_error', 'The server failed to handle the request. Try again later.'));
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return app.server.address().port;
}

/** The first 128 bits of SHA-256, in hex: the key table's index, as rules.mjs computes it. */
const digest = (text) => createHash('sha256').update(text).digest('hex').slice(0, 32);

/** Binary search: index of the first pet with an id greater than `after`. */
function firstAfter(pets, after) {
  let low = 0;
  let high = pets.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (pets[middle].id <= after) low = middle + 1;
    else high = middle;
  }
  return low;
}
