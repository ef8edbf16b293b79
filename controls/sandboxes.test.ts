/** The sandboxes' registry: a deleted sandbox leaves nothing behind. */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { IN_PROCESS, resolveOptions } from '../src/index.ts';
import { manualClock } from './clock.ts';
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
