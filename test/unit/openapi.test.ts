/** The served OpenAPI document: valid 3.1, generated from the validating schemas. */
import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { createPetStore } from '../../compose/index.ts';
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
