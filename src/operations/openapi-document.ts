/** Builds the OpenAPI 3.1 document from the same valibot schemas that validate requests. */
import { ref } from './json-schema.ts';
import { headerObject, jsonContent, OPENAPI_CONTACT, type OpenApiObject, pattern, withBodyRules, withoutBodies } from './openapi-parts.ts';
import { DEPRECATION_HEADERS, type ErrorStatus, errorResponses, HEADER_COMPONENTS, optional, RESPONSE_COMPONENTS, response } from './openapi-responses.ts';
import { type OpenApiSchemas, openApiSchemas } from './openapi-schemas.ts';

/**
 * The `Petstore-Sandbox` request header, on every path: a fake backend with sandboxes reads it (the
 * API itself ignores it), so a client generated from the document can send it.
 */
const SANDBOX_SELECTOR: OpenApiObject = {
  name: 'Petstore-Sandbox',
  in: 'header',
  required: false,
  description: 'A fake backend\u2019s sandbox selector (or `petstore.sandbox` in `baggage`), a secret: that sandbox answers.',
  // The shape controls/secrets/sandbox-keys.ts gives a selector (src/ imports nothing from controls/).
  schema: pattern('^pssel_[A-Za-z0-9_-]{32}$'),
};
/** The reference every path lists {@link SANDBOX_SELECTOR} by, for all its operations. */
const SANDBOX_SELECTOR_REF = ref('parameters', 'PetstoreSandbox');

/** What any operation may answer besides its own statuses: a fault, a store down, what node:http refuses first. */
const ALWAYS: readonly ErrorStatus[] = [400, 429, 500, 503, '4XX', '5XX'];
/** {@link ALWAYS} with the 401 of an operation that needs a key. */
const WITH_KEY: readonly ErrorStatus[] = [400, 401, 429, 500, 503, '4XX', '5XX'];

interface GetParts {
  readonly operationId: string;
  readonly tags: readonly string[];
  readonly summary: string;
  readonly description: string;
  readonly responses: OpenApiObject;
  readonly deprecated?: boolean;
  readonly parameters?: readonly OpenApiObject[];
  readonly security?: readonly OpenApiObject[];
}

/** A GET and its HEAD: the same answers without bodies (route.ts runs GET for HEAD, and the reply is rendered without its body). */
function getAndHead(get: GetParts): OpenApiObject {
  const head = {
    ...get,
    operationId: `${get.operationId}Head`,
    summary: `Headers only: ${get.summary}`,
    description: `Answers exactly as GET does, the same status and headers, with no body. Counted against the quota like a GET.`,
    responses: withoutBodies(get.responses, RESPONSE_COMPONENTS),
  };
  return { get, head };
}

/**
 * `petId` as OPTIONS takes it: any segment. OPTIONS answers for the path, not a pet, and a browser's
 * preflight must succeed for a request whose id GET will refuse, or the browser shows a CORS error
 * where the API's 400 was to be read.
 */
const ANY_PET_ID: OpenApiObject = {
  name: 'petId',
  in: 'path',
  required: true,
  description: 'Any path segment: OPTIONS answers for the path whatever the id, so a preflight succeeds for a request GET will refuse with a 400.',
  schema: { type: 'string' },
};

/** The OPTIONS of a path: `Allow`, or a CORS preflight's headers; `parameters` for a templated path. */
function options(
  operationId: string,
  tag: string,
  routeHeaders: OpenApiObject,
  { needsKey, parameters }: { needsKey: boolean; parameters?: readonly OpenApiObject[] },
): OpenApiObject {
  return {
    operationId,
    tags: [tag],
    ...(parameters && { parameters }),
    summary: 'The methods this path answers, in `Allow`.',
    description:
      `204 with \`Allow\` and the quota headers; counted like any request${needsKey ? ', and needs the API key' : ''}. A CORS preflight (\`Origin\` and ` +
      '`Access-Control-Request-Method`) is answered without a key and not counted: 204 with the CORS headers when the `cors` option allows the ' +
      'origin (with `Access-Control-Allow-Private-Network: true` when it asks for the private network), with none otherwise. Any method not in `Allow` answers 405 `method_not_allowed` with the same `Allow`, the quota headers and an Error body.',
    ...(needsKey ? {} : { security: [] }),
    responses: {
      204: response('The methods, in `Allow`.', {
        headers: optional({ Allow: ref('headers', 'Allow'), ...routeHeaders }),
        counted: false,
      }),
      // The route's headers come with every answer it gives, OPTIONS's errors included.
      ...errorResponses(needsKey ? WITH_KEY : ALWAYS, Object.keys(routeHeaders).length > 0 ? routeHeaders : undefined),
    },
  };
}

const DESCRIPTION = [
  'HTTP JSON interface to the inventory of a pet store. Every error is an `Error` body whose `status` equals the HTTP status.',
  'Every path answers HEAD as GET without the body, and OPTIONS with `Allow`; any other method it does not list answers 405 ' +
    '`method_not_allowed` with `Allow`, the quota headers and an Error body. An unknown path under the base path answers 404 `not_found` ' +
    '(401 first without a valid key). OpenAPI 3.1 has no place for an answer to a method a path does not list, so these are said here.',
  'The quota headers come on every response the limits step counted; the CORS headers on every response when the `cors` option allows the origin.',
  'A fake backend (the test kit, the admin API, the command\u2019s `--fail-rate`) may answer any operation with an injected fault: 503 with ' +
    '`Retry-After`, or any status from 400 to 599 with an Error body (the `4XX` and `5XX` responses).',
].join('\n\n');

