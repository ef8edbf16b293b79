/** The API's served OpenAPI document: valid 3.1, generated from the validating schemas, declaring every method, status and header the server answers with. */
import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { createPetStore } from '../../compose/index.ts';
import { encodeCursor } from '../../src/operations/inputs.ts';
import { RESERVED_BODY_KEYS as RESERVED_KEYS } from '../../src/operations/body.ts';
import { NewPetSchema } from '../../src/storage/pet.ts';

const KEY = 'openapi-key-0123456789';
const QUOTA_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'RateLimit', 'RateLimit-Policy'];
const CORS_HEADERS = [
  'Access-Control-Allow-Origin',
  'Access-Control-Allow-Methods',
  'Access-Control-Allow-Headers',
  'Access-Control-Expose-Headers',
  'Access-Control-Max-Age',
  'Access-Control-Allow-Private-Network',
  'Vary',
];

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

  it('declares every operation with every status it can answer, HEAD and OPTIONS included, a fault\u2019s 503 and any other 4xx or 5xx', async () => {
    const { paths } = await servedDocument();
    const operations = Object.entries(paths).flatMap(([path, item]) =>
      Object.entries(item as Record<string, { responses?: object }>)
        .filter(([, operation]) => operation.responses)
        .map(([method, operation]) => `${method.toUpperCase()} ${path}: ${Object.keys(operation.responses!).join(' ')}`),
    );
    expect(operations).toEqual([
      // 404 and 409 on each: a fake backend's sandbox selector answers them before any route.
      'GET /pets: 200 400 401 404 409 429 500 503 4XX 5XX',
      'HEAD /pets: 200 400 401 404 409 429 500 503 4XX 5XX',
      'POST /pets: 201 400 401 404 409 413 415 422 429 500 503 507 4XX 5XX',
      'OPTIONS /pets: 204 400 401 404 409 429 500 503 4XX 5XX',
      'GET /pets/{petId}: 200 400 401 404 409 410 429 500 503 4XX 5XX',
      'HEAD /pets/{petId}: 200 400 401 404 409 410 429 500 503 4XX 5XX',
      'OPTIONS /pets/{petId}: 204 400 401 404 409 429 500 503 4XX 5XX',
      'GET /openapi.json: 200 400 404 409 429 500 503 4XX 5XX',
      'HEAD /openapi.json: 200 400 404 409 429 500 503 4XX 5XX',
      'OPTIONS /openapi.json: 204 400 404 409 429 500 503 4XX 5XX',
    ]);
    expect(paths['/pets/{petId}'].get.deprecated).toBe(true);
    expect(paths['/pets/{petId}'].head.deprecated).toBe(true);
    expect(paths['/openapi.json'].get.security).toEqual([]);
    expect(paths['/openapi.json'].options.security).toEqual([]);
  });

  it('lists as operations exactly the methods each path answers: what OPTIONS puts in Allow', async () => {
    const document = await servedDocument();
    const store = createPetStore({ apiKeys: { [KEY]: 'free' } });
    for (const [path, item] of Object.entries(document.paths)) {
      const answer = await store.fetch(`http://localhost/v1${path.replace('{petId}', '1')}`, {
        method: 'OPTIONS',
        headers: { authorization: `Bearer ${KEY}` },
      });
      expect([path, answer.status]).toEqual([path, 204]);
      const declared = Object.keys(item as object).filter((key) => key !== 'parameters');
      expect([path, answer.headers.get('allow')?.toLowerCase().split(', ').sort()]).toEqual([path, declared.sort()]);
    }
  });

  it('gives every HEAD the responses of its GET without their bodies', async () => {
    const document = await servedDocument();
    const resolve = (response: { $ref?: string }) => (response.$ref ? document.components.responses[response.$ref.split('/').at(-1)!] : response);
    for (const [path, item] of Object.entries<Record<string, { responses: Record<string, { $ref?: string }> }>>(document.paths)) {
      expect([path, Object.keys(item.head!.responses)]).toEqual([path, Object.keys(item.get!.responses)]);
      for (const [status, response] of Object.entries(item.head!.responses)) {
        const { content, ...rest } = resolve(item.get!.responses[status]!);
        expect([path, status, content]).toEqual([path, status, expect.anything()]);
        expect([path, status, resolve(response)]).toEqual([path, status, rest]);
      }
    }
  });

  it('declares 503 with a required Retry-After on every operation, as --fail-rate and injected faults answer', async () => {
    const document = await servedDocument();
    const unavailable = document.components.responses.ServiceUnavailable;
    expect(unavailable.headers['Retry-After']).toEqual({ $ref: '#/components/headers/Retry-After' });
    expect(document.components.headers['Retry-After'].required).toBe(true);
    expect(unavailable.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
    for (const [path, item] of Object.entries<Record<string, { responses?: Record<string, { $ref?: string; headers?: Record<string, unknown> }> }>>(
      document.paths,
    )) {
      for (const [method, operation] of Object.entries(item)) {
        if (!operation.responses) continue;
        const declared = operation.responses['503'];
        const retryAfter = declared?.$ref === '#/components/responses/ServiceUnavailable' || declared?.headers?.['Retry-After'] !== undefined;
        expect([method, path, retryAfter]).toEqual([method, path, true]);
      }
    }
  });

  it('requires no header on a 400: the edge refuses a malformed Host or a repeated Authorization before the request is counted', async () => {
    const document = await servedDocument();
    const required = (response: { headers: Record<string, { $ref?: string; required?: boolean }> }) =>
      Object.entries(response.headers)
        .filter(([, header]) => (header.$ref ? document.components.headers[header.$ref.split('/').at(-1)!] : header).required)
        .map(([name]) => name);
    expect(required(document.components.responses.BadRequest)).toEqual([]);
    // GET /pets/{petId} repeats its 400 to add its own headers: optional there too.
    expect(required(document.paths['/pets/{petId}'].get.responses['400'])).toEqual([]);
    // What the limits step counted always carries the quota headers.
    expect(required(document.components.responses.Unauthorized)).toEqual(['WWW-Authenticate', ...QUOTA_HEADERS]);
  });

  it('declares the bearer scheme, the Error body and the headers we send, CORS included', async () => {
    const document = await servedDocument();
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(document.components.schemas.Error.required).toEqual(['code', 'message', 'status']);
    const getPet200 = document.paths['/pets/{petId}'].get.responses['200'];
    expect(Object.keys(getPet200.headers).sort()).toEqual(['Deprecation', 'Link', 'Sunset', ...QUOTA_HEADERS, ...CORS_HEADERS].sort());
    for (const response of Object.values(document.components.responses) as { headers: object }[]) {
      expect(Object.keys(response.headers)).toEqual(expect.arrayContaining([...QUOTA_HEADERS, ...CORS_HEADERS]));
    }
    expect(document.components.responses.TooManyRequests.headers['Retry-After']).toBeDefined();
    expect(document.paths['/pets'].get.responses['200'].headers.Link).toBeDefined();
    expect(document.components.responses.Unauthorized.headers['WWW-Authenticate']).toBeDefined();
    // A 405 answers a method no operation lists: its Allow is the one OPTIONS sends, and the 4xx range declares it.
    expect(document.paths['/pets'].options.responses['204'].headers.Allow).toEqual({ $ref: '#/components/headers/Allow' });
    expect(document.components.responses.OtherClientError.headers.Allow).toBeDefined();
    expect(document.info.description).toContain('405 `method_not_allowed` with `Allow`');
  });

  it('sends no header its document does not declare, CORS on or off', async () => {
    const document = await servedDocument();
    for (const cors of [undefined, '*'] as const) {
      const store = createPetStore({ apiKeys: { [KEY]: 'free' }, ...(cors && { cors }) });
      const headers = { authorization: `Bearer ${KEY}`, origin: 'https://app.example' };
      const answers = {
        '/pets get 200': await store.fetch('http://localhost/v1/pets', { headers }),
        '/pets options 204': await store.fetch('http://localhost/v1/pets', { method: 'OPTIONS', headers }),
        '/pets/{petId} get 404': await store.fetch('http://localhost/v1/pets/7', { headers }),
      };
      for (const [where, answer] of Object.entries(answers)) {
        const [path, method, status] = where.split(' ') as [string, string, string];
        const declared = document.paths[path][method].responses[status];
        const response = declared.$ref ? document.components.responses[declared.$ref.split('/').at(-1)] : declared;
        const names = Object.keys(response.headers).map((name) => name.toLowerCase());
        const undeclared = [...answer.headers.keys()].filter((name) => name !== 'content-type' && !names.includes(name));
        expect([cors, where, answer.status, undeclared]).toEqual([cors, where, Number(status), []]);
      }
    }
  });

  it('refuses a body with a reserved key at any depth, as POST /pets does', async () => {
    const document = await servedDocument();
    const validate = schemaValidator(document, '/components/schemas/NewPet');
    const store = createPetStore({ apiKeys: { [KEY]: 'business' } });
    const post = (body: string) =>
      store.fetch('http://localhost/v1/pets', { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body });
    const bodies = [
      '{"name":"Rex","categoryId":1}',
      '{"name":"Rex","categoryId":1,"toy":{"kind":"ball","sizes":[1,{"cm":3}]}}',
      '{"name":"prototype","categoryId":1,"note":"constructor"}',
      ...RESERVED_KEYS.flatMap((key) => [
        `{"name":"Rex","categoryId":1,"${key}":{}}`,
        `{"name":"Rex","categoryId":1,"toy":{"${key}":1}}`,
        `{"name":"Rex","categoryId":1,"toys":[1,[{"${key}":null}]]}`,
      ]),
    ];
    for (const body of bodies) {
      const accepted = (await post(body)).status === 201;
      expect([body, validate(JSON.parse(body))]).toEqual([body, accepted]);
    }
  });

  it('describes cursor with the pattern every cursor the server writes matches, and refuses text outside it', async () => {
    const document = await servedDocument();
    const cursor = document.paths['/pets'].get.parameters.find((p: { name: string }) => p.name === 'cursor');
    const pattern = new RegExp(cursor.schema.pattern);
    for (const id of [1, 20, 2 ** 53 - 1]) expect(encodeCursor(id)).toMatch(pattern);
    const store = createPetStore({ apiKeys: { [KEY]: 'free' } });
    for (const text of ['a'.repeat(33), 'p1:1', 'cDE6MQ==']) {
      expect(text).not.toMatch(pattern);
      const answer = await store.fetch(`http://localhost/v1/pets?cursor=${encodeURIComponent(text)}`, { headers: { authorization: `Bearer ${KEY}` } });
      expect(answer.status).toBe(400);
    }
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

/** A validator for the schema at `pointer` in `document`, its references resolved within it. */
function schemaValidator(document: object, pointer: string) {
  const ajv = new Ajv2020({ strict: false, validateFormats: false });
  ajv.addSchema({ ...document, $id: 'https://api.test/openapi.json' });
  return ajv.getSchema(`https://api.test/openapi.json#${pointer}`)!;
}
