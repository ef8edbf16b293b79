/** The sandboxes' registry as its callers see it: opening one (given, capped, with a fresh id), finding it by id or key, the order of use, what each world is made with, and one idle timer at a time. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { IN_PROCESS, resolveOptions } from '../../src/index.ts';
import { manualClock } from '../clock/clock.ts';
import { journalBudget } from '../journal/journal-memory.ts';
import { createPetBudget } from '../pets/pet-budget.ts';
import { newSandboxKeys } from '../secrets/sandbox-keys.ts';
import { createSandboxes, type SandboxSettings } from './sandboxes.ts';

const MAIN_KEY = 'main-world-key-0123456789';

/** A registry on a real clock the test moves, with `settings` over the defaults. */
function registry(settings: Partial<SandboxSettings> = {}) {
  let time = Date.parse('2026-03-01T00:00:00Z');
  const sandboxes = createSandboxes({
    config: resolveOptions({ apiKeys: { [MAIN_KEY]: { perMinute: 100, perDay: 1000 } } }),
    clock: () => manualClock('2026-03-01T00:00:00Z'),
    max: 10,
    idleMs: 60_000,
    now: () => time,
    ...settings,
  });
  const handle = sandboxes.route(async () => new Response('main world', { status: 200 }));
  const call = (key: string, path = '/v1/pets') => handle(new Request(`http://api.test${path}`, { headers: { authorization: `Bearer ${key}` } }), IN_PROCESS);
  return { sandboxes, call, advance: (ms: number) => (time += ms), at: () => time };
}

// The spies first: a spy on the fake setTimeout, restored after the real timers, would put the fake one back for every later file.
afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe('opening a sandbox', () => {
  it('gives it the time it was opened and last used, and counts it in size', () => {
    const { sandboxes, at } = registry();
    const opened = sandboxes.open()!;
    expect([opened.createdAt, opened.lastUsedAt, sandboxes.size, sandboxes.max]).toEqual([at(), at(), 1, 10]);
  });

  it('opens the id and keys it is given, replacing the sandbox of that id and its world', async () => {
    const { sandboxes, call } = registry();
    const id = 'given0000000';
    const first = sandboxes.open({ id, keys: newSandboxKeys(id) })!;
    await first.controls.seed([{ name: 'Rex', categoryId: 1 }]);
    const keys = newSandboxKeys(id);
    const second = sandboxes.open({ id, keys })!;
    expect([second.id, second.keys, sandboxes.size]).toEqual([id, keys, 1]);
    expect(await first.controls.pets()).toEqual([]);
    expect((await call(keys.business)).status).toBe(200);
    expect(second.controls.requests).toHaveLength(1);
    expect(sandboxes.byKey(first.keys.free)).toBeUndefined();
  });

  it('draws a new id when the one drawn is already open’s', () => {
    const real = crypto.getRandomValues.bind(crypto);
    let ids = 0;
    // The first two ids drawn are the same: the second sandbox must not take the first one's place.
    vi.spyOn(crypto, 'getRandomValues').mockImplementation(<T extends ArrayBufferView | null>(array: T): T => {
      if (array instanceof Uint8Array && array.length === 12 && ids++ < 2) array.fill(0);
      else real(array as Uint8Array);
      return array;
    });
    const { sandboxes } = registry();
    const first = sandboxes.open()!;
    const second = sandboxes.open()!;
    expect(first.id).toBe('000000000000');
    expect(second.id).not.toBe(first.id);
    expect(sandboxes.list().map((sandbox) => sandbox.id)).toEqual([first.id, second.id]);
  });

  it('opens none past max, and one again once a sandbox is deleted', () => {
    const { sandboxes } = registry({ max: 2 });
    const first = sandboxes.open()!;
    sandboxes.open();
    expect(sandboxes.open()).toBeUndefined();
    expect(sandboxes.delete(first.id)).toBe(true);
    expect(sandboxes.delete(first.id)).toBe(false);
    expect(sandboxes.open()).toBeDefined();
  });

  it('gives each sandbox the journal size, the journal budget and the pet budget it is made with', async () => {
    const budget = journalBudget(1024 * 1024);
    const pets = createPetBudget(3);
    const { sandboxes, call } = registry({ journalSize: 2, journalBudget: budget, petBudget: pets });
    const { keys, controls } = sandboxes.open()!;
    for (let i = 0; i < 3; i++) await call(keys.free, `/v1/pets?n=${i}`);
    expect(controls.requests.map((r) => r.query)).toEqual(['n=1', 'n=2']);
    expect(budget.bytes).toBeGreaterThan(0);
    await controls.seed([{ name: 'Rex', categoryId: 1 }]);
    expect(pets.held).toBe(1);
  });

  it('redacts the main world’s keys in a sandbox’s journal', async () => {
    const { sandboxes, call } = registry();
    const { keys, controls } = sandboxes.open()!;
    await call(keys.free, `/v1/pets?other=${MAIN_KEY}`);
    expect(controls.requests[0]!.query).toBe('other=[redacted]');
  });
});

