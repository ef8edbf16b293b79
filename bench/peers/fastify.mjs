// The Pet Store's GET and POST /v1/pets on Fastify 5, in its idiom: an onRequest hook for key and quota, JSON-schema routes, one error handler.
import Fastify from 'fastify';
import { anonymousSubject, createAuthenticator, createLimiter, createPet, FREE, listPage, MAX_BODY_BYTES, Refusal, STATUSES } from './rules.mjs';

const SAFE = Number.MAX_SAFE_INTEGER;
const PET = {
  type: 'object',
  properties: { id: { type: 'integer' }, name: { type: 'string' }, categoryId: { type: 'integer' }, status: { type: 'string' } },
};
const NEW_PET = {
  type: 'object',
  required: ['name', 'categoryId'],
  properties: {
    name: { type: 'string', minLength: 1 },
    categoryId: { type: 'integer', minimum: -SAFE, maximum: SAFE },
    status: { type: 'string', enum: STATUSES },
  },
};
const LIST_QUERY = {
  type: 'object',
  properties: {
    limit: { type: 'string', pattern: '^[0-9]{1,16}$' },
    status: { type: 'string', enum: STATUSES },
    cursor: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,32}$' },
  },
};

/**
 * Listens on 127.0.0.1 (any free port) and resolves to the port. Callers without a key are told
 * apart by `X-Real-IP`, as behind a proxy (the same `clientAddress` our server is given).
 */
export async function listen({ storage, limitStore, apiKeys }) {
  // Types are not coerced ("1" is no categoryId); every problem is listed, as ours lists them;
  // idle connections kept 5 s, Node's default and ours (Fastify's own is 72 s).
  const app = Fastify({ bodyLimit: MAX_BODY_BYTES, keepAliveTimeout: 5_000, ajv: { customOptions: { coerceTypes: false, allErrors: true } } });
  const authenticate = createAuthenticator(apiKeys);
  const limit = createLimiter({ limitStore });

  await app.register(
    async (api) => {
      // JSON only (application/json and any +json type): text/plain is a 415 here too.
      api.removeContentTypeParser('text/plain');
      api.addContentTypeParser(/^application\/[a-z0-9.-]+\+json$/, { parseAs: 'string' }, api.getDefaultJsonParser('error', 'error'));

      api.decorateRequest('caller', null);
      api.addHook('onRequest', async (request, reply) => {
        const { caller, error } = authenticate(request.headers.authorization);
        const quota = await limit(caller ? caller.subject : anonymousSubject(request.headers['x-real-ip']), caller ? caller.quota : FREE);
        reply.headers(quota.headers);
        const refusal = quota.refusal ?? error;
        if (refusal)
          return reply
            .code(refusal.status)
            .headers(refusal.headers ?? {})
            .type('application/json')
            .send(refusal.toJSON());
        request.caller = caller;
      });

      api.get('/pets', { schema: { querystring: LIST_QUERY, response: { 200: { type: 'array', items: PET } } } }, async (request, reply) => {
        const { pets, link } = await listPage(storage, request.query);
        if (link) reply.header('Link', link);
        return reply.type('application/json').send(pets);
      });

      api.post('/pets', { schema: { body: NEW_PET, response: { 201: PET } } }, async (request, reply) => {
        const { pet, headers } = await createPet(storage, request.body, request.headers['idempotency-key'], request.caller.keyId);
        return reply.code(201).headers(headers).type('application/json').send(pet);
      });

      api.setNotFoundHandler((request, reply) =>
        reply
          .code(404)
          .type('application/json')
          .send(new Refusal(404, 'not_found', 'There is no such path in this API.').toJSON()),
      );
      api.setErrorHandler((error, request, reply) => {
        const refusal = refusalFor(error);
        reply
          .code(refusal.status)
          .headers(refusal.headers ?? {})
          .type('application/json')
          .send(refusal.toJSON());
      });
    },
    { prefix: '/v1' },
  );
  await app.listen({ port: 0, host: '127.0.0.1' });
  return app.server.address().port;
}

/** Fastify's errors (validation, parsing, size) as the API's Error bodies. */
function refusalFor(error) {
  if (error instanceof Refusal) return error;
  if (error.validation) {
    const place = error.validationContext === 'querystring' ? 'query' : error.validationContext;
    const details = error.validation.map((issue) => ({
      field: issue.params?.missingProperty ?? (issue.instancePath.slice(1).replaceAll('/', '.') || place),
      message: issue.keyword === 'required' ? 'is required' : issue.message,
    }));
    return new Refusal(400, 'invalid_request', `Invalid ${place}: ${details.map((d) => `${d.field} ${d.message}`).join('; ')}.`, undefined, details);
  }
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    return new Refusal(415, 'unsupported_media_type', 'The request body must be JSON: send Content-Type: application/json.');
  }
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    return new Refusal(413, 'payload_too_large', `The request body is larger than ${MAX_BODY_BYTES} bytes.`, { Connection: 'close' });
  }
  if (error.statusCode === 400) {
    const message = error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ? 'The request body is empty; send a JSON object.' : 'The request body is not valid JSON.';
    return new Refusal(400, 'invalid_request', message, undefined, [{ field: 'body', message }]);
  }
  return new Refusal(500, 'internal_error', 'The server failed to handle the request. Try again later.');
}
