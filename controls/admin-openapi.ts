/**
 * The OpenAPI 3.1 document of the admin API, served at `/__admin/openapi.json`: generated, as the
 * API's own is (src/operations/openapi-document.ts), from the valibot schemas that validate the
 * admin bodies (admin-schemas.ts) and from the API's Pet, NewPet and Error schemas.
 */
import type { JsonSchema } from '@valibot/to-json-schema';
import {
  ErrorBodySchema,
  headerObject,
  jsonContent,
  NewPetSchema,
  OPENAPI_CONTACT,
  type OpenApiObject,
  PetSchema,
  PetStatusSchema,
  pattern,
  ref,
  schemaConverter,
  withBodyRules,
  withoutBodies,
} from '../src/index.ts';
import { ClockChangeSchema, ClockTimeSchema } from './clock-schemas.ts';
import { documentedJsonSchema } from './documented-check.ts';
import { FaultRuleSchema, InjectedFaultSchema, PendingFaultSchema, RecordedExchangeSchema, SeedSchema } from './admin-schemas.ts';

const DEFINITIONS = {
  PetStatus: PetStatusSchema,
  NewPet: NewPetSchema,
  Pet: PetSchema,
  Error: ErrorBodySchema,
  FaultRule: FaultRuleSchema,
  PendingFault: PendingFaultSchema,
  InjectedFault: InjectedFaultSchema,
  ClockChange: ClockChangeSchema,
  ClockTime: ClockTimeSchema,
  RecordedExchange: RecordedExchangeSchema,
};

const { schemaOf: jsonSchemaOf, components } = schemaConverter(DEFINITIONS, {
  // A check is code, not schema: one that says itself in JSON Schema (a rule across fields) adds
  // that to the object's allOf; the others (a well-formed name, a real calendar date) are left out.
  overrideAction: ({ valibotAction, jsonSchema }) => {
    if (valibotAction.type !== 'check') return undefined;
    const said = documentedJsonSchema(valibotAction);
    if (!said) return jsonSchema;
    return { ...jsonSchema, allOf: [...((jsonSchema.allOf as JsonSchema[] | undefined) ?? []), said as JsonSchema] };
  },
});

/** Error responses by status: the name of their component and what they mean here. `4XX` is OpenAPI's range for every client error not listed. */
const ERROR_RESPONSES = {
  400: [
    'BadRequest',
    'A body that is not JSON, or that the operation cannot use (`invalid_request`); `details` lists each problem. Also a request refused before ' +
      'it reaches the admin API (a malformed Host or target, a header that may appear once sent twice, unparseable HTTP).',
  ],
  401: ['Unauthorized', 'No admin token, or a wrong one (`unauthorized`).'],
  413: ['PayloadTooLarge', 'The body is larger than the configured limit (`payload_too_large`).'],
  415: ['UnsupportedMediaType', 'The body is not `application/json` (`unsupported_media_type`).'],
  '4XX': [
    'OtherClientError',
    'Another client error, as an Error body: 405 `method_not_allowed` with `Allow` to a method the path does not list; what node:http ' +
      'refuses before the admin API reads the request (408 `request_timeout`, 417 `expectation_failed`, 431 `headers_too_large`).',
  ],
} as const;

type ErrorStatus = keyof typeof ERROR_RESPONSES;

/** Headers an error response carries besides the JSON type: the 401's challenge, a 405's methods. */
const ERROR_HEADERS: Partial<Record<ErrorStatus, OpenApiObject>> = {
  401: { 'WWW-Authenticate': ref('headers', 'WWW-Authenticate') },
  '4XX': { Allow: ref('headers', 'Allow.optional') },
};

const RESPONSE_COMPONENTS: Record<string, OpenApiObject> = Object.fromEntries(
  Object.entries(ERROR_RESPONSES).map(([status, [name, description]]) => {
    const headers = ERROR_HEADERS[(/^[0-9]+$/.test(status) ? Number(status) : status) as ErrorStatus];
    return [name, { description, ...(headers ? { headers } : {}), content: jsonContent(ref('schemas', 'Error')) }];
  }),
);

/** What an operation answers besides success: always 400 (the edge's), 401 and the other 4xx; where it reads a body, that body's 413 and 415. */
const errorResponses = (readsBody: boolean) =>
  Object.fromEntries(
    ([400, 401, ...(readsBody ? [413, 415] : []), '4XX'] as ErrorStatus[]).map((status) => [status, ref('responses', ERROR_RESPONSES[status][0])]),
  );

