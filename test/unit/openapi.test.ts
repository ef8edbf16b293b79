/** The served OpenAPI documents, the API's and the admin API's: valid 3.1, generated from the validating schemas. */
import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { createPetStore } from '../../compose/index.ts';
import { adminOpenApiDocument } from '../../controls/admin-openapi.ts';
import { ClockChangeSchema, FaultRuleSchema } from '../../controls/admin-schemas.ts';
import { NewPetSchema } from '../../src/storage/pet.ts';

async function servedDocument(options = {}) {
  const response = await createPetStore(options).fetch('http://localhost/v1/openapi.json');
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('application/json');
  return response.json();
}

describe('GET /v1/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document by @apidevtools/swagger-parser', async () => {
    const document = await servedDocument();
    expect(document.openapi).toBe('3.1.0');
    await expect(SwaggerParser.validate(structuredClone(document))).resolves.toBeTruthy();
  });

  it('judges request bodies exactly as the valibot NewPet schema does', async () => {
    const document = await servedDocument();
    const ajv = new Ajv2020({ strict: false });
    for (const [name, schema] of Object.entries(document.components.schemas)) {
      ajv.addSchema(schema as object, `#/components/schemas/${name}`);
    }
    const validate = ajv.getSchema('#/components/schemas/NewPet')!;
    const samples = [
      { name: 'Rex', categoryId: 1 },
      { name: 'Rex', categoryId: -5, status: 'sold' },
      { name: 'Rex', categoryId: 2 ** 53 - 1, extra: true },
      { name: '', categoryId: 1 },
      { name: 'Rex' },
      { categoryId: 1 },
      { name: 'Rex', categoryId: 1.5 },
      { name: 'Rex', categoryId: 2 ** 53 },
      { name: 'Rex', categoryId: '1' },
      { name: 'Rex', categoryId: 1, status: 'lost' },
      { name: 7, categoryId: 1 },
    ];
    for (const sample of samples) {
      expect([sample, validate(sample)]).toEqual([sample, v.is(NewPetSchema, sample)]);
    }
  });

  it('declares every operation with every status it can answer', async () => {
    const { paths } = await servedDocument();
    const statuses = (operation: { responses: object }) => Object.keys(operation.responses).sort();
    expect(statuses(paths['/pets'].get)).toEqual(['200', '400', '401', '429', '500']);
    expect(statuses(paths['/pets'].post)).toEqual(['201', '400', '401', '413', '415', '422', '429', '500']);
    expect(statuses(paths['/pets/{petId}'].get)).toEqual(['200', '400', '401', '404', '410', '429', '500']);
    expect(statuses(paths['/openapi.json'].get)).toEqual(['200', '429']);
    expect(paths['/pets/{petId}'].get.deprecated).toBe(true);
    expect(paths['/openapi.json'].get.security).toEqual([]);
  });

  it('declares the bearer scheme, the Error body and the headers we send', async () => {
    const document = await servedDocument();
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(document.components.schemas.Error.required).toEqual(['code', 'message', 'status']);
    const getPet200 = document.paths['/pets/{petId}'].get.responses['200'];
    const quotaHeaders = ['RateLimit', 'RateLimit-Policy', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];
    expect(Object.keys(getPet200.headers).sort()).toEqual(['Deprecation', 'Link', 'Sunset', ...quotaHeaders].sort());
    for (const response of Object.values(document.components.responses) as { headers: object }[]) {
      expect(Object.keys(response.headers)).toEqual(expect.arrayContaining(quotaHeaders));
    }
    expect(document.components.responses.TooManyRequests.headers['Retry-After']).toBeDefined();
    expect(document.paths['/pets'].get.responses['200'].headers.Link).toBeDefined();
    expect(document.components.responses.Unauthorized.headers['WWW-Authenticate']).toBeDefined();
    expect(document.components.responses.MethodNotAllowed.headers.Allow).toBeDefined();
  });

  it('describes limit as an integer from 1 to 100 defaulting to 20', async () => {
    const { paths } = await servedDocument();
    const limit = paths['/pets'].get.parameters.find((p: { name: string }) => p.name === 'limit');
    expect(limit).toEqual({ name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } });
  });

  it('names the configured base path as its server', async () => {
    const response = await createPetStore({ basePath: '/api' }).fetch('http://localhost/api/openapi.json');
    expect((await response.json()).servers).toEqual([{ url: '/api' }]);
  });
});

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
    ];
    for (const sample of samples) {
      expect([sample, validate(sample)]).toEqual([sample, v.is(ClockChangeSchema, sample)]);
    }
  });

  it('declares every operation with an operationId, a tag and every status it can answer, errors with the Error body', async () => {
    const document = await servedAdminDocument();
    const operations = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item as Record<string, { operationId: string; tags: string[]; responses: Record<string, unknown> }>).map(([method, operation]) => ({
        path,
        method,
        ...operation,
      })),
    );
    expect(
      operations.map(({ method, path, operationId, tags, responses }) => [`${method.toUpperCase()} ${path}`, operationId, tags, Object.keys(responses).sort()]),
    ).toEqual([
      ['POST /__admin/reset', 'resetStore', ['store'], ['204', '401']],
      ['POST /__admin/seed', 'seedPets', ['store'], ['201', '400', '401', '413', '415']],
      ['GET /__admin/pets', 'listAllPets', ['store'], ['200', '401']],
      ['GET /__admin/clock', 'getClock', ['clock'], ['200', '401']],
      ['POST /__admin/clock', 'moveClock', ['clock'], ['200', '400', '401', '413', '415']],
      ['GET /__admin/faults', 'listFaults', ['faults'], ['200', '401']],
      ['POST /__admin/faults', 'injectFault', ['faults'], ['201', '400', '401', '413', '415']],
      ['DELETE /__admin/faults', 'clearFaults', ['faults'], ['204', '401']],
      ['GET /__admin/requests', 'listRequests', ['journal'], ['200', '401']],
      ['DELETE /__admin/requests', 'clearRequests', ['journal'], ['204', '401']],
      ['GET /__admin/openapi.json', 'getAdminOpenApiDocument', ['document'], ['200', '401']],
    ]);
    const { responses } = document.components;
    expect(Object.keys(responses)).toEqual(['BadRequest', 'Unauthorized', 'NotFound', 'MethodNotAllowed', 'PayloadTooLarge', 'UnsupportedMediaType']);
    for (const response of Object.values(responses) as { content: object }[]) {
      expect(response.content).toEqual({ 'application/json': { schema: { $ref: '#/components/schemas/Error' } } });
    }
    expect(responses.Unauthorized.headers['WWW-Authenticate']).toEqual({ $ref: '#/components/headers/WWW-Authenticate' });
    expect(responses.MethodNotAllowed.headers.Allow).toEqual({ $ref: '#/components/headers/Allow' });
    expect(document.paths['/__admin/seed'].post.requestBody.content['application/json'].schema.items).toEqual({ $ref: '#/components/schemas/NewPet' });
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
