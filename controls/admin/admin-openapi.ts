/**
 * The OpenAPI 3.1 document of the admin API, served at `/__admin/openapi.json`: generated, as the
 * API's own is (src/operations/openapi-document.ts), from the valibot schemas that validate the
 * admin bodies (faults/fault-schemas.ts and the other rooms' *-schemas.ts) and from the API's Pet, NewPet and Error schemas.
 */
import { headerObject, jsonContent, OPENAPI_CONTACT, type OpenApiObject, pattern, ref, withBodyRules } from '../../src/index.ts';
import { components, getAndHead, jsonSchemaOf, listOf, operation, options, RESPONSE_COMPONENTS, TOO_MANY_PETS } from './admin-openapi-parts.ts';
import { dashboardPaths } from './dashboard-openapi.ts';
import { withSandboxes } from './sandbox-openapi.ts';
import { HAR_SCHEMAS, harPathItem } from './har-openapi.ts';
import { SeedSchema } from '../pets/seed-schemas.ts';
import { JournalQuerySchema } from '../journal/journal-schemas.ts';

const DESCRIPTION = [
  'Controls of a petstore-service fake backend: reset, seed, clock, faults and the request journal, and a dashboard that shows them at `/__admin/`. ' +
    'Off unless an admin token is set; every operation but the dashboard\u2019s page and files needs `Authorization: Bearer <admin token>`. Admin requests are never rate limited, delayed, faulted or journaled; ' +
    'an address that sends more wrong tokens within one minute than the ban threshold is banned (429 `key_banned` with `Retry-After`), the right token too.',
  'Every path answers HEAD as GET without the body, and OPTIONS with `Allow`; any other method it does not list answers 405 ' +
    '`method_not_allowed` with `Allow` and an Error body, and an unknown admin path 404 `not_found` (401 first without the token). ' +
    'OpenAPI 3.1 has no place for an answer to a path or method it does not list, so these are said here.',
].join('\n\n');

/** The journal's filters as query parameters, each optional, from the schema that checks them. */
const JOURNAL_FILTERS: OpenApiObject[] = Object.entries(JournalQuerySchema.entries).map(([name, entry]) => {
  const schema = jsonSchemaOf(entry) as OpenApiObject;
  return { name, in: 'query', required: false, description: schema.description, schema };
});

/** The fault a path names, as `POST /__admin/faults` answered its id. */
const FAULT_ID: OpenApiObject = {
  name: 'faultId',
  in: 'path',
  required: true,
  description: 'The rule\u2019s id, as POST /__admin/faults answered it and GET /__admin/faults lists it (fault-1, fault-2, …).',
  schema: { type: 'string', pattern: '^fault-[1-9][0-9]*$' },
};

const NO_SUCH_FAULT: OpenApiObject = {
  description: 'No rule that can still apply has this id (`not_found`): used up, removed or never injected.',
  content: jsonContent(ref('schemas', 'Error')),
};

const FILTERED =
  'Filters, each optional and all applying: method (any case), path (exact), status, since (the store\u2019s time, inclusive) and limit ' +
  '(the newest n matches, still oldest first). A filter that is unknown, repeated or malformed is a 400 naming it.';

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
      { name: 'sandboxes', description: 'Worlds of their own beside the main one, each chosen by its keys; every admin route again for each.' },
      { name: 'document', description: 'This document.' },
      { name: 'dashboard', description: 'A page that shows the fake backend live, served from the package with no token (the page asks for it).' },
    ],
    paths: {
      ...withSandboxes({
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
            description:
              'Each pet is validated like a POST /pets body; one invalid pet (named in `details` by its 0-based index) stores none. ' +
              '`{"generate": {"count": 25, "seed": 7}}` stores generated pets instead: the same for the same count and seed, in every runtime.',
            body: { schema: jsonSchemaOf(SeedSchema), description: 'Pets without ids, or pets to generate.' },
            success: [201, 'The stored pets with their ids.', listOf('Pet')],
            others: { 507: TOO_MANY_PETS },
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
              '(-271821-04-20T00:00:00.000Z to +275760-09-13T00:00:00.000Z): `set` past it is a 400 naming the range, and `advanceMs` past its end ' +
              'stops the clock there.',
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
        '/__admin/faults/{faultId}': {
          delete: operation({
            operationId: 'removeFault',
            tag: 'faults',
            summary: 'Remove one fault.',
            description: 'The rule of that id stops applying at once; the others stay as they are.',
            parameters: [FAULT_ID],
            success: [204, 'Done.'],
            others: { 404: NO_SUCH_FAULT },
          }),
          options: { ...options('faultOptions', 'faults'), parameters: [FAULT_ID] },
        },
        '/__admin/requests': {
          ...getAndHead({
            operationId: 'listRequests',
            tag: 'journal',
            summary: 'The journal.',
            description:
              'API requests since the last reset or clear (the newest, as many as the journal keeps: 10,000 unless configured), oldest first, ' +
              `with what the client got; keys and the admin token redacted, bodies cut at maxBodyBytes. ${FILTERED}`,
            parameters: JOURNAL_FILTERS,
            success: [200, 'The exchanges that match, oldest first.', listOf('RecordedExchange')],
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
        '/__admin/requests.har': harPathItem(JOURNAL_FILTERS, FILTERED),
        '/__admin/requests/count': {
          ...getAndHead({
            operationId: 'countRequests',
            tag: 'journal',
            summary: 'How many journal exchanges match.',
            description: `As GET /__admin/requests, its count only. ${FILTERED}`,
            parameters: JOURNAL_FILTERS,
            success: [200, 'How many match.', ref('schemas', 'RequestCount')],
          }),
          options: options('countRequestsOptions', 'journal'),
        },
        '/__admin/verify': {
          post: operation({
            operationId: 'verifyRequests',
            tag: 'journal',
            summary: 'Check that exactly so many exchanges match.',
            description: 'The test kit\u2019s verify() over HTTP: each given field must equal the exchange\u2019s (method in any case, path exactly).',
            body: { schema: ref('schemas', 'Verification'), description: 'What must match, and how many times.' },
            success: [200, 'Exactly `times` match.', ref('schemas', 'RequestCount')],
            others: {
              409: {
                description: 'Another number match (`verification_failed`): the message shows the expectation and every exchange kept, matches marked +.',
                content: jsonContent(ref('schemas', 'VerificationFailed')),
              },
            },
          }),
          options: options('verifyRequestsOptions', 'journal'),
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
      }),
      ...dashboardPaths(),
    },
    components: {
      securitySchemes: { adminToken: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <admin token>' } },
      schemas: { ...withBodyRules(components()), ...HAR_SCHEMAS },
      responses: RESPONSE_COMPONENTS,
      headers: {
        'WWW-Authenticate': headerObject('RFC 6750 challenge for the admin token.', pattern('^Bearer realm="petstore-admin"$')),
        Allow: headerObject('Methods the path answers.', pattern('^[A-Z]+(, [A-Z]+)*$')),
        'Allow.optional': headerObject('Methods the path answers; sent with a 405.', pattern('^[A-Z]+(, [A-Z]+)*$'), false),
        'Retry-After': headerObject('Whole seconds until the ban ends (at least 1).', { type: 'integer', minimum: 1 }),
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
