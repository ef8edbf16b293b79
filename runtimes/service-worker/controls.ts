/** The service worker's answers to the controls a page sends (protocol.ts): its main world's and each sandbox's seed, pets, clock, faults and journal, and opening and deleting sandboxes. */
import type { Controls, FaultRule, Sandboxes, SeedInput } from '../../controls/without-admin.ts';
import type { ControlMessage } from './protocol.ts';

/** The worlds of one worker. */
export interface WorkerWorlds {
  readonly main: Controls;
  readonly sandboxes: Sandboxes;
  /** The main world's reset, which also empties its IndexedDB. */
  reset(): Promise<void>;
}

/**
 * Does what `message` asks of `worlds` and resolves to the result the page gets; rejects with the
 * controls' own error (a bad fault rule or seed is a TypeError naming the field), or an Error
 * naming a sandbox that is gone.
 *
 * @example
 * const value = await control(worlds, { type: CONTROL, op: 'advance', sandbox: id, args: [60_000] });
 */
export async function control({ main, sandboxes, reset }: WorkerWorlds, { op, sandbox, args }: ControlMessage): Promise<unknown> {
  const [argument] = args;
  if (op === 'open') return open(sandboxes, argument as SeedInput | undefined);
  if (op === 'delete') return void sandboxes.delete(String(sandbox));
  const world = sandbox === undefined ? main : sandboxes.get(sandbox)?.controls;
  if (!world) {
    // The browser stops a worker it finds idle, and its sandboxes (in memory) end with it.
    throw new Error(`sandbox ${sandbox} is gone: deleted, unused for longer than its idle time, or the browser restarted the service worker`);
  }
  switch (op) {
    case 'reset':
      return world === main ? reset() : world.reset();
    case 'seed':
      return world.seed(argument as SeedInput);
    case 'pets':
      return world.pets();
    case 'now':
      return world.clock.now();
    case 'advance':
      return world.clock.advance(argument as number);
    case 'set':
      return world.clock.set(argument as Date | number | string);
    case 'inject':
      return world.faults.inject(argument as FaultRule);
    case 'clear':
      return world.faults.clear();
    case 'list':
      return world.faults.list();
    case 'requests':
      return world.requests;
    default:
      throw new TypeError(`unknown control ${JSON.stringify(op)}: this service worker is older or newer than the page's petstore-service/browser`);
  }
}

/** A new sandbox, seeded with `seed`: its id, keys and selector. One that cannot be seeded is deleted again, so a bad seed opens none. */
async function open(sandboxes: Sandboxes, seed: SeedInput | undefined): Promise<{ id: string; keys: object; selector: string }> {
  const opened = sandboxes.open();
  if (!opened) throw new Error(`sandbox: ${sandboxes.max} sandboxes are open, the most at once (the worker's sandboxes option); delete one first`);
  try {
    if (seed !== undefined) await opened.controls.seed(seed);
  } catch (error) {
    sandboxes.delete(opened.id);
    throw error;
  }
  return { id: opened.id, keys: opened.keys, selector: opened.selector };
}