describe('finding a sandbox', () => {
  it('by id or by one of its keys marks it used now; an unknown id, no key or a configured key finds none', () => {
    const { sandboxes, advance, at } = registry();
    const { id, keys } = sandboxes.open()!;
    advance(1_000);
    expect(sandboxes.get(id)).toMatchObject({ id, lastUsedAt: at() });
    advance(1_000);
    expect(sandboxes.byKey(keys.pro)).toMatchObject({ id, lastUsedAt: at() });
    expect(sandboxes.get('nosuchid0000')).toBeUndefined();
    expect(sandboxes.byKey(undefined)).toBeUndefined();
    expect(sandboxes.byKey(MAIN_KEY)).toBeUndefined();
  });

  it('lists the least recently used first, and deletes the idle ones behind one used since', () => {
    const { sandboxes, advance } = registry();
    const first = sandboxes.open()!;
    advance(10_000);
    const second = sandboxes.open()!;
    advance(10_000);
    sandboxes.get(first.id);
    expect(sandboxes.list().map((sandbox) => sandbox.id)).toEqual([second.id, first.id]);
    // The second was last used 60 s ago, the first 50 s ago.
    advance(50_000);
    expect(sandboxes.list().map((sandbox) => sandbox.id)).toEqual([first.id]);
    expect(sandboxes.size).toBe(1);
    advance(10_000);
    expect(sandboxes.size).toBe(0);
  });
});

describe('the idle timer', () => {
  it('is one timer, however many sandboxes and calls, and lets the process end while it waits', () => {
    vi.useFakeTimers({ now: Date.parse('2026-03-01T00:00:00Z') });
    const unref = vi.fn();
    const set = globalThis.setTimeout;
    vi.spyOn(globalThis, 'setTimeout').mockImplementation(((callback: () => void, ms: number) =>
      Object.assign(set(callback, ms), { unref })) as unknown as typeof setTimeout);
    const sandboxes = createSandboxes({ config: resolveOptions({}), clock: () => manualClock(), max: 10, idleMs: 60_000, now: Date.now });
    sandboxes.open();
    sandboxes.open();
    sandboxes.list();
    expect(vi.getTimerCount()).toBe(1);
    expect(unref).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(60_000);
    expect(sandboxes.size).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('fires when the front sandbox has been idle the idle time, not before, and at no other time', () => {
    vi.useFakeTimers({ now: Date.parse('2026-03-01T00:00:00Z') });
    const set = vi.spyOn(globalThis, 'setTimeout');
    const sandboxes = createSandboxes({ config: resolveOptions({}), clock: () => manualClock(), max: 10, idleMs: 60_000, now: Date.now });
    const opened = sandboxes.open()!;
    vi.advanceTimersByTime(20_000);
    sandboxes.get(opened.id);
    // Its timer fires at 60 s, finds it used at 20 s, and is set again for 80 s.
    vi.advanceTimersByTime(59_999);
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(1);
    expect(vi.getTimerCount()).toBe(0);
    expect(sandboxes.list()).toEqual([]);
    // Set when it was opened and again at 60 s: never set to fire early and find nothing to do.
    expect(set.mock.calls.map(([, ms]) => ms)).toEqual([60_000, 20_000]);
  });
});
