/** Builds the OpenAPI 3.1 document from the same valibot schemas that validate requests. */
import type * as v from 'valibot';
import { ErrorBodySchema } from '../response/api-error.ts';
import { NewPetSchema, PetSchema, PetStatusSchema } from '../storage/pet.ts';
import { CreateHeadersSchema, DEFAULT_LIMIT, ListQuerySchema, PetPathSchema } from './inputs.ts';
import { ref, schemaConverter } from './json-schema.ts';

type Json = Record<string, unknown>;

const DEFINITIONS = { PetStatus: PetStatusSchema, NewPet: NewPetSchema, Pet: PetSchema, Error: ErrorBodySchema };

const { schemaOf: jsonSchemaOf, components } = schemaConverter(DEFINITIONS, {
  // Query and path parameters arrive as strings; the document describes the values they carry.
  typeMode: 'output',
  // Cursor checks are code, not schema: the document says "opaque string", which is the truth.
  ignoreActions: ['check'],
});

/** Error responses by status, each with its description and the codes it carries. */
const ERROR_RESPONSES = {
  400: ['BadRequest', 'Invalid query, path parameter or body (`invalid_request`); `details` lists each problem.'],
  401: ['Unauthorized', 'Missing, malformed or unknown API key (`unauthorized`).'],
  404: ['NotFound', 'No such pet, or no such path (`not_found`).'],
  405: ['MethodNotAllowed', 'The path exists but not for this method (`method_not_allowed`); see `Allow`.'],
  410: ['Gone', 'The operation has passed its sunset date (`gone`).'],
  413: ['PayloadTooLarge', 'The body is larger than the configured limit (`payload_too_large`).'],
  415: ['UnsupportedMediaType', 'The body is not `application/json` (`unsupported_media_type`).'],
  422: ['IdempotencyKeyReused', 'The `Idempotency-Key` was used with a different body in the last 24 hours (`idempotency_key_reused`).'],
  429: [
    'TooManyRequests',
    'Quota exceeded (`rate_limited`), or the caller is temporarily banned for sending on after 429s (`key_banned`). Wait `Retry-After` seconds.',
  ],
  500: ['InternalError', 'The server failed, for example its storage (`internal_error`).'],
} as const;

type ErrorStatus = keyof typeof ERROR_RESPONSES;

/** A header the responses that list it always carry (the next-page link is the one optional header). */
const header = (description: string, schema: Json = { type: 'string' }) => ({ description, required: true, schema });
const pattern = (regex: string) => ({ type: 'string', pattern: regex });

/** The quota headers' definitions: sent on every response under the base path, errors included. */
const QUOTA_HEADER_DEFINITIONS = {
  'X-RateLimit-Limit': header('Requests allowed in the window that binds first (fewest remaining).', { type: 'integer', minimum: 1 }),
  'X-RateLimit-Remaining': header('Requests left in that window.', { type: 'integer', minimum: 0 }),
  'X-RateLimit-Reset': header('When that window resets (or a ban ends), in Unix seconds.', { type: 'integer' }),
  RateLimit: header(
    'draft-ietf-httpapi-ratelimit-headers-11: every window, binding first, e.g. `"minute";r=59;t=37, "day";r=990;t=50000`.',
    pattern('^"[a-z]+";r=[0-9]+;t=[0-9]+(, "[a-z]+";r=[0-9]+;t=[0-9]+)*$'),
  ),
  'RateLimit-Policy': header(
    'draft-ietf-httpapi-ratelimit-headers-11: the plan, e.g. `"minute";q=60;w=60, "day";q=1000;w=86400`.',
    pattern('^"[a-z]+";q=[0-9]+;w=[0-9]+(, "[a-z]+";q=[0-9]+;w=[0-9]+)*$'),
  ),
};
const QUOTA_HEADERS = Object.fromEntries(Object.keys(QUOTA_HEADER_DEFINITIONS).map((name) => [name, ref('headers', name)]));

/** On a 500 the quota headers may be missing: the limit store itself may be what failed. */
const QUOTA_HEADERS_IF_KNOWN = Object.fromEntries(
  Object.entries(QUOTA_HEADER_DEFINITIONS).map(([name, definition]) => [
    name,
    { ...definition, required: false, description: `${definition.description} Absent when the limit store failed.` },
  ]),
);

/** A success response: its own headers plus the quota headers. */
function success(description: string, schema: Json, headers: Json = {}): Json {
  return { description, headers: { ...headers, ...QUOTA_HEADERS }, content: json(schema) };
}

/** Headers every response of the deprecated GET /pets/{petId} carries. */
const DEPRECATION_HEADERS = {
  Deprecation: ref('headers', 'Deprecation'),
  Sunset: ref('headers', 'Sunset'),
  Link: ref('headers', 'SuccessorLink'),
};

/** Only GET /pets/{petId} answers these, so their shared definitions carry its deprecation headers. */
const DEPRECATED_ONLY: readonly ErrorStatus[] = [404, 410];

/** References to the shared error responses; `extraHeaders` makes an inline copy where needed. */
function errorResponses(statuses: readonly ErrorStatus[], extraHeaders?: Json): Json {
  return Object.fromEntries(
    statuses.map((status) => {
      if (!extraHeaders || DEPRECATED_ONLY.includes(status)) return [status, ref('responses', ERROR_RESPONSES[status][0])];
      // A response with extra headers cannot be a bare $ref, so it repeats the shape inline.
      const base = errorResponseObject(status);
      return [status, { ...base, headers: { ...(base.headers as Json), ...extraHeaders } }];
    }),
  );
}