/**
 * The OpenAPI 3.1 description of this API, served from `serverUrl` (the base path, or `publicUrl`),
 * with `schemas` converted from the valibot schemas (in the worker `init` writes, converted when
 * it was built: scripts/prebuilt-openapi.ts).
 */
export function openApiDocument(serverUrl: string, schemas: OpenApiSchemas = openApiSchemas()): OpenApiObject {
  return {
    openapi: '3.1.0',
    info: { title: 'Pet Store', version: '1.0.0', license: { name: 'MIT', identifier: 'MIT' }, contact: OPENAPI_CONTACT, description: DESCRIPTION },
    servers: [{ url: serverUrl || '/' }],
    security: [{ bearerAuth: [] }],
    tags: [
      { name: 'pets', description: 'The inventory: list, add and fetch pets.' },
      { name: 'document', description: 'This description of the API.' },
    ],
    paths: {
      '/pets': {
        parameters: [SANDBOX_SELECTOR_REF],
        ...getAndHead({
          operationId: 'listPets',
          tags: ['pets'],
          summary: 'List pets in ascending id order, optionally by status.',
          description:
            'One page of at most `limit` pets; `Link: rel="next"` leads to the next page while more match (follow it with the same key). ' +
            'Unknown query parameters are ignored; a repeated `limit`, `status` or `cursor` is a 400.',
          parameters: schemas.listQuery,
          responses: {
            200: response('One page of pets. `Link: rel="next"` is present while more pets match.', {
              content: { type: 'array', items: ref('schemas', 'Pet') },
              headers: { Link: ref('headers', 'NextLink') },
            }),
            ...errorResponses(WITH_KEY),
          },
        }),
        post: {
          operationId: 'createPet',
          tags: ['pets'],
          summary: 'Add a pet.',
          description:
            'The body is a `NewPet`. Unknown fields are ignored and never stored, but the reserved keys `__proto__`, `constructor` and ' +
            '`prototype` are a 400 anywhere in the body. With an `Idempotency-Key`, a retried create answers the first pet instead of adding another.',
          parameters: schemas.createHeaders,
          requestBody: { required: true, content: jsonContent(ref('schemas', 'NewPet')) },
          responses: {
            201: response('The pet was stored (or, for a repeated `Idempotency-Key`, had been); the body includes its `id`.', {
              content: ref('schemas', 'Pet'),
              headers: {
                Location: headerObject('Path of the new pet.'),
                'Idempotent-Replayed': headerObject('`true` when this answers a repeated `Idempotency-Key`.', pattern('^true$'), false),
              },
            }),
            ...errorResponses([400, 401, 413, 415, 422, 429, 500, 503, 507, '4XX', '5XX']),
          },
        },
        options: options('petsOptions', 'pets', {}, { needsKey: true }),
      },
      '/pets/{petId}': {
        parameters: [SANDBOX_SELECTOR_REF],
        // `petId` per operation, not for the path: GET and HEAD bound it, OPTIONS takes any.
        ...getAndHead({
          operationId: 'getPet',
          tags: ['pets'],
          summary: 'Fetch one pet. Deprecated: use GET /pets with the status filter.',
          description: 'Every answer carries `Deprecation`, `Sunset` and a `successor-version` link; after the sunset date it answers 410 `gone`.',
          deprecated: true,
          parameters: schemas.petPath,
          responses: {
            200: response('The pet.', { content: ref('schemas', 'Pet'), headers: DEPRECATION_HEADERS }),
            ...errorResponses([400, 401, 404, 410, 429, 500, 503, '4XX', '5XX'], DEPRECATION_HEADERS),
          },
        }),
        options: options('petOptions', 'pets', DEPRECATION_HEADERS, { needsKey: true, parameters: [ANY_PET_ID] }),
      },
      '/openapi.json': {
        parameters: [SANDBOX_SELECTOR_REF],
        ...getAndHead({
          operationId: 'getOpenApiDocument',
          tags: ['document'],
          summary: 'This document.',
          description:
            'Public: no API key needed; limited per client address like anonymous callers. Its `servers` is where this request found the API ' +
            '(the base path under any mount prefix), or the `publicUrl` option: relative unless that is set, so a client generated from it ' +
            'needs a base URL outside a browser.',
          security: [],
          responses: { 200: response('The OpenAPI 3.1 document.', { content: { type: 'object' } }), ...errorResponses(ALWAYS) },
        }),
        options: options('openApiDocumentOptions', 'document', {}, { needsKey: false }),
      },
    },
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <API key>' } },
      schemas: withBodyRules(schemas.components),
      responses: RESPONSE_COMPONENTS,
      headers: HEADER_COMPONENTS,
      parameters: { PetstoreSandbox: SANDBOX_SELECTOR },
    },
  };
}
