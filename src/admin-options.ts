/** The `admin` option of createPetStore: the admin API's token and the bounds of what it keeps, checked eagerly. */
import { assertKnownOptions } from './option-names.ts';

/**
 * The admin API's settings: its token, and the bounds of what it keeps (the command's
 * `--admin-token`, `--sandboxes`, `--sandbox-idle`, `--journal` and `--journal-mib`).
 *
 * @example
 * const admin: AdminOptions = { token: 'my-admin-token-0123', sandboxes: 50, sandboxIdleMinutes: 10, journal: 1_000, journalMiB: 16 };
 */
export interface AdminOptions {
  /**
   * The Bearer token every admin call carries: 16 characters or more, each one a client can send
   * in `Authorization: Bearer` (RFC 6750: letters, digits, `-._~+/`, and `=` only at the end).
   */
  readonly token: string;
  /** The most sandboxes at once, 1 to 100,000; one more is a 409. Default 1,000. */
  readonly sandboxes?: number;
  /** A sandbox no request or admin call has used for this many minutes (1 to 10,080, a week) is deleted. Default 30. */
  readonly sandboxIdleMinutes?: number;
  /** The exchanges each world's journal keeps, newest first to stay, 1 to 1,000,000. Default 10,000. */
  readonly journal?: number;
  /**
   * The mebibytes the journals of all worlds keep together (the main world and every sandbox share
   * them), 1 to 1,024: the oldest exchange of any world goes first to make room. An exchange counts
   * 2 bytes per UTF-16 unit of its strings, header names included, plus 256. Default 16.
   */
  readonly journalMiB?: number;
  /**
   * The most pets in all worlds together (the main world and every sandbox count against one
   * total), 1 to 10,000,000: a create or a seed past it is a 507 `insufficient_storage`, and stores
   * nothing. A pet costs about 133 bytes of heap (BENCHMARKS.md). Default 250,000.
   */
  readonly pets?: number;
}

/** {@link AdminOptions} checked, every bound filled in. */
export type ResolvedAdmin = Required<AdminOptions>;

/** The bounds of the admin API's settings, and their defaults: the command's flags check against them too. */
export const ADMIN_BOUNDS = {
  sandboxes: { min: 1, max: 100_000, default: 1_000 },
  sandboxIdleMinutes: { min: 1, max: 10_080, default: 30 },
  journal: { min: 1, max: 1_000_000, default: 10_000 },
  // V8 lets the heap grow to a multiple of what is live, so the budget's bytes count several times over in RSS: 16 keeps the
  // command under the journal-fill attack (test/cli/journal-flood.test.ts) within its bound (BENCHMARKS.md, Findings: the journal's budget).
  journalMiB: { min: 1, max: 1_024, default: 16 },
  // The command stays under 256 MB of RSS with every world full and the journals too (BENCHMARKS.md, Findings: the journal's budget).
  pets: { min: 1, max: 10_000_000, default: 250_000 },
} as const;

/**
 * What an admin token must be: RFC 6750's token68, the only text `Authorization: Bearer` carries
 * (a space or a quote would make a token no client can send), 16 characters or more.
 *
 * @example
 * ADMIN_TOKEN_PATTERN.test('my-admin-token-0123'); // true
 * ADMIN_TOKEN_PATTERN.test('my admin token 0123'); // false
 */
export const ADMIN_TOKEN_PATTERN = /^(?=.{16})[A-Za-z0-9\-._~+/]+=*$/s;

/** What {@link ADMIN_TOKEN_PATTERN} asks, for the messages of the option and the command's flag. */
export const ADMIN_TOKEN_RULE = '16 or more characters a client can send in Authorization: Bearer (letters, digits, -._~+/, and = only at the end)';

/**
 * The `admin` option, or a TypeError: a token of {@link ADMIN_TOKEN_PATTERN}, bounds in range, and
 * the memory stores the admin API resets (`storage` and `limitStore` are createPetStore's others).
 *
 * @example
 * checkAdmin({ admin: { token: 'my-admin-token-0123' } }); // { token, sandboxes: 1000, sandboxIdleMinutes: 30, journal: 10000, journalMiB: 16 }
 */
export function checkAdmin({
  admin,
  storage,
  limitStore,
}: {
  readonly admin?: unknown;
  readonly storage?: unknown;
  readonly limitStore?: unknown;
}): ResolvedAdmin {
  if (typeof admin !== 'object' || admin === null) throw new TypeError('admin must be an object like { token: "<16 or more characters>" }');
  assertKnownOptions(admin, ['token', ...Object.keys(ADMIN_BOUNDS)], 'admin');
  const { token } = admin as { token?: unknown };
  if (typeof token !== 'string' || !ADMIN_TOKEN_PATTERN.test(token)) throw new TypeError(`admin.token must be ${ADMIN_TOKEN_RULE}`);
  if (storage !== undefined || limitStore !== undefined) {
    throw new TypeError('admin works with the built-in memory stores, which it resets: leave out storage and limitStore');
  }
  const bounded = (name: keyof typeof ADMIN_BOUNDS) => adminBound(name, (admin as Record<string, unknown>)[name], `admin.${name}`);
  return {
    token,
    sandboxes: bounded('sandboxes'),
    sandboxIdleMinutes: bounded('sandboxIdleMinutes'),
    journal: bounded('journal'),
    journalMiB: bounded('journalMiB'),
    pets: bounded('pets'),
  };
}

/**
 * `value` of the admin setting `name` (its default when `undefined`), or a TypeError naming it as
 * `label` with its range: the `admin` option's check, and the test kit's of the same settings.
 *
 * @example
 * adminBound('journal', undefined, 'journal'); // 10000
 * adminBound('sandboxes', 0, 'sandboxes'); // TypeError: sandboxes must be a whole number from 1 to 100000
 */
export function adminBound(name: keyof typeof ADMIN_BOUNDS, value: unknown, label: string): number {
  const { min, max, default: fallback } = ADMIN_BOUNDS[name];
  const chosen = value ?? fallback;
  if (typeof chosen !== 'number' || !Number.isSafeInteger(chosen) || chosen < min || chosen > max) {
    throw new TypeError(`${label} must be a whole number from ${min} to ${max}`);
  }
  return chosen;
}
