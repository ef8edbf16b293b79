/** banHoldOf on its own: a held answer waits for its timer, the bound sends the rest at once and warns once, and 0 holds nothing. */
import { describe, expect, it } from 'vitest';
import { createWarnings, type PetStoreWarning } from '../response/warning.ts';
import { banHoldOf, type Wait } from './ban-hold.ts';

/** A timer fired by hand: each wait is pending until `fire()` lets every started one go. */
function handTimer() {
  const pending: (() => void)[] = [];
  const asked: number[] = [];
  const wait: Wait = (ms) => {
    asked.push(ms);
    return new Promise((resolve) => pending.push(resolve));
  };
  const fire = () => {
    for (const resolve of pending.splice(0)) resolve();
  };
  return { wait, fire, asked };
}

/** A store's warnings, collected. */
function collected() {
  const told: PetStoreWarning[] = [];
  return { warnings: createWarnings((error) => told.push(error as PetStoreWarning)), told };
}

/** Whether `promise` has settled once pending callbacks have run, and with what. */
async function settled<T>(promise: Promise<T>): Promise<{ value: T } | 'pending'> {
  const marker = Symbol('pending');
  const first = await Promise.race([promise, new Promise<typeof marker>((resolve) => setImmediate(() => resolve(marker)))]);
  return first === marker ? 'pending' : { value: first as T };
}

describe('banHoldOf', () => {
  it('holds a banned answer until the timer fires, then says how long it held it', async () => {
    const timer = handTimer();
    const { warnings } = collected();
    const hold = banHoldOf({ ms: 1_000, max: 10 }, warnings, timer.wait)!;
    const held = hold();
    expect(await settled(held)).toBe('pending');
    expect(timer.asked).toEqual([1_000]);
    timer.fire();
    expect(await settled(held)).toEqual({ value: 1_000 });
  });

  it('over maxHeld answers at once with 0, and warns PETSTORE_BAN_HOLD_FULL once naming maxHeldBans', async () => {
    const timer = handTimer();
    const { warnings, told } = collected();
    const hold = banHoldOf({ ms: 60_000, max: 2 }, warnings, timer.wait)!;
    const [first, second] = [hold(), hold()];
    expect(await settled(hold())).toEqual({ value: 0 });
    expect(await settled(hold())).toEqual({ value: 0 });
    expect(await settled(first)).toBe('pending');
    expect(await settled(second)).toBe('pending');
    expect(told.map((warning) => warning.code)).toEqual(['PETSTORE_BAN_HOLD_FULL']);
    expect(told[0]!.message).toContain('maxHeldBans');
    timer.fire();
    expect([await settled(first), await settled(second)]).toEqual([{ value: 60_000 }, { value: 60_000 }]);
    // Room again once the held ones are answered.
    const third = hold();
    expect(await settled(third)).toBe('pending');
  });

  it('with ms 0 there is no hold at all', () => {
    const { warnings } = collected();
    expect(banHoldOf({ ms: 0, max: 1_000 }, warnings, handTimer().wait)).toBeUndefined();
  });

  it('is one hold per settings object: the APIs a fake backend rebuilds share its bound', async () => {
    const timer = handTimer();
    const { warnings } = collected();
    const settings = { ms: 1_000, max: 1 };
    const held = banHoldOf(settings, warnings, timer.wait)!();
    expect(await settled(banHoldOf(settings, warnings, timer.wait)!())).toEqual({ value: 0 });
    timer.fire();
    await held;
  });
});
