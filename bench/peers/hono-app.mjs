// The Pet Store's GET and POST /v1/pets as a Hono 4 app, in its idiom: middleware for key and quota, hono/validator with valibot, c.json.
// Served by bench/peers/hono.mjs on Node (@hono/node-server) and bench/runtimes/server.mjs on Deno and Bun.
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { validator } from 'hono/validator';
import * as v from 'valibot';
import { anonymousSubject, createAuthenticator, createLimiter, createPet, FREE, invalid, listPage, MAX_BODY_BYTES, Refusal, STATUSES } from './rules.mjs';

const NewPet = v.object({
  name: v.pipe(v.string('must be a string'), v.minLength(1, 'must not be empty')),
  categoryId: v.pipe(v.number('must be an integer'), v.safeInteger('must be an integer between -(2^53-1) and 2^53-1')),
  status: v.optional(v.picklist(STATUSES, 'must be one of available, pending, sold')),
});
const ONCE = 'must appear at most once';
const ListQuery = v.object({
  limit: v.optional(v.pipe(v.string(ONCE), v.regex(/^[0-9]{1,16}$/, 'must be an integer from 1 to 100'))),
  status: v.optional(v.picklist(STATUSES, 'must be one of available, pending, sold')),
  cursor: v.optional(v.pipe(v.string(ONCE), v.regex(/^[A-Za-z0-9_-]{1,32}$/, 'is not a cursor from a Link header of this API'))),
});

/** Keys that could reach a prototype once a body is spread or merged: refused, as ours and Fastify's parser refuse them. */
const RESERVED = ['__proto__', 'constructor', 'prototype'];

/** `hono/validator` with a valibot schema: the output, or a 400 listing every problem. */
const valid = (target, schema, place) =>
  validator(target, (value) => {
    const reserved = RESERVED.find((key) => Object.hasOwn(value, key));
    if (reserved)
      throw invalid(`The request body uses a reserved key: ${reserved}.`, [{ field: reserved, message: `The request body uses a reserved key: ${reserved}.` }]);
    const result = v.safeParse(schema, value);
    if (result.success) return result.output;
    const details = result.issues.map((issue) => ({
      field: v.getDotPath(issue) ?? place,
      message: issue.kind === 'schema' && issue.type === 'object' && issue.path ? 'is required' : issue.message,
    }));
    throw invalid(`Invalid ${place}: ${details.map((d) => `${d.field} ${d.message}`).join('; ')}.`, details);
  });

const tooLarge = () => new Refusal(413, 'payload_too_large', `The request body is larger than ${MAX_BODY_BYTES} bytes.`, { Connection: 'close' });
const limitBody = bodyLimit({ maxSize: MAX_BODY_BYTES, onError: (c) => refuse(c, tooLarge()) });

/** An Error body as Hono's JSON response, with the refusal's own headers. */
const refuse = (c, refusal) => c.json(refusal, refusal.status, refusal.headers);

/**
 * The Hono app over the given stores and keys; serve its `fetch`. Callers without a key are told
 * apart by `X-Real-IP`, as behind a proxy (the same `clientAddress` our server is given).
 *
 * @example
 * Deno.serve({ port: 0 }, createApp({ storage, limitStore, apiKeys }).fetch);
 */
export function createApp({ storage, limitStore, apiKeys }) {
  const authenticate = createAuthenticator(apiKeys);
  const limit = createLimiter({ limitStore });
  const app = new Hono().basePath('/v1');

  app.use('*', async (c, next) => {
    const { caller, error } = authenticate(c.req.header('authorization'));
    const quota = await limit(caller ? caller.subject : anonymousSubject(c.req.header('x-real-ip')), caller ? caller.quota : FREE);
    for (const [name, value] of Object.entries(quota.headers)) c.header(name, value);
    const refusal = quota.refusal ?? error;
    if (refusal) return refuse(c, refusal);
    c.set('caller', caller);
    await next();
  });

  app.get('/pets', valid('query', ListQuery, 'query'), async (c) => {
    const { pets, link } = await listPage(storage, c.req.valid('query'));
    return c.json(pets, 200, link ? { Link: link } : undefined);
  });

  app.post(
    '/pets',
    async (c, next) => {
      // hono/body-limit reads c.req.raw.body, which makes @hono/node-server build a whole undici
      // Request: POST went from ~10,000 to ~3,700 req/s on Node. A declared length is checked as it
      // stands (the server never reads past it); only a chunked body goes through the middleware.
      const length = c.req.header('content-length');
      if (length === undefined) return limitBody(c, next);
      if (Number(length) > MAX_BODY_BYTES) return refuse(c, tooLarge());
      await next();
    },
    async (c, next) => {
      // hono/validator reads anything else as {}: not JSON is a 415, as the spec says.
      const type = (c.req.header('content-type') ?? '').split(';')[0].trim().toLowerCase();
      if (!/^application\/([a-z0-9.-]+\+)?json$/.test(type)) {
        return refuse(c, new Refusal(415, 'unsupported_media_type', 'The request body must be JSON: send Content-Type: application/json.'));
      }
      await next();
    },
    valid('json', NewPet, 'body'),
    async (c) => {
      const { pet, headers } = await createPet(storage, c.req.valid('json'), c.req.header('idempotency-key'), c.get('caller').keyId);
      return c.json(pet, 201, headers);
    },
  );

  app.notFound((c) => refuse(c, new Refusal(404, 'not_found', 'There is no such path in this API.')));
  app.onError((error, c) => {
    if (error instanceof Refusal) return refuse(c, error);
    if (error.status === 400) {
      const message = 'The request body is not valid JSON.';
      return refuse(c, invalid(message, [{ field: 'body', message }]));
    }
    return refuse(c, new Refusal(500, 'internal_error', 'The server failed to handle the request. Try again later.'));
  });

  return app;
}
