/** A sandbox picked per request by its selector (Petstore-Sandbox or baggage): its world answers, with a key of the main world or its own. */
import { describe, expect, it } from 'vitest';
import { IN_PROCESS, resolveOptions } from '../../src/index.ts';
import { manualClock } from '../clock/clock.ts';
import { createSandboxes } from './sandboxes.ts';

const MAIN_KEY = 'main-key-0123456789';

function registry() {
  let time = Date.parse('2026-03-01T00:00:00Z');
  const sandboxes = createSandboxes({
    config: resolveOptions({ apiKeys: { [MAIN_KEY]: 'free' } }),
    clock: () => manualClock(),
    max: 10,
    idleMs: 60_000,
    now: () => time,
  });
  const handle = sandboxes.route(async () => Response.json({ world: 'main' }, { status: 299 }));
  const call = (headers: Record<string, string>, init: RequestInit = {}) =>
    handle(new Request('http://api.test/v1/pets', { ...init, headers: { authorization: `Bearer ${MAIN_KEY}`, ...headers } }), IN_PROCESS);
  return { sandboxes, call, advance: (ms: number) => (time += ms) };
}

const create = { method: 'POST', body: JSON.stringify({ name: 'Rex', categoryId: 1 }) };
const json = { 'content-type': 'application/json' };

describe('a request carrying a selector', () => {
  it('is answered by that sandbox with a main-world key, by header or baggage among other members, and its journal keeps it', async () => {
    const { sandboxes, call } = registry();
    const a = sandboxes.open()!;
    const b = sandboxes.open()!;
    expect(a.selector).toMatch(/^pssel_[A-Za-z0-9_-]{32}$/);
    expect((await call({ 'petstore-sandbox': a.selector, ...json }, create)).status).toBe(201);
    expect((await call({ baggage: `userId=7, petstore.sandbox=${b.selector};p=1`, ...json }, create)).status).toBe(201);
    expect((await call({ baggage: `petstore.sandbox=${b.selector}`, ...json }, create)).status).toBe(201);
    expect((await a.controls.pets()).map((pet) => pet.id)).toEqual([1]);
    expect((await b.controls.pets()).map((pet) => pet.id)).toEqual([1, 2]);
    expect(a.controls.requests).toHaveLength(1);
    expect(b.controls.requests).toHaveLength(2);
  });

  it('counts a main-world key on its plan in the sandbox, never in the main world', async () => {
    const { sandboxes, call } = registry();
    const { selector } = sandboxes.open()!;
    const first = await call({ 'petstore-sandbox': selector });
    expect(first.headers.get('ratelimit-policy')).toContain('"minute";q=60');
    expect(first.headers.get('x-ratelimit-remaining')).toBe('59');
    expect((await call({ 'petstore-sandbox': selector })).headers.get('x-ratelimit-remaining')).toBe('58');
    const { selector: other } = sandboxes.open()!;
    expect((await call({ 'petstore-sandbox': other })).headers.get('x-ratelimit-remaining')).toBe('59');
  });

  it('with a key of its own sandbox is answered there; the header wins over baggage', async () => {
    const { sandboxes, call } = registry();
    const a = sandboxes.open()!;
    const b = sandboxes.open()!;
    const response = await call({ authorization: `Bearer ${a.keys.pro}`, 'petstore-sandbox': a.selector, baggage: `petstore.sandbox=${b.selector}` });
    expect(response.status).toBe(200);
    expect(a.controls.requests).toHaveLength(1);
    expect(b.controls.requests).toHaveLength(0);
  });

  it('with a key of another sandbox is a 409 sandbox_conflict that reaches neither', async () => {
    const { sandboxes, call } = registry();
    const a = sandboxes.open()!;
    const b = sandboxes.open()!;
    const response = await call({ authorization: `Bearer ${a.keys.free}`, baggage: `petstore.sandbox=${b.selector}` });
    expect(response.status).toBe(409);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const body = await response.json();
    expect(body).toMatchObject({ code: 'sandbox_conflict', status: 409 });
    expect(body.message).toMatch(/key of one sandbox.*selector of another/);
    expect(a.controls.requests.length + b.controls.requests.length).toBe(0);
  });

  it('of no open sandbox (deleted, idle too long, forged) is a JSON 404 that names the selector, never the main world', async () => {
    const { sandboxes, call, advance } = registry();
    const deleted = sandboxes.open()!;
    sandboxes.delete(deleted.id);
    const idle = sandboxes.open()!;
    advance(60_001);
    for (const headers of <Record<string, string>[]>[
      { 'petstore-sandbox': deleted.selector },
      { baggage: `petstore.sandbox=${idle.selector}` },
      { 'petstore-sandbox': 'pssel_forged' },
      { authorization: `Bearer ${deleted.keys.free}`, 'petstore-sandbox': deleted.selector },
    ]) {
      const response = await call(headers);
      expect(response.status).toBe(404);
      const body = await response.json();
      expect(body).toMatchObject({ code: 'not_found', status: 404 });
      expect(body.message).toMatch(/^No open sandbox has this selector/);
    }
  });

  it('of no open sandbox answers HEAD with the 404 and no body, as a Response of the host\u2019s class', async () => {
    const { sandboxes } = registry();
    class HostResponse extends Response {}
    const handle = sandboxes.route(async () => new Response(null, { status: 299 }));
    const head = new Request('http://api.test/v1/pets', { method: 'HEAD', headers: { authorization: `Bearer ${MAIN_KEY}`, 'petstore-sandbox': 'pssel_gone' } });
    const response = await handle(head, { ...IN_PROCESS, ResponseClass: HostResponse });
    expect([response.status, response instanceof HostResponse, await response.text()]).toEqual([404, true, '']);
  });

  it('keeps its sandbox alive; a forged one keeps none', async () => {
    const { sandboxes, call, advance } = registry();
    const { id, selector } = sandboxes.open()!;
    for (let i = 0; i < 4; i++) {
      advance(30_000);
      await call({ 'petstore-sandbox': selector });
    }
    expect(sandboxes.get(id)).toBeDefined();
  });
});

describe('a request without a selector', () => {
  it('goes where its key sends it, as before', async () => {
    const { sandboxes, call } = registry();
    const a = sandboxes.open()!;
    expect((await call({})).status).toBe(299);
    expect((await call({ authorization: `Bearer ${a.keys.free}` })).status).toBe(200);
    expect((await call({ baggage: 'userId=7' })).status).toBe(299);
  });
});

describe('the selector, a secret', () => {
  it('is [redacted] in the journal, as the Petstore-Sandbox value and inside baggage', async () => {
    const { sandboxes, call } = registry();
    const { selector, controls } = sandboxes.open()!;
    await call({ 'petstore-sandbox': selector });
    await call({ baggage: `userId=7, petstore.sandbox=${selector}` });
    const [byHeader, byBaggage] = controls.requests;
    expect(byHeader!.requestHeaders['petstore-sandbox']).toBe('[redacted]');
    expect(byBaggage!.requestHeaders.baggage).toBe('userId=7, petstore.sandbox=[redacted]');
    expect(JSON.stringify(controls.requests)).not.toContain(selector.slice(6));
  });

  it('sees the main world\u2019s key a request brought to the sandbox written [redacted] in its journal', async () => {
    const { sandboxes, call } = registry();
    const { selector, controls } = sandboxes.open()!;
    await call({ 'petstore-sandbox': selector });
    expect(controls.requests[0]!.requestHeaders.authorization).toBe('Bearer [redacted]');
    expect(JSON.stringify(controls.requests)).not.toContain(MAIN_KEY);
  });
});
