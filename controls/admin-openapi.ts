/** The OpenAPI 3.1 document of the admin API, served at `/__admin/openapi.json`. */

const error = { $ref: '#/components/schemas/Error' };
const errors = {
  '400': { description: 'A body the operation cannot use.', content: { 'application/json': { schema: error } } },
  '401': { description: 'No or wrong admin token.', content: { 'application/json': { schema: error } } },
};
const jsonBody = (schema: object, description: string) => ({ required: true, description, content: { 'application/json': { schema } } });
const jsonAnswer = (schema: object, description: string) => ({ description, content: { 'application/json': { schema } } });
const noContent = { '204': { description: 'Done.' }, '401': errors['401'] };
const clockAnswer = jsonAnswer({ type: 'object', required: ['now'], properties: { now: { type: 'string', format: 'date-time' } } }, 'The store\u2019s time now.');

/** The admin API's document; its paths are relative to the mount path (`/__admin/...`). */
export const adminOpenApiDocument = {
  openapi: '3.1.0',
  info: {
    title: 'Pet Store admin API',
    version: '1',
    description:
      'Controls of a petstore-service fake backend: reset, seed, clock, faults and the request journal. Off unless an admin token is set; every operation needs `Authorization: Bearer <admin token>`. Admin requests are never rate limited, delayed, faulted or journaled.',
  },
  components: {
    securitySchemes: { adminToken: { type: 'http', scheme: 'bearer' } },
    schemas: {
      Error: {
        type: 'object',
        required: ['code', 'message', 'status'],
        properties: { code: { type: 'string' }, message: { type: 'string' }, status: { type: 'integer' }, details: { type: 'array', items: { type: 'object' } } },
      },
      Pet: {
        type: 'object',
        required: ['id', 'name', 'categoryId'],
        properties: { id: { type: 'integer' }, name: { type: 'string' }, categoryId: { type: 'integer' }, status: { enum: ['available', 'pending', 'sold'] } },
      },
      FaultRule: {
        type: 'object',
        additionalProperties: false,
        description: 'One fault. Without status or network it only delays. The first matching failure answers; every matching rule adds its delay.',
        properties: {
          status: { type: 'integer', minimum: 400, maximum: 599, description: 'Answer this status with the API\u2019s Error body and headers (429: Retry-After and quota headers).' },
          code: { type: 'string', description: 'The Error body\u2019s code; default the API\u2019s for the status.' },
          message: { type: 'string' },
          network: { enum: ['reset', 'hang'], description: 'reset: the connection is closed with no answer; hang: no answer until the client aborts.' },
          delayMs: { type: 'integer', minimum: 0 },
          times: { oneOf: [{ type: 'integer', minimum: 1 }, { const: 'always' }], default: 1 },
          probability: { type: 'number', minimum: 0, maximum: 1, default: 1 },
          method: { type: 'string' },
          path: { type: 'string', description: 'Only requests with exactly this path, e.g. /v1/pets.' },
          afterHandling: { type: 'boolean', description: 'Handle the request, then answer the fault (a response lost after the commit).' },
          retryAfterSeconds: { type: 'integer', minimum: 1, default: 1 },
        },
      },
      RecordedExchange: {
        type: 'object',
        properties: {
          method: { type: 'string' },
          path: { type: 'string' },
          query: { type: 'string' },
          url: { type: 'string' },
          requestHeaders: { type: 'object', additionalProperties: { type: 'string' }, description: 'authorization keeps its scheme only.' },
          requestBody: { type: 'string' },
          status: { type: 'integer', description: '0 when a network fault reset or hung the request.' },
          responseHeaders: { type: 'object', additionalProperties: { type: 'string' } },
          responseBody: { type: 'string' },
          ms: { type: 'number' },
          time: { type: 'string', format: 'date-time' },
        },
      },
    },
  },
  security: [{ adminToken: [] }],
  paths: {
    '/__admin/reset': {
      post: { summary: 'Start over: pets, ids, counters, bans, idempotency keys, faults and the journal. Requests a fault is holding end with a 503 and store nothing.', responses: noContent },
    },
    '/__admin/seed': {
      post: {
        summary: 'Store pets, each validated like a POST /pets body; one invalid pet (named by its 0-based index) stores none.',
        requestBody: jsonBody({ type: 'array', items: { type: 'object' } }, 'Pets without ids.'),
        responses: { '201': jsonAnswer({ type: 'array', items: { $ref: '#/components/schemas/Pet' } }, 'The stored pets with their ids.'), ...errors },
      },
    },
    '/__admin/pets': { get: { summary: 'Every stored pet, in id order.', responses: { '200': jsonAnswer({ type: 'array', items: { $ref: '#/components/schemas/Pet' } }, 'Every pet.'), '401': errors['401'] } } },
    '/__admin/clock': {
      get: { summary: 'The store\u2019s time.', responses: { '200': clockAnswer, '401': errors['401'] } },
      post: {
        summary: 'Move the clock by hand; from then on it stands still but when moved (rate windows, bans and the sunset date follow it).',
        requestBody: jsonBody(
          { oneOf: [{ type: 'object', required: ['advanceMs'], properties: { advanceMs: { type: 'number', minimum: 0 } } }, { type: 'object', required: ['set'], properties: { set: { type: 'string', format: 'date-time' } } }] },
          '{"advanceMs": n} or {"set": "<ISO date>"}.',
        ),
        responses: { '200': clockAnswer, ...errors },
      },
    },
    '/__admin/faults': {
      get: { summary: 'Faults that can still apply, with their ids and how many requests they have left.', responses: { '200': jsonAnswer({ type: 'array', items: { $ref: '#/components/schemas/FaultRule' } }, 'Pending faults.'), '401': errors['401'] } },
      post: {
        summary: 'Inject a fault.',
        requestBody: jsonBody({ $ref: '#/components/schemas/FaultRule' }, 'The fault.'),
        responses: { '201': jsonAnswer({ type: 'object', required: ['id'], properties: { id: { type: 'string' } } }, 'Its id.'), ...errors },
      },
      delete: { summary: 'Remove every fault.', responses: noContent },
    },
    '/__admin/requests': {
      get: { summary: 'The journal: every API request since the last reset or clear, oldest first.', responses: { '200': jsonAnswer({ type: 'array', items: { $ref: '#/components/schemas/RecordedExchange' } }, 'The journal.'), '401': errors['401'] } },
      delete: { summary: 'Clear the journal.', responses: noContent },
    },
    '/__admin/openapi.json': { get: { summary: 'This document.', responses: { '200': { description: 'OpenAPI 3.1.' }, '401': errors['401'] } } },
  },
} as const;
