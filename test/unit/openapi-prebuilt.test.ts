/** The service worker's OpenAPI document, made from the schemas its build converts ahead of time (scripts/prebuilt-openapi.ts), is the library's to the byte. */
import { beforeAll, expect, it } from 'vitest';
import { prebuiltOpenApiModule } from '../../scripts/prebuilt-openapi.ts';
import { openApiDocument } from '../../src/operations/openapi-document.ts';
import type { OpenApiSchemas } from '../../src/operations/openapi-schemas.ts';

/** The worker's `openApiSchemas()`: the module the plugin writes, loaded as a module. */
let prebuilt: () => OpenApiSchemas;
beforeAll(async () => {
  ({ openApiSchemas: prebuilt } = await import(`data:text/javascript,${encodeURIComponent(prebuiltOpenApiModule())}`));
});

// The document varies with its `servers` alone: the base path (under a mount prefix or none), or publicUrl.
it.each(['/v1', '', '/shop/v1', '/api', 'https://pets.example/v2'])(
  'serves from the worker, for the server %j, the document the library builds at run time',
  (server) => {
    const [worker, library] = [openApiDocument(server, prebuilt()), openApiDocument(server)].map((document) => JSON.stringify(document));
    // Equal as values first, for a readable diff; then as text, its keys in the same order.
    expect(JSON.parse(worker!)).toEqual(JSON.parse(library!));
    expect(worker).toBe(library);
  },
);

it('hands each caller schemas of its own, as the converter does', () => {
  (prebuilt().listQuery[0] as { name: string }).name = 'changed';
  expect(prebuilt().listQuery[0]).toMatchObject({ name: 'limit' });
});
