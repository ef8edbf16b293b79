/**
 * The OpenAPI 3.1 document of the admin API, served at `/__admin/openapi.json`: generated, as the
 * API's own is (src/operations/openapi-document.ts), from the valibot schemas that validate the
 * admin bodies (admin-schemas.ts) and from the API's Pet, NewPet and Error schemas.
 */
import type { JsonSchema } from '@valibot/to-json-schema';
import { ErrorBodySchema, NewPetSchema, PetSchema, PetStatusSchema, ref, schemaConverter } from '../src/index.ts';
import {
  ClockChangeSchema,
  ClockTimeSchema,
  documentedJsonSchema,
  FaultRuleSchema,
  InjectedFaultSchema,
  PendingFaultSchema,
  RecordedExchangeSchema,
  SeedSchema,
} from './admin-schemas.ts';

type Json = Record<string, unknown>;

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

const json = (schema: unknown) => ({ 'application/json': { schema } });
const header = (description: string, pattern: string) => ({ description, required: true, schema: { type: 'string', pattern } });

/** Error responses by status: the name of their component and what they mean here. */
const ERROR_RESPONSES = {
  400: ['BadRequest', 'A body that is not JSON, or that the operation cannot use (`invalid_request`); `details` lists each problem.'],
  401: ['Unauthorized', 'No admin token, or a wrong one (`unauthorized`).'],
  404: ['NotFound', 'No such path in the admin API (`not_found`). It belongs to no operation.'],
  405: ['MethodNotAllowed', 'The path exists but not for this method (`method_not_allowed`); see `Allow`. It belongs to no operation.'],
  413: ['PayloadTooLarge', 'The body is larger than the configured limit (`payload_too_large`).'],
  415: ['UnsupportedMediaType', 'The body is not `application/json` (`unsupported_media_type`).'],
} as const;

type ErrorStatus = keyof typeof ERROR_RESPONSES;

/** Headers an error response carries besides the JSON type: the 401's challenge, the 405's methods. */
const ERROR_HEADERS: Partial<Record<ErrorStatus, Json>> = {
  401: { 'WWW-Authenticate': ref('headers', 'WWW-Authenticate') },
  405: { Allow: ref('headers', 'Allow') },
};

function errorResponseObject(status: ErrorStatus): Json {
  const headers = ERROR_HEADERS[status];
  return { description: ERROR_RESPONSES[status][1], ...(headers ? { headers } : {}), content: json(ref('schemas', 'Error')) };
}

/** What an operation answers besides success: always 401; where it reads a body, that body's 400, 413 and 415. */
const errorResponses = (readsBody: boolean) =>
  Object.fromEntries(([401, ...(readsBody ? [400, 413, 415] : [])] as ErrorStatus[]).map((status) => [status, ref('responses', ERROR_RESPONSES[status][0])]));

interface OperationParts {
  readonly operationId: string;
  readonly tag: string;
  readonly summary: string;
  /** The body it reads, if any. */
  readonly body?: { readonly schema: unknown; readonly description: string };
  /** Its success: status, description and the schema of its JSON body (none for 204). */
  readonly success: readonly [status: number, description: string, schema?: unknown];
}

function operation({ operationId, tag, summary, body, success: [status, description, schema] }: OperationParts): Json {
  return {
    operationId,
    tags: [tag],
    summary,
    ...(body ? { requestBody: { required: true, description: body.description, content: json(body.schema) } } : {}),
    responses: {
      [status]: schema === undefined ? { description } : { description, content: json(schema) },
      ...errorResponses(body !== undefined),
    },
  };
}

const listOf = (name: string) => ({ type: 'array', items: ref('schemas', name) });