function errorResponseObject(status: ErrorStatus): Json {
  const headers: Json = status === 500 ? { ...QUOTA_HEADERS_IF_KNOWN } : { ...QUOTA_HEADERS };
  if (DEPRECATED_ONLY.includes(status)) Object.assign(headers, DEPRECATION_HEADERS);
  if (status === 429) headers['Retry-After'] = ref('headers', 'Retry-After');
  if (status === 401) headers['WWW-Authenticate'] = ref('headers', 'WWW-Authenticate');
  if (status === 405) headers.Allow = ref('headers', 'Allow');
  return {
    description: ERROR_RESPONSES[status][1],
    headers,
    content: { 'application/json': { schema: ref('schemas', 'Error') } },
  };
}

function parametersOf(schema: v.ObjectSchema<v.ObjectEntries, undefined>, place: 'query' | 'path' | 'header'): Json[] {
  return Object.entries(schema.entries).map(([name, entry]) => {
    const parameter: Json = { name, in: place, required: entry.type !== 'optional', schema: jsonSchemaOf(entry) };
    const description = (parameter.schema as Json).description;
    if (description) parameter.description = description;
    if (name === 'limit') (parameter.schema as Json).default = DEFAULT_LIMIT;
    return parameter;
  });
}

const json = (schema: Json) => ({ 'application/json': { schema } });

/** The OpenAPI 3.1 description of this API, served from `serverUrl` (the base path, or `publicUrl`). */
export function openApiDocument(serverUrl: string): Json {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Pet Store',
      version: '1.0.0',
      license: { name: 'MIT', identifier: 'MIT' },
      description:
        'HTTP JSON interface to the inventory of a pet store. Every error is an `Error` body whose ' +
        '`status` equals the HTTP status. A known path called with another method answers 405 ' +
        '`method_not_allowed` with `Allow`.',
    },
    servers: [{ url: serverUrl || '/' }],
    security: [{ bearerAuth: [] }],
    paths: {
      '/pets': {
        get: {
          operationId: 'listPets',
          summary: 'List pets in ascending id order, optionally by status.',
          parameters: parametersOf(ListQuerySchema, 'query'),
          responses: {
            200: success(
              'One page of pets. `Link: rel="next"` is present while more pets match.',
              { type: 'array', items: ref('schemas', 'Pet') },
              { Link: ref('headers', 'NextLink') },
            ),
            ...errorResponses([400, 401, 429, 500]),
          },
        },
        post: {
          operationId: 'createPet',
          summary: 'Add a pet. Unknown fields are ignored.',
          parameters: parametersOf(CreateHeadersSchema, 'header'),
          requestBody: { required: true, content: json(ref('schemas', 'NewPet')) },
          responses: {
            201: success('The pet was stored (or, for a repeated `Idempotency-Key`, had been); the body includes its `id`.', ref('schemas', 'Pet'), {
              Location: header('Path of the new pet.'),
              'Idempotent-Replayed': { ...header('`true` when this answers a repeated `Idempotency-Key`.', pattern('^true$')), required: false },
            }),
            ...errorResponses([400, 401, 413, 415, 422, 429, 500]),
          },
        },
      },
      '/pets/{petId}': {
        get: {
          operationId: 'getPet',
          summary: 'Fetch one pet. Deprecated: use GET /pets with the status filter.',
          deprecated: true,
          parameters: parametersOf(PetPathSchema, 'path'),
          responses: {
            200: success('The pet.', ref('schemas', 'Pet'), DEPRECATION_HEADERS),
            ...errorResponses([400, 401, 404, 410, 429, 500], DEPRECATION_HEADERS),
          },
        },
      },
      '/openapi.json': {
        get: {
          operationId: 'getOpenApiDocument',
          summary: 'This document. Public: no API key needed; limited per client address like anonymous callers.',
          security: [],
          responses: {
            200: success('The OpenAPI 3.1 document.', { type: 'object' }),
            ...errorResponses([429]),
          },
        },
      },
    },
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <API key>' } },
      schemas: components(),
      responses: Object.fromEntries(Object.entries(ERROR_RESPONSES).map(([status, [name]]) => [name, errorResponseObject(Number(status) as ErrorStatus)])),
      headers: {
        NextLink: {
          ...header(
            'RFC 8288 link to the next page, sent while more pets match.',
            pattern('^<(https?://[^/>]+)?/[^>]*[?&]cursor=[A-Za-z0-9_-]+[^>]*>; rel="next"$'),
          ),
          required: false,
        },
        SuccessorLink: header('RFC 8288 link to the replacement.', pattern('^<[^>]+/pets>; rel="successor-version"$')),
        Deprecation: header('RFC 9745: when the operation was deprecated, as `@<unix seconds>`.', pattern('^@[0-9]+$')),
        Sunset: header('RFC 8594: when the operation stops working, as an HTTP date.'),
        'WWW-Authenticate': header(
          'RFC 6750 challenge: `Bearer realm="petstore"`, with `error="invalid_token"` for an unknown key.',
          pattern('^Bearer realm="petstore"(, error="invalid_token")?$'),
        ),
        Allow: header('Methods the path supports.', pattern('^[A-Z]+(, [A-Z]+)*$')),
        'Retry-After': header('Whole seconds to wait before retrying (at least 1).', { type: 'integer', minimum: 1 }),
        ...QUOTA_HEADER_DEFINITIONS,
      },
    },
  };
}