interface OperationParts {
  readonly operationId: string;
  readonly tag: string;
  readonly summary: string;
  readonly description: string;
  /** The body it reads, if any. */
  readonly body?: { readonly schema: unknown; readonly description: string };
  /** Its success: status, description and the schema of its JSON body (none for 204). */
  readonly success: readonly [status: number, description: string, schema?: unknown];
}

function operation({ operationId, tag, summary, description: about, body, success: [status, description, schema] }: OperationParts): OpenApiObject {
  return {
    operationId,
    tags: [tag],
    summary,
    description: about,
    ...(body ? { requestBody: { required: true, description: body.description, content: jsonContent(body.schema) } } : {}),
    responses: {
      [status]: schema === undefined ? { description } : { description, content: jsonContent(schema) },
      ...errorResponses(body !== undefined),
    },
  };
}

/** A GET and its HEAD: the same answers without bodies. */
function getAndHead(parts: OperationParts): OpenApiObject {
  const get = operation(parts);
  const head = {
    ...get,
    operationId: `${parts.operationId}Head`,
    summary: `Headers only: ${parts.summary}`,
    description: 'Answers exactly as GET does, the same status and headers, with no body.',
    responses: withoutBodies(get.responses as OpenApiObject, RESPONSE_COMPONENTS),
  };
  return { get, head };
}

/** The OPTIONS of an admin path: 204 with `Allow`, behind the admin token like every admin call (a CORS preflight, which carries none, gets a 401). */
function options(operationId: string, tag: string): OpenApiObject {
  return {
    operationId,
    tags: [tag],
    summary: 'The methods this path answers, in `Allow`.',
    description:
      'Needs the admin token like every admin call, so a CORS preflight gets a 401. Any method not in `Allow` answers 405 `method_not_allowed` with the same `Allow`.',
    responses: { 204: { description: 'The methods, in `Allow`.', headers: { Allow: ref('headers', 'Allow') } }, ...errorResponses(false) },
  };
}

const listOf = (name: string) => ({ type: 'array', items: ref('schemas', name) });

const DESCRIPTION = [
  'Controls of a petstore-service fake backend: reset, seed, clock, faults and the request journal. Off unless an admin token is set; ' +
    'every operation needs `Authorization: Bearer <admin token>`. Admin requests are never rate limited, delayed, faulted or journaled.',
  'Every path answers HEAD as GET without the body, and OPTIONS with `Allow`; any other method it does not list answers 405 ' +
    '`method_not_allowed` with `Allow` and an Error body, and an unknown admin path 404 `not_found` (401 first without the token). ' +
    'OpenAPI 3.1 has no place for an answer to a path or method it does not list, so these are said here.',
].join('\n\n');

