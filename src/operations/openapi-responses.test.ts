/** The shared error responses of the OpenAPI document as the module builds them when it loads: which carry the deprecated route's headers. */
import { describe, expect, it } from 'vitest';
// Imported as well as loaded anew: Stryker runs the test files that import a mutated module.
import { DEPRECATION_HEADERS } from './openapi-responses.ts';

describe('the error response components, the module loaded anew', () => {
  it('gives the 404 and 410, which only GET /pets/{petId} answers, its Deprecation, Sunset and successor Link, and no other status them', async () => {
    // A query of its own is a module of its own: the components are built once per load, and
    // Stryker, running files without isolation, changes the code between runs of one process (a
    // query never used before, so no earlier run's load is reused).
    const url = `./openapi-responses.ts?load=${crypto.randomUUID()}`;
    const fresh: typeof import('./openapi-responses.ts') = await import(/* @vite-ignore */ url);
    expect(DEPRECATION_HEADERS).toEqual({
      Deprecation: { $ref: '#/components/headers/Deprecation' },
      Sunset: { $ref: '#/components/headers/Sunset' },
      Link: { $ref: '#/components/headers/SuccessorLink' },
    });
    for (const name of ['NotFound', 'Gone']) expect(fresh.RESPONSE_COMPONENTS[name]?.headers).toMatchObject(DEPRECATION_HEADERS);
    for (const name of ['BadRequest', 'Unauthorized', 'TooManyRequests', 'OtherClientError']) {
      expect(Object.keys(fresh.RESPONSE_COMPONENTS[name]?.headers ?? {})).not.toContain('Deprecation');
    }
  });
});
