/** Both documents true to the last value: every bound of every parameter and body field, probed either side against the real handler, accepted exactly when the document allows it. */
import { describe, expect, it } from 'vitest';
import { createPetStore } from '../../compose/index.ts';
import { bodyProbes, type Probe, probesOf, resolve, withValue } from './boundaries.ts';
import { operationsOf } from './document-requests.ts';

type Node = Record<string, unknown>;

const KEY = 'boundaries-key-0123456789';
const ADMIN = 'boundaries-admin-0123456789';
const FIELD_OF_SANDBOX = '{id}';

/** A valid body of each operation that takes one, each form of it for a body of several: the probes vary one field of it at a time. */
const SAMPLES: Record<string, readonly unknown[]> = {
  'POST /pets': [{ name: 'Rex', categoryId: 1 }],
  'POST /__admin/seed': [[{ name: 'Rex', categoryId: 1 }], { generate: { count: 1, seed: 1 } }],
  'POST /__admin/clock': [{ advanceMs: 0 }],
  'POST /__admin/faults': [
    { status: 500, times: 1, retryAfterSeconds: 1, probability: 0.5, delayMs: 0 },
    { status: 500, delayMs: { min: 0, max: 2_147_483_647 } },
  ],
  'POST /__admin/verify': [{ status: 200, times: 0 }],
  'POST /__admin/sandboxes': [{ seed: [{ name: 'Rex', categoryId: 1 }] }, { seed: { generate: { count: 1, seed: 1 } } }],
};
/** The same samples under a sandbox's own admin routes. */
const sampleOf = (operation: string) => SAMPLES[operation.replace('/__admin/sandboxes/{id}/', '/__admin/')];

/** A fresh store, and a sandbox when the path names one: no probe sees another's clock, pets or faults. */
async function freshStore(template: string) {
  const store = createPetStore({ admin: { token: ADMIN }, apiKeys: { [KEY]: { perMinute: 1_000_000, perDay: 1_000_000 } } });
  let sandbox = '';
  if (template.includes(FIELD_OF_SANDBOX)) {
    const opened = await store.fetch('http://localhost/__admin/sandboxes', {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
      body: '{}',
    });
    sandbox = ((await opened.json()) as { id: string }).id;
  }
  return { store, sandbox };
}

/** One request of a probe: what the server answered, and whether that refuses the value (a 400 naming the field). */
async function answerTo(document: 'main' | 'admin', template: string, verb: string, place: string, probe: Probe, body?: string) {
  const { store, sandbox } = await freshStore(template);
  const base = document === 'main' ? 'http://localhost/v1' : 'http://localhost';
  let path = template
    .replace(FIELD_OF_SANDBOX, sandbox)
    .replace(/\{([^}]+)\}/g, (_, name: string) => (place === 'path' && name === probe.field ? probe.text : '1'));
  if (place === 'query') path += `?${probe.field}=${encodeURIComponent(probe.text)}`;
  const headers: Record<string, string> = { authorization: `Bearer ${document === 'main' ? KEY : ADMIN}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (place === 'header') headers[probe.field] = probe.text;
  const response = await store.fetch(`${base}${path}`, { method: verb.toUpperCase(), headers, body });
  if (response.status !== 400) return { status: response.status, refused: false };
  if (verb === 'head') return { status: 400, refused: true };
  const { code, details = [] } = (await response.json()) as { code: string; details?: { field: string }[] };
  // A union names the field that holds it (`delayMs` for `delayMs.min`); anything else its own.
  const named = details.some(({ field }) => field === probe.field || probe.field.startsWith(`${field}.`));
  return { status: 400, refused: code === 'invalid_request' && named };
}

/** Every probe of `document`, sent; a line for each the server answers otherwise than the document says, and the fields probed. */
async function probeDocument(which: 'main' | 'admin') {
  const store = createPetStore({ admin: { token: ADMIN } });
  const url = which === 'main' ? 'http://localhost/v1/openapi.json' : 'http://localhost/__admin/openapi.json';
  const document = (await (await store.fetch(url, { headers: { authorization: `Bearer ${ADMIN}` } })).json()) as Node;
  const wrong: string[] = [];
  const fields = new Set<string>();
  for (const [template, verb, operation] of operationsOf(document)) {
    const name = `${verb.toUpperCase()} ${template}`;
    const pathItem = (document.paths as Record<string, Node>)[template]!;
    const parameters = [...((pathItem.parameters as Node[]) ?? []), ...((operation.parameters as Node[]) ?? [])].map((p) => resolve(document, p));
    // A path parameter off its pattern names no resource (a 404), and the main document's one
    // patterned parameter is an opaque cursor (its pattern a shape, not a promise): not probed.
    const tried: [string, Probe, string | undefined][] = parameters.flatMap((p) =>
      probesOf(p.name as string, resolve(document, p.schema as Node))
        .filter((probe) => probe.bound !== 'pattern' || (p.in !== 'path' && which === 'admin'))
        .map((probe): [string, Probe, undefined] => [p.in as string, probe, undefined]),
    );
    const bodySchema = (operation.requestBody as { content?: Record<string, { schema: Node }> } | undefined)?.content?.['application/json']?.schema;
    if (bodySchema) {
      const samples = sampleOf(name);
      if (!samples) wrong.push(`${name}: no sample body to probe it with (add one to SAMPLES)`);
      for (const sample of samples ?? []) {
        for (const probe of bodyProbes(document, bodySchema, sample)) {
          const isString = probe.string === true || !/^-?[0-9]/.test(probe.text) || probe.bound.includes('Length');
          tried.push(['body', probe, withValue(sample, probe.field, probe.text, isString)]);
        }
      }
    }
    for (const [place, probe, body] of tried) {
      fields.add(probe.field);
      const { status, refused } = await answerTo(which, template, verb, place, probe, body);
      if (refused === probe.allowed) {
        const shown = probe.text.length > 24 ? `${probe.text.slice(0, 12)}…(${probe.text.length})` : probe.text;
        wrong.push(
          `${name} ${place} ${probe.field} = ${shown} (${probe.bound}): the document ${probe.allowed ? 'allows' : 'refuses'} it, the server answered ${status}`,
        );
      }
    }
  }
  return { wrong, fields: [...fields].sort() };
}

describe('every bound in both documents, against the real handler', () => {
  it('serves every value the main document allows and refuses every value past its bounds with a 400 naming the field', async () => {
    const { wrong, fields } = await probeDocument('main');
    expect(wrong).toEqual([]);
    expect(fields).toEqual(['categoryId', 'limit', 'name', 'petId']);
  });

  it('serves every value the admin document allows and refuses every value past its bounds with a 400 naming the field', { timeout: 60_000 }, async () => {
    const { wrong, fields } = await probeDocument('admin');
    expect(wrong).toEqual([]);
    expect(fields).toEqual(expect.arrayContaining(['advanceMs', 'delayMs', 'delayMs.max', 'delayMs.min', 'generate.count', 'generate.seed', '0.name']));
    expect(fields).toEqual(expect.arrayContaining(['probability', 'retryAfterSeconds', 'seed.generate.count', 'seed.0.categoryId', 'status', 'times']));
  });
});