/** The admin API's document, served from `mountPath` (the host's mount prefix, `''` for none); its paths start with `/__admin`. */
export function adminOpenApiDocument(mountPath = ''): OpenApiObject {
  return {
    openapi: '3.1.0',
    info: { title: 'Pet Store admin API', version: '1', license: { name: 'MIT', identifier: 'MIT' }, contact: OPENAPI_CONTACT, description: DESCRIPTION },
    servers: [{ url: mountPath || '/' }],
    security: [{ adminToken: [] }],
    tags: [
      { name: 'store', description: 'The pets, and starting over.' },
      { name: 'clock', description: 'The time rate windows, bans and the sunset date follow.' },
      { name: 'faults', description: 'Failures and delays injected in front of the API.' },
      { name: 'journal', description: 'The API requests the store received.' },
      { name: 'document', description: 'This document.' },
    ],
    paths: {
      '/__admin/reset': {
        post: operation({
          operationId: 'resetStore',
          tag: 'store',
          summary: 'Start over.',
          description:
            'Pets, ids, counters, bans, idempotency keys, faults and the journal start over; faults from the command\u2019s `--delay` and ' +
            '`--fail-rate` come back. Requests a fault is holding end with a 503 and store nothing.',
          success: [204, 'Done.'],
        }),
        options: options('resetStoreOptions', 'store'),
      },
      '/__admin/seed': {
        post: operation({
          operationId: 'seedPets',
          tag: 'store',
          summary: 'Store pets.',
          description: 'Each pet is validated like a POST /pets body; one invalid pet (named in `details` by its 0-based index) stores none.',
          body: { schema: jsonSchemaOf(SeedSchema), description: 'Pets without ids.' },
          success: [201, 'The stored pets with their ids.', listOf('Pet')],
        }),
        options: options('seedPetsOptions', 'store'),
      },
      '/__admin/pets': {
        ...getAndHead({
          operationId: 'listAllPets',
          tag: 'store',
          summary: 'Every stored pet.',
          description: 'In id order, all at once: no paging, no quota.',
          success: [200, 'Every pet.', listOf('Pet')],
        }),
        options: options('listAllPetsOptions', 'store'),
      },
      '/__admin/clock': {
        ...getAndHead({
          operationId: 'getClock',
          tag: 'clock',
          summary: 'The store\u2019s time.',
          description: 'Real time until the clock is first moved; from then on it stands still but when moved.',
          success: [200, 'The store\u2019s time now.', ref('schemas', 'ClockTime')],
        }),
        post: operation({
          operationId: 'moveClock',
          tag: 'clock',
          summary: 'Move the clock by hand.',
          description:
            'From then on it stands still but when moved; rate windows, bans and the sunset date follow it. It stays within the Date range ' +
            '(-271821-04-20T00:00:00.000Z to +275760-09-13T00:00:00.000Z): a move past it is a 400 naming how far it may go.',
          body: { schema: ref('schemas', 'ClockChange'), description: '{"advanceMs": n} or {"set": "<ISO date>"}.' },
          success: [200, 'The store\u2019s time after the move.', ref('schemas', 'ClockTime')],
        }),
        options: options('clockOptions', 'clock'),
      },
      '/__admin/faults': {
        ...getAndHead({
          operationId: 'listFaults',
          tag: 'faults',
          summary: 'Faults that can still apply.',
          description: 'Oldest first, each with its id and how many requests it has left.',
          success: [200, 'Pending faults.', listOf('PendingFault')],
        }),
        post: operation({
          operationId: 'injectFault',
          tag: 'faults',
          summary: 'Inject a fault.',
          description: 'It applies to the next matching API requests, in front of everything else the API does.',
          body: { schema: ref('schemas', 'FaultRule'), description: 'The fault.' },
          success: [201, 'Its id.', ref('schemas', 'InjectedFault')],
        }),
        delete: operation({
          operationId: 'clearFaults',
          tag: 'faults',
          summary: 'Remove every fault.',
          description: 'The command\u2019s `--delay` and `--fail-rate` faults included, until the next reset.',
          success: [204, 'Done.'],
        }),
        options: options('faultsOptions', 'faults'),
      },
      '/__admin/requests': {
        ...getAndHead({
          operationId: 'listRequests',
          tag: 'journal',
          summary: 'The journal.',
          description: 'Every API request since the last reset or clear, oldest first, with what the client got.',
          success: [200, 'The journal.', listOf('RecordedExchange')],
        }),
        delete: operation({
          operationId: 'clearRequests',
          tag: 'journal',
          summary: 'Clear the journal.',
          description: 'It starts empty again.',
          success: [204, 'Done.'],
        }),
        options: options('requestsOptions', 'journal'),
      },
      '/__admin/openapi.json': {
        ...getAndHead({
          operationId: 'getAdminOpenApiDocument',
          tag: 'document',
          summary: 'This document.',
          description: 'Its `servers` is the mount root the request came under.',
          success: [200, 'The OpenAPI 3.1 document.', { type: 'object' }],
        }),
        options: options('adminOpenApiDocumentOptions', 'document'),
      },
    },
    components: {
      securitySchemes: { adminToken: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <admin token>' } },
      schemas: withBodyRules(components()),
      responses: RESPONSE_COMPONENTS,
      headers: {
        'WWW-Authenticate': headerObject('RFC 6750 challenge for the admin token.', pattern('^Bearer realm="petstore-admin"$')),
        Allow: headerObject('Methods the path answers.', pattern('^[A-Z]+(, [A-Z]+)*$')),
        'Allow.optional': headerObject('Methods the path answers; sent with a 405.', pattern('^[A-Z]+(, [A-Z]+)*$'), false),
      },
    },
  };
}

/** The document as served, serialized once per mount prefix (a host mounts a store under one or two). */
const served = new Map<string, string>();

/** {@link adminOpenApiDocument} as JSON text. */
export function adminOpenApiJson(mountPath = ''): string {
  let text = served.get(mountPath);
  if (text === undefined) served.set(mountPath, (text = JSON.stringify(adminOpenApiDocument(mountPath))));
  return text;
}
