/** The API's served OpenAPI document word for word: a change to it is a reviewed change to test/unit/__snapshots__/openapi.json. */
import { expect, it } from 'vitest';
import { createPetStore } from '../../compose/index.ts';
import { openApiDocument } from '../../src/operations/openapi-document.ts';

it('serves exactly the reviewed document, so a changed word of it shows in the snapshot (npx vitest run -u to accept one)', async () => {
  const response = await createPetStore().fetch('http://localhost/v1/openapi.json');
  expect(response.status).toBe(200);
  // Also built afresh: the route serializes its document once per process, and Stryker, running
  // files without isolation, changes the code between runs of one process.
  const built = JSON.parse(JSON.stringify(openApiDocument('/v1')));
  expect(await response.json()).toEqual(built);
  await expect(`${JSON.stringify(built, null, 2)}\n`).toMatchFileSnapshot('./__snapshots__/openapi.json');
});

it('names / as its server when the API is served at the root', async () => {
  const document = await (await createPetStore({ basePath: '' }).fetch('http://localhost/openapi.json')).json();
  expect(document.servers).toEqual([{ url: '/' }]);
});
