/** The admin API's served OpenAPI document: valid 3.1, generated from the schemas that validate admin bodies, declaring every method and status it answers. */
import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { createPetStore } from '../../compose/index.ts';
import { adminOpenApiDocument } from '../../controls/admin/admin-openapi.ts';
import { FaultRuleSchema } from '../../controls/faults/fault-schemas.ts';
import { ClockChangeSchema } from '../../controls/clock/clock-schemas.ts';

const ADMIN_TOKEN = 'admin-token-0123456789';

async function servedAdminDocument(options = {}) {
  const store = createPetStore({ admin: { token: ADMIN_TOKEN }, ...options });
  const response = await store.fetch('http://localhost/__admin/openapi.json', { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('application/json');
  return response.json();
}

/** A validator for the schema at `pointer` in `document`, its references resolved within it. */
function schemaValidator(document: object, pointer: string) {
  const ajv = new Ajv2020({ strict: false, validateFormats: false });
  ajv.addSchema({ ...document, $id: 'https://admin.test/openapi.json' });
  return ajv.getSchema(`https://admin.test/openapi.json#${pointer}`)!;
}

describe('GET /__admin/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document by @apidevtools/swagger-parser', async () => {
    const document = await servedAdminDocument();
    expect(document.openapi).toBe('3.1.0');
    await expect(SwaggerParser.validate(structuredClone(document))).resolves.toBeTruthy();
  });

  it('judges fault rules exactly as the valibot schema POST /__admin/faults validates with', async () => {
    const validate = schemaValidator(await servedAdminDocument(), '/components/schemas/FaultRule');
    const samples = [
      { status: 503 },
      { status: 429, code: 'key_banned', message: 'Banned.', retryAfterSeconds: 86_400, times: 'always', probability: 0.5, method: 'post', path: '/v1/pets' },
      { network: 'reset', afterHandling: true },
      { network: 'hang', delayMs: 10 },
      { delayMs: 2 ** 31 - 1, times: 3 },
      { status: 500, afterHandling: false },
      {},
      { delayMs: 0 },
      { method: 'GET' },
      { status: 503, network: 'reset' },
      { code: 'gone' },
      { message: 'no status' },
      { network: 'hang', afterHandling: true },
      { afterHandling: true, delayMs: 5 },
      { status: 399 },
      { status: 600 },
      { status: 503.5 },
      { status: '503' },
      { status: 503, code: 'teapot' },
      { network: 'drop' },
      { delayMs: -1 },
      { delayMs: 2 ** 31 },
      { status: 503, times: 0 },
      { status: 503, times: 1.5 },
      { status: 503, times: 'never' },
      { status: 503, probability: 1.01 },
      { status: 503, method: 'GET /' },
      { status: 503, path: 7 },
      { status: 503, retryAfterSeconds: 0 },
      { status: 503, retryAfterSeconds: 86_401 },
      { status: 503, stauts: 500 },
      { status: 503, path: 'v1/pets' },
      { status: 503, path: '' },
      { delayMs: { min: 100, max: 400 } },
      { delayMs: { min: 0, max: 1 }, times: 'always' },
      { status: 503, delayMs: { min: 0, max: 0 } },
      { delayMs: { min: 0, max: 0 } },
      { delayMs: { min: 1 } },
      { delayMs: { min: 1, max: 2, mean: 1 } },
      { delayMs: { min: -1, max: 2 } },
      { delayMs: { min: 1, max: 2 ** 31 } },
      { delayMs: { min: 1.5, max: 2 } },
      { delayMs: [1, 2] },
      // Not { min: 400, max: 100 }: JSON Schema cannot compare two fields; the description says min <= max.
    ];
    for (const sample of samples) {
      expect([sample, validate(sample)]).toEqual([sample, v.is(FaultRuleSchema, sample)]);
    }
  });

  it('judges clock changes exactly as the valibot schema POST /__admin/clock validates with', async () => {
    const validate = schemaValidator(await servedAdminDocument(), '/components/schemas/ClockChange');
    const samples = [
      { advanceMs: 60_000 },
      { advanceMs: 0.5 },
      { set: '2026-06-01T12:00:00Z' },
      { set: '2026-06-01T12:00:00.123+02:00' },
      {},
      { advanceMs: 1, set: '2026-06-01T12:00:00Z' },
      { advanceMs: -1 },
      { advanceMs: '60000' },
      { set: 1_780_315_200_000 },
      { advanceMs: 1, by: 2 },
      { advanceMs: 2 * 8.64e15 + 1 },
      { set: '+010000-01-01T00:00:00.000Z' },
      { set: '-000001-12-31T23:59:59.999Z' },
      { set: '2026-06-01 12:00:00Z' },
      { set: '2026-06-01T12:00Z' },
      { set: '2026-06-01T12:00:00+0200' },
    ];
    for (const sample of samples) {
      expect([sample, validate(sample)]).toEqual([sample, v.is(ClockChangeSchema, sample)]);
    }
  });

  it('declares every operation with an operationId, a tag and every status it can answer, errors with the Error body', async () => {
    const document = await servedAdminDocument();
    const operations = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item as Record<string, { operationId: string; tags: string[]; description: string; responses: Record<string, unknown> }>).map(
        ([method, operation]) => ({
          path,
          method,
          ...operation,
        }),
      ),
    );
    const inSandbox = '/__admin/sandboxes/{id}/';
    const summary = ({ method, path, operationId, tags, responses }: (typeof operations)[number]) => [
      `${method.toUpperCase()} ${path}`,
      operationId,
      tags,
      Object.keys(responses),
    ];
    // Every world operation again for one sandbox, but the server's own: its document, the dashboard's page and files, the event stream of every world.
    const world = operations.filter(({ path }) => !path.startsWith('/__admin/sandboxes'));
    const ofTheServer = ({ path, tags }: (typeof operations)[number]) =>
      path === '/__admin/openapi.json' || path === '/__admin/requests/events' || tags.includes('dashboard');
    expect(operations.filter(({ path }) => path.startsWith(inSandbox)).map(summary)).toEqual(
      world
        .filter((operation) => !ofTheServer(operation))
        .map((operation) => {
          const [call, operationId, , statuses] = summary(operation) as [string, string, string[], string[]];
          // Integer keys come first in an object, in order: the 404 goes among them, once (a route with a 404 of its own shares it).
          const numbered = new Set([...statuses.filter((status) => /^\d+$/.test(status)), '404']);
          const withNotFound = [...numbered].sort().concat(statuses.filter((status) => !/^\d+$/.test(status)));
          return [call.replace('/__admin/', inSandbox), `${operationId}InSandbox`, ['sandboxes'], withNotFound];
        }),
    );
    expect(operations.filter(({ path }) => !path.startsWith(inSandbox)).map(summary)).toEqual([
      ['POST /__admin/reset', 'resetStore', ['store'], ['204', '400', '401', '429', '4XX']],
      ['OPTIONS /__admin/reset', 'resetStoreOptions', ['store'], ['204', '400', '401', '429', '4XX']],
      ['POST /__admin/seed', 'seedPets', ['store'], ['201', '400', '401', '413', '415', '429', '507', '4XX']],
      ['OPTIONS /__admin/seed', 'seedPetsOptions', ['store'], ['204', '400', '401', '429', '4XX']],
      ['GET /__admin/pets', 'listAllPets', ['store'], ['200', '400', '401', '429', '4XX']],
      ['HEAD /__admin/pets', 'listAllPetsHead', ['store'], ['200', '400', '401', '429', '4XX']],
      ['OPTIONS /__admin/pets', 'listAllPetsOptions', ['store'], ['204', '400', '401', '429', '4XX']],
      ['GET /__admin/clock', 'getClock', ['clock'], ['200', '400', '401', '429', '4XX']],
      ['HEAD /__admin/clock', 'getClockHead', ['clock'], ['200', '400', '401', '429', '4XX']],
      ['POST /__admin/clock', 'moveClock', ['clock'], ['200', '400', '401', '413', '415', '429', '4XX']],
      ['OPTIONS /__admin/clock', 'clockOptions', ['clock'], ['204', '400', '401', '429', '4XX']],
      ['GET /__admin/faults', 'listFaults', ['faults'], ['200', '400', '401', '429', '4XX']],
      ['HEAD /__admin/faults', 'listFaultsHead', ['faults'], ['200', '400', '401', '429', '4XX']],
      ['POST /__admin/faults', 'injectFault', ['faults'], ['201', '400', '401', '413', '415', '429', '4XX']],
      ['DELETE /__admin/faults', 'clearFaults', ['faults'], ['204', '400', '401', '429', '4XX']],
      ['OPTIONS /__admin/faults', 'faultsOptions', ['faults'], ['204', '400', '401', '429', '4XX']],
      ['DELETE /__admin/faults/{faultId}', 'removeFault', ['faults'], ['204', '400', '401', '404', '429', '4XX']],
      ['OPTIONS /__admin/faults/{faultId}', 'faultOptions', ['faults'], ['204', '400', '401', '429', '4XX']],
      ['GET /__admin/requests', 'listRequests', ['journal'], ['200', '400', '401', '429', '4XX']],
      ['HEAD /__admin/requests', 'listRequestsHead', ['journal'], ['200', '400', '401', '429', '4XX']],
      ['DELETE /__admin/requests', 'clearRequests', ['journal'], ['204', '400', '401', '429', '4XX']],
      ['OPTIONS /__admin/requests', 'requestsOptions', ['journal'], ['204', '400', '401', '429', '4XX']],
      ['GET /__admin/requests.har', 'getRequestsHar', ['journal'], ['200', '400', '401', '429', '4XX']],
      ['HEAD /__admin/requests.har', 'getRequestsHarHead', ['journal'], ['200', '400', '401', '429', '4XX']],
      ['OPTIONS /__admin/requests.har', 'requestsHarOptions', ['journal'], ['204', '400', '401', '429', '4XX']],
      ['GET /__admin/requests/count', 'countRequests', ['journal'], ['200', '400', '401', '429', '4XX']],
      ['HEAD /__admin/requests/count', 'countRequestsHead', ['journal'], ['200', '400', '401', '429', '4XX']],
      ['OPTIONS /__admin/requests/count', 'countRequestsOptions', ['journal'], ['204', '400', '401', '429', '4XX']],
      ['POST /__admin/verify', 'verifyRequests', ['journal'], ['200', '400', '401', '409', '413', '415', '429', '4XX']],
      ['OPTIONS /__admin/verify', 'verifyRequestsOptions', ['journal'], ['204', '400', '401', '429', '4XX']],
      ['GET /__admin/openapi.json', 'getAdminOpenApiDocument', ['document'], ['200', '400', '401', '429', '4XX']],
      ['HEAD /__admin/openapi.json', 'getAdminOpenApiDocumentHead', ['document'], ['200', '400', '401', '429', '4XX']],
      ['OPTIONS /__admin/openapi.json', 'adminOpenApiDocumentOptions', ['document'], ['204', '400', '401', '429', '4XX']],
      ['GET /__admin/sandboxes', 'listSandboxes', ['sandboxes'], ['200', '400', '401', '429', '4XX']],
      ['HEAD /__admin/sandboxes', 'listSandboxesHead', ['sandboxes'], ['200', '400', '401', '429', '4XX']],
      ['POST /__admin/sandboxes', 'openSandbox', ['sandboxes'], ['201', '400', '401', '409', '413', '415', '429', '507', '4XX']],
      ['OPTIONS /__admin/sandboxes', 'sandboxesOptions', ['sandboxes'], ['204', '400', '401', '429', '4XX']],
      ['GET /__admin/sandboxes/{id}', 'getSandbox', ['sandboxes'], ['200', '400', '401', '404', '429', '4XX']],
      ['HEAD /__admin/sandboxes/{id}', 'getSandboxHead', ['sandboxes'], ['200', '400', '401', '404', '429', '4XX']],
      ['DELETE /__admin/sandboxes/{id}', 'deleteSandbox', ['sandboxes'], ['204', '400', '401', '404', '429', '4XX']],
      ['OPTIONS /__admin/sandboxes/{id}', 'sandboxOptions', ['sandboxes'], ['204', '400', '401', '404', '429', '4XX']],
      ['GET /__admin', 'redirectToDashboard', ['dashboard'], ['308', '400', '429', '4XX']],
      ['HEAD /__admin', 'redirectToDashboardHead', ['dashboard'], ['308', '400', '429', '4XX']],
      ['OPTIONS /__admin', 'redirectToDashboardOptions', ['dashboard'], ['204', '400', '429', '4XX']],
      ['GET /__admin/', 'getDashboard', ['dashboard'], ['200', '400', '429', '4XX']],
      ['HEAD /__admin/', 'getDashboardHead', ['dashboard'], ['200', '400', '429', '4XX']],
      ['OPTIONS /__admin/', 'getDashboardOptions', ['dashboard'], ['204', '400', '429', '4XX']],
      ['GET /__admin/dashboard.js', 'getDashboardScript', ['dashboard'], ['200', '400', '429', '4XX']],
      ['HEAD /__admin/dashboard.js', 'getDashboardScriptHead', ['dashboard'], ['200', '400', '429', '4XX']],
      ['OPTIONS /__admin/dashboard.js', 'getDashboardScriptOptions', ['dashboard'], ['204', '400', '429', '4XX']],
      ['GET /__admin/dashboard.css', 'getDashboardStyles', ['dashboard'], ['200', '400', '429', '4XX']],
      ['HEAD /__admin/dashboard.css', 'getDashboardStylesHead', ['dashboard'], ['200', '400', '429', '4XX']],
      ['OPTIONS /__admin/dashboard.css', 'getDashboardStylesOptions', ['dashboard'], ['204', '400', '429', '4XX']],
      ['GET /__admin/favicon.svg', 'getDashboardIcon', ['dashboard'], ['200', '400', '429', '4XX']],
      ['HEAD /__admin/favicon.svg', 'getDashboardIconHead', ['dashboard'], ['200', '400', '429', '4XX']],
      ['OPTIONS /__admin/favicon.svg', 'getDashboardIconOptions', ['dashboard'], ['204', '400', '429', '4XX']],
      ['GET /__admin/requests/events', 'streamRequests', ['journal'], ['200', '400', '401', '429', '503', '4XX']],
      ['HEAD /__admin/requests/events', 'streamRequestsHead', ['journal'], ['200', '400', '401', '429', '503', '4XX']],
      ['OPTIONS /__admin/requests/events', 'streamRequestsOptions', ['journal'], ['204', '400', '401', '429', '4XX']],
    ]);
    for (const { method, path, description } of operations)
      expect([method, path, typeof description, description.length > 0]).toEqual([method, path, 'string', true]);
    const { responses } = document.components;
    // No response component without an operation using it: a 404 for an unknown admin path is said in info.description.
    expect(Object.keys(responses)).toEqual(['BadRequest', 'Unauthorized', 'PayloadTooLarge', 'UnsupportedMediaType', 'TooManyRequests', 'OtherClientError']);
    for (const response of Object.values(responses) as { content: object }[]) {
      expect(response.content).toEqual({ 'application/json': { schema: { $ref: '#/components/schemas/Error' } } });
    }
    expect(responses.Unauthorized.headers['WWW-Authenticate']).toEqual({ $ref: '#/components/headers/WWW-Authenticate' });
    expect(responses.TooManyRequests.headers['Retry-After']).toEqual({ $ref: '#/components/headers/Retry-After' });
    expect(document.components.headers['Retry-After'].required).toBe(true);
    expect(responses.OtherClientError.headers.Allow).toEqual({ $ref: '#/components/headers/Allow.optional' });
    expect(document.paths['/__admin/faults'].options.responses['204'].headers.Allow).toEqual({ $ref: '#/components/headers/Allow' });
    expect(document.info.description).toContain('405 `method_not_allowed` with `Allow`');
    const seed = document.paths['/__admin/seed'].post.requestBody.content['application/json'].schema;
    expect(seed.anyOf[0].items).toEqual({ $ref: '#/components/schemas/NewPet' });
    expect(Object.keys(seed.anyOf[1].properties)).toEqual(['generate']);
  });

  it('lists as operations exactly the methods each admin path answers: what OPTIONS puts in Allow', async () => {
    const document = await servedAdminDocument();
    const store = createPetStore({ admin: { token: ADMIN_TOKEN } });
    const authorization = `Bearer ${ADMIN_TOKEN}`;
    const { id } = await (await store.fetch('http://localhost/__admin/sandboxes', { method: 'POST', headers: { authorization } })).json();
    for (const [path, item] of Object.entries(document.paths)) {
      const answer = await store.fetch(`http://localhost${path.replace('{id}', id)}`, { method: 'OPTIONS', headers: { authorization } });
      expect([path, answer.status, answer.headers.get('allow')?.toLowerCase().split(', ').sort()]).toEqual([path, 204, Object.keys(item as object).sort()]);
    }
  });

  it('judges seed bodies as POST /__admin/seed does, a reserved key at any depth of a pet included', async () => {
    const validate = schemaValidator(await servedAdminDocument(), '/paths/~1__admin~1seed/post/requestBody/content/application~1json/schema');
    const bodies = [
      '[]',
      '[{"name":"Rex","categoryId":1},{"name":"Tom","categoryId":2,"status":"sold","toy":{"kind":"ball"}}]',
      '[{"name":"Rex","categoryId":1,"toy":{"constructor":1}}]',
      '[{"name":"Rex","categoryId":1,"__proto__":{}}]',
      '[{"name":"Rex"}]',
      '[5]',
      '{"name":"Rex","categoryId":1}',
      '{"generate":{"count":3,"seed":7}}',
      '{"generate":{"count":10000,"seed":4294967295}}',
      '{"generate":{"count":1}}',
      '{"generate":{"count":0}}',
      '{"generate":{"count":10001}}',
      '{"generate":{"count":2.5}}',
      '{"generate":{"count":3,"seed":-1}}',
      '{"generate":{"count":3,"seed":4294967296}}',
      '{"generate":{"count":3,"colour":"red"}}',
      '{"generate":{"count":3},"pets":[]}',
      '{"generate":{}}',
      '{"generate":5}',
      '{}',
    ];
    for (const body of bodies) {
      const store = createPetStore({ admin: { token: ADMIN_TOKEN } });
      const answer = await store.fetch('http://localhost/__admin/seed', {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body,
      });
      expect([body, validate(JSON.parse(body))]).toEqual([body, answer.status === 201]);
    }
  });

  it('describes the items GET /__admin/faults lists as the rule with its id and what it has left', async () => {
    const document = await servedAdminDocument();
    expect(document.paths['/__admin/faults'].get.responses['200'].content['application/json'].schema).toEqual({
      type: 'array',
      items: { $ref: '#/components/schemas/PendingFault' },
    });
    const validate = schemaValidator(document, '/components/schemas/PendingFault');
    expect(validate({ status: 503, method: 'POST', path: '/v1/pets', times: 2, id: 'fault-1', left: 2 })).toBe(true);
    expect(validate({ delayMs: 10, times: 'always', id: 'fault-2', left: 'always' })).toBe(true);
    expect(validate({ status: 503, left: 1 })).toBe(false);
  });

  it('names the mount root as its server, a relative URL as the API document does', async () => {
    expect((await servedAdminDocument()).servers).toEqual([{ url: '/' }]);
    // What it says when the admin routes are told the prefix a host mounted the store under.
    expect(adminOpenApiDocument('/api').servers).toEqual([{ url: '/api' }]);
  });
});