/** The admin API's document, served from `mountPath` (the host's mount prefix, `''` for none); its paths start with `/__admin`. */
export function adminOpenApiDocument(mountPath = ''): Json {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Pet Store admin API',
      version: '1',
      license: { name: 'MIT', identifier: 'MIT' },
      description:
        'Controls of a petstore-service fake backend: reset, seed, clock, faults and the request journal. Off unless an admin token is set; ' +
        'every operation needs `Authorization: Bearer <admin token>`. Admin requests are never rate limited, delayed, faulted or journaled. ' +
        'An unknown admin path answers 404 (`NotFound`), a known one called with another method 405 (`MethodNotAllowed`).',
    },
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
          summary:
            'Start over: pets, ids, counters, bans, idempotency keys, faults and the journal. Requests a fault is holding end with a 503 and store nothing.',
          success: [204, 'Done.'],
        }),
      },
      '/__admin/seed': {
        post: operation({
          operationId: 'seedPets',
          tag: 'store',
          summary: 'Store pets, each validated like a POST /pets body; one invalid pet (named in `details` by its 0-based index) stores none.',
          body: { schema: jsonSchemaOf(SeedSchema), description: 'Pets without ids.' },
          success: [201, 'The stored pets with their ids.', listOf('Pet')],
        }),
      },
      '/__admin/pets': {
        get: operation({ operationId: 'listAllPets', tag: 'store', summary: 'Every stored pet, in id order.', success: [200, 'Every pet.', listOf('Pet')] }),
      },
      '/__admin/clock': {
        get: operation({
          operationId: 'getClock',
          tag: 'clock',
          summary: 'The store\u2019s time.',
          success: [200, 'The store\u2019s time now.', ref('schemas', 'ClockTime')],
        }),
        post: operation({
          operationId: 'moveClock',
          tag: 'clock',
          summary: 'Move the clock by hand; from then on it stands still but when moved (rate windows, bans and the sunset date follow it).',
          body: { schema: ref('schemas', 'ClockChange'), description: '{"advanceMs": n} or {"set": "<ISO date>"}.' },
          success: [200, 'The store\u2019s time after the move.', ref('schemas', 'ClockTime')],
        }),
      },
      '/__admin/faults': {
        get: operation({
          operationId: 'listFaults',
          tag: 'faults',
          summary: 'Faults that can still apply, oldest first, with their ids and how many requests they have left.',
          success: [200, 'Pending faults.', listOf('PendingFault')],
        }),
        post: operation({
          operationId: 'injectFault',
          tag: 'faults',
          summary: 'Inject a fault.',
          body: { schema: ref('schemas', 'FaultRule'), description: 'The fault.' },
          success: [201, 'Its id.', ref('schemas', 'InjectedFault')],
        }),
        delete: operation({ operationId: 'clearFaults', tag: 'faults', summary: 'Remove every fault.', success: [204, 'Done.'] }),
      },
      '/__admin/requests': {
        get: operation({
          operationId: 'listRequests',
          tag: 'journal',
          summary: 'The journal: every API request since the last reset or clear, oldest first.',
          success: [200, 'The journal.', listOf('RecordedExchange')],
        }),
        delete: operation({ operationId: 'clearRequests', tag: 'journal', summary: 'Clear the journal.', success: [204, 'Done.'] }),
      },
      '/__admin/openapi.json': {
        get: operation({
          operationId: 'getAdminOpenApiDocument',
          tag: 'document',
          summary: 'This document.',
          success: [200, 'The OpenAPI 3.1 document.', { type: 'object' }],
        }),
      },
    },
    components: {
      securitySchemes: { adminToken: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <admin token>' } },
      schemas: components(),
      responses: Object.fromEntries(Object.entries(ERROR_RESPONSES).map(([status, [name]]) => [name, errorResponseObject(Number(status) as ErrorStatus)])),
      headers: {
        'WWW-Authenticate': header('RFC 6750 challenge for the admin token.', '^Bearer realm="petstore-admin"$'),
        Allow: header('Methods the path supports.', '^[A-Z]+(, [A-Z]+)*$'),
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
