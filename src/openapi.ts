/** Builds the OpenAPI 3.1 document from the same valibot schemas that validate requests. */
import { toJsonSchema, toJsonSchemaDefs, type ConversionConfig, type JsonSchema } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import type { ResolvedOptions } from './options.ts';
import {
  DEFAULT_LIMIT,
  ErrorBodySchema,
  ListQuerySchema,
  NewPetSchema,
  PetPathSchema,
  PetSchema,
  PetStatusSchema,
} from './schemas.ts';

type Json = Record<string, unknown>;

const DEFINITIONS = { PetStatus: PetStatusSchema, NewPet: NewPetSchema, Pet: PetSchema, Error: ErrorBodySchema };

const CONVERSION: ConversionConfig = {
  target: 'draft-2020-12',
  // Query and path parameters arrive as strings; the document describes the values they carry.
  typeMode: 'output',
  // Cursor checks are code, not schema: the document says "opaque string", which is the truth.
  ignoreActions: ['check'],
  definitions: DEFINITIONS,
  overrideRef: ({ referenceId }) => `#/components/schemas/${referenceId}`,
};

/** A JSON Schema for an OpenAPI document: components are referenced, never inlined. */
export function jsonSchemaOf(schema: v.GenericSchema): JsonSchema {
  const { $schema: _, $defs: __, ...rest } = toJsonSchema(schema, CONVERSION);
  return rest;
}

/** Error responses by status, each with its description and the codes it carries. */
const ERROR_RESPONSES = {
  400: ['BadRequest', 'Invalid query, path parameter or body (`invalid_request`); `details` lists each problem.'],
  401: ['Unauthorized', 'Missing, malformed or unknown API key (`unauthorized`).'],
  404: ['NotFound', 'No such pet, or no such path (`not_found`).'],
  405: ['MethodNotAllowed', 'The path exists but not for this method (`method_not_allowed`); see `Allow`.'],
  410: ['Gone', 'The operation has passed its sunset date (`gone`).'],
  413: ['PayloadTooLarge', 'The body is larger than the configured limit (`payload_too_large`).'],
  415: ['UnsupportedMediaType', 'The body is not `application/json` (`unsupported_media_type`).'],
  500: ['InternalError', 'The server failed, for example its storage (`internal_error`).'],
} as const;

type ErrorStatus = keyof typeof ERROR_RESPONSES;

const header = (description: string, schema: Json = { type: 'string' }) => ({ description, schema });
const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

function errorResponses(statuses: readonly ErrorStatus[], headers: Json = {}): Json {
  return Object.fromEntries(
    statuses.map((status) => {
      const [name] = ERROR_RESPONSES[status];
      // A response with extra headers cannot be a bare $ref, so it repeats the shape inline.
      if (Object.keys(headers).length === 0) return [status, ref('responses', name)];
      const base = errorResponseObject(status);
      return [status, { ...base, headers: { ...(base.headers as Json), ...headers } }];
    }),
  );
}

function errorResponseObject(status: ErrorStatus): Json {
  const headers: Json = {};
  if (status === 401) headers['WWW-Authenticate'] = ref('headers', 'WWW-Authenticate');
  if (status === 405) headers.Allow = ref('headers', 'Allow');
  return {
    description: ERROR_RESPONSES[status][1],
    headers,
    content: { 'application/json': { schema: ref('schemas', 'Error') } },
  };
}

function parametersOf(schema: v.ObjectSchema<v.ObjectEntries, undefined>, place: 'query' | 'path'): Json[] {
  return Object.entries(schema.entries).map(([name, entry]) => {
    const parameter: Json = { name, in: place, required: entry.type !== 'optional', schema: jsonSchemaOf(entry) };
    const description = (parameter.schema as Json).description;
    if (description) parameter.description = description;
    if (name === 'limit') (parameter.schema as Json).default = DEFAULT_LIMIT;
    return parameter;
  });
}

const json = (schema: Json) => ({ 'application/json': { schema } });

/** The OpenAPI 3.1 description of this API as configured by `options`. */
export function buildOpenApiDocument(options: ResolvedOptions): Json {
  const deprecation = {
    Deprecation: ref('headers', 'Deprecation'),
    Sunset: ref('headers', 'Sunset'),
    Link: ref('headers', 'SuccessorLink'),
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Pet Store',
      version: '1.0.0',
      description:
        'HTTP JSON interface to the inventory of a pet store. Every error is an `Error` body whose ' +
        '`status` equals the HTTP status. A known path called with another method answers 405 ' +
        '`method_not_allowed` with `Allow`.',
    },
    servers: [{ url: options.basePath || '/' }],
    security: [{ bearerAuth: [] }],
    paths: {
      '/pets': {
        get: {
          operationId: 'listPets',
          summary: 'List pets in ascending id order, optionally by status.',
          parameters: parametersOf(ListQuerySchema, 'query'),
          responses: {
            200: {
              description: 'One page of pets. `Link: rel="next"` is present while more pets match.',
              headers: { Link: ref('headers', 'NextLink') },
              content: json({ type: 'array', items: ref('schemas', 'Pet') }),
            },
            ...errorResponses([400, 401, 500]),
          },
        },
        post: {
          operationId: 'createPet',
          summary: 'Add a pet. Unknown fields are ignored.',
          requestBody: { required: true, content: json(ref('schemas', 'NewPet')) },
          responses: {
            201: {
              description: 'The pet was stored; the body includes its new `id`.',
              headers: { Location: header('Path of the new pet.') },
              content: json(ref('schemas', 'Pet')),
            },
            ...errorResponses([400, 401, 413, 415, 500]),
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
            200: { description: 'The pet.', headers: deprecation, content: json(ref('schemas', 'Pet')) },
            ...errorResponses([400, 401, 404, 410, 500], deprecation),
          },
        },
      },
      '/openapi.json': {
        get: {
          operationId: 'getOpenApiDocument',
          summary: 'This document. Public: no API key needed.',
          security: [],
          responses: {
            200: { description: 'The OpenAPI 3.1 document.', content: json({ type: 'object' }) },
          },
        },
      },
    },
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <API key>' } },
      schemas: toJsonSchemaDefs(DEFINITIONS, CONVERSION),
      responses: Object.fromEntries(
        Object.entries(ERROR_RESPONSES).map(([status, [name]]) => [name, errorResponseObject(Number(status) as ErrorStatus)]),
      ),
      headers: {
        NextLink: header('RFC 8288 link to the next page: `<url>; rel="next"`; the URL carries an opaque `cursor`.'),
        SuccessorLink: header('RFC 8288 link to the replacement: `</v1/pets>; rel="successor-version"`.'),
        Deprecation: header('RFC 9745: when the operation was deprecated, as `@<unix seconds>`.'),
        Sunset: header('RFC 8594: when the operation stops working, as an HTTP date.'),
        'WWW-Authenticate': header('RFC 6750 challenge: `Bearer realm="petstore"`, with `error="invalid_token"` for an unknown key.'),
        Allow: header('Methods the path supports.'),
      },
    },
  };
}
