/** Tarpitting: a banned caller's 429 waits before it is sent, so a flooding connection costs a timer, not a request. */
import { DOCS_URL, type Warnings } from '../response/warning.ts';

/**
 * How banned callers' answers are held (the `banHoldMs` and `maxHeldBans` options): each for `ms`
 * (0: none is), at most `max` at once. One object per store, shared by every API a fake backend
 * rebuilds and every sandbox, so the bound counts all of them.
 *
 * @example
 * const settings: BanHoldSettings = { ms: 1_000, max: 1_000 };
 */
export interface BanHoldSettings {
  readonly ms: number;
  readonly max: number;
}

/**
 * Resolves after `ms`: `setTimeout`, which Node, Deno, Bun, browsers and Workers all have; a
 * unit test hands a fake it fires itself.
 *
 * @example
 * const wait: Wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
 */
export type Wait = (ms: number) => Promise<void>;

/**
 * Holds banned callers' answers.
 *
 * @example
 * const heldMs = await hold(); // 1000 once the second has passed; 0 at once when the bound is full
 */
export type BanHold = () => Promise<number>;

// Not unref'd: a held answer is in flight, and an in-process `petstore.fetch` awaiting it must not
// see its process exit first. It keeps the process alive `ms` at most.
const timer: Wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The hold of each store's settings, made on its first ban answer. */
const holds = new WeakMap<BanHoldSettings, BanHold>();

/**
 * The store's {@link BanHold}, or none when its `ms` is 0 (or it has no settings: the service worker). Each held answer resolves after `ms`
 * with `ms`; over `max` held, at once with 0 (sent unheld, never dropped), and the store warns once.
 *
 * @example
 * const hold = banHoldOf(config.banHold, config.warnings); // undefined with banHoldMs: 0
 */
export function banHoldOf(settings: BanHoldSettings | undefined, warnings: Warnings, wait: Wait = timer): BanHold | undefined {
  if (settings === undefined || settings.ms === 0) return undefined;
  let hold = holds.get(settings);
  if (hold === undefined) {
    hold = createBanHold(settings, warnings, wait);
    holds.set(settings, hold);
  }
  return hold;
}

function createBanHold({ ms, max }: BanHoldSettings, warnings: Warnings, wait: Wait): BanHold {
  let held = 0;
  return async () => {
    if (held >= max) {
      warnings.warn(
        'PETSTORE_BAN_HOLD_FULL',
        `${max} banned requests were held already, so this 429 was sent at once: raise maxHeldBans if memory allows. See ${DOCS_URL}/errors.md#petstore_ban_hold_full`,
      );
      return 0;
    }
    held++;
    try {
      await wait(ms);
    } finally {
      held--;
    }
    return ms;
  };
}
