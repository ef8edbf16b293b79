/** The sandboxes' registry: a deleted sandbox leaves nothing behind. */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { IN_PROCESS, resolveOptions } from '../../src/index.ts';
import { manualClock } from '../clock/clock.ts';
import { createSandboxes } from './sandboxes.ts';

describe('a deleted sandbox', () => {
  it('is garbage: nothing the registry or its routing keeps holds its world', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const sandboxes = createSandboxes({ config: resolveOptions({}), clock: () => manualClock(), max: 10, idleMs: 60_000, now: Date.now });
    const handle = sandboxes.route(async () => new Response(null, { status: 204 }));
    let opened = sandboxes.open();
    await opened!.controls.seed(Array.from({ length: 1_000 }, (_, n) => ({ name: `Pet ${n}`, categoryId: 1 })));
    const request = new Request('http://api.test/v1/pets', { headers: { authorization: `Bearer ${opened!.keys.free}` } });
    expect((await handle(request, IN_PROCESS)).status).toBe(200);
    const world = new WeakRef(opened!.controls);
    sandboxes.delete(opened!.id);
    opened = undefined;
    // A WeakRef's target lives to the end of the turn it was made or read in.
    await nextTurn();
    gc();
    expect(world.deref()).toBeUndefined();
  });
});

/** A registry on a clock the test moves, and a main world that answers 401 to every key it is handed. */
function registry(idleMs = 60_000) {
  let time = Date.parse('2026-03-01T00:00:00Z');
  const sandboxes = createSandboxes({ config: resolveOptions({}), clock: () => manualClock(), max: 10, idleMs, now: () => time });
  const mainWorld = async () => Response.json({ code: 'unauthorized', message: 'main world', status: 401 }, { status: 401 });
  const handle = sandboxes.route(mainWorld);
  const call = (key: string) => handle(new Request('http://api.test/v1/pets', { headers: { authorization: `Bearer ${key}` } }), IN_PROCESS);
  return { sandboxes, call, advance: (ms: number) => (time += ms), at: () => time };
}

describe('a key that names a sandbox but is not one of its keys', () => {
  it('is answered by the main world and leaves the sandbox lastUsedAt as it was', async () => {
    const { sandboxes, call, advance } = registry();
    const { id, keys, lastUsedAt } = sandboxes.open()!;
    const forged = `psbx_${id}_free_${'x'.repeat(32)}`;
    expect(forged).not.toBe(keys.free);
    advance(30_000);
    const response = await call(forged);
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ message: 'main world' });
    expect(sandboxes.list()).toEqual([expect.objectContaining({ id, lastUsedAt })]);
  });

  it('never keeps a sandbox alive: forged keys sent all along, it is deleted once idle', async () => {
    const { sandboxes, call, advance } = registry();
    const { id } = sandboxes.open()!;
    for (let i = 0; i < 6; i++) {
      advance(15_000);
      await call(`psbx_${id}_pro_${'y'.repeat(32)}`);
    }
    expect(sandboxes.list()).toEqual([]);
  });
});

describe('a sandbox idle too long', () => {
  afterEach(() => vi.useRealTimers());

  it('is freed on the real clock with no call to the registry at all: its pets are gone', async () => {
    vi.useFakeTimers({ now: Date.parse('2026-03-01T00:00:00Z') });
    const sandboxes = createSandboxes({ config: resolveOptions({}), clock: () => manualClock(), max: 10, idleMs: 60_000, now: Date.now });
    const { controls } = sandboxes.open()!;
    await controls.seed([{ name: 'Rex', categoryId: 1 }]);
    vi.advanceTimersByTime(59_999);
    expect(await controls.pets()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(await controls.pets()).toEqual([]);
  });

  it('is freed by the next request to the main world, before its timer', async () => {
    const { sandboxes, call, advance } = registry();
    const { controls } = sandboxes.open()!;
    await controls.seed([{ name: 'Rex', categoryId: 1 }]);
    advance(60_000);
    expect((await call('main-world-key')).status).toBe(401);
    expect(await controls.pets()).toEqual([]);
  });

  it('leaves the timer of the next one to expire: a sandbox used since is kept', async () => {
    vi.useFakeTimers({ now: Date.parse('2026-03-01T00:00:00Z') });
    const sandboxes = createSandboxes({ config: resolveOptions({}), clock: () => manualClock(), max: 10, idleMs: 60_000, now: Date.now });
    const first = sandboxes.open()!;
    vi.advanceTimersByTime(30_000);
    const second = sandboxes.open()!;
    await first.controls.seed([{ name: 'Ada', categoryId: 1 }]);
    await second.controls.seed([{ name: 'Bo', categoryId: 1 }]);
    vi.advanceTimersByTime(30_000);
    expect(await first.controls.pets()).toEqual([]);
    expect(await second.controls.pets()).toHaveLength(1);
    vi.advanceTimersByTime(30_000);
    expect(await second.controls.pets()).toEqual([]);
  });
});
