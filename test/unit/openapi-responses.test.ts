/** The shared responses and headers of the OpenAPI document as the module builds them when it loads: exactly the reviewed document's. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// Imported as well as loaded anew: Stryker runs the test files that import a mutated module.
import { DEPRECATION_HEADERS, optional } from '../../src/operations/openapi-responses.ts';

/** The reviewed document (openapi-snapshot.test.ts holds the served one to it). Here, not beside the module: src/ reads no node: module, its tests included (runtime-neutral.test.ts). */
const reviewed = JSON.parse(readFileSync(new URL('./__snapshots__/openapi.json', import.meta.url), 'utf8'));

/** As the document serializes it: JSON, without what JSON leaves out. */
const json = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

describe('the error responses and headers, the module loaded anew', () => {
  it('builds the components and GET /pets/{petId} errors of the reviewed document, the 410 with its Deprecation, Sunset and successor Link, the 404 with them optional', async () => {
    // A query of its own is a module of its own: the components are built once per load, and
    // Stryker, running files without isolation, changes the code between runs of one process (a
    // query never used before, so no earlier run's load is reused).
    const url = `../../src/operations/openapi-responses.ts?load=${crypto.randomUUID()}`;
    const fresh: typeof import('../../src/operations/openapi-responses.ts') = await import(/* @vite-ignore */ url);
    expect(json(fresh.RESPONSE_COMPONENTS)).toEqual(reviewed.components.responses);
    expect(json(fresh.HEADER_COMPONENTS)).toEqual(reviewed.components.headers);
    expect(json(fresh.DEPRECATION_HEADERS)).toEqual(json(DEPRECATION_HEADERS));
    expect(fresh.RESPONSE_COMPONENTS.Gone?.headers).toMatchObject(DEPRECATION_HEADERS);
    // A 404 is also a fake backend's answer to a selector of no open sandbox, given before the route: its deprecation headers may be missing.
    expect(fresh.RESPONSE_COMPONENTS.NotFound?.headers).toMatchObject(optional(DEPRECATION_HEADERS));
    const { 200: _, ...errors } = reviewed.paths['/pets/{petId}'].get.responses;
    expect(json(fresh.errorResponses([400, 401, 404, 410, 429, 500, 503, '4XX', '5XX'], fresh.DEPRECATION_HEADERS))).toEqual(errors);
  });
});
