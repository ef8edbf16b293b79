/** PetStoreWarning: what the store can tell is wrong but cannot refuse, told once per store with a stable code. */

/** The codes a {@link PetStoreWarning} carries; docs/errors.md#warnings says what each means and how to fix it. */
export const WARNING_CODES = [
  'PETSTORE_NO_CLIENT_ADDRESS',
  'PETSTORE_CLIENT_ADDRESS_NOT_IP',
  'PETSTORE_PROXY_HEADER_IGNORED',
  'PETSTORE_NO_PROXY_HEADER',
  'PETSTORE_PREFIX_NOT_DECLARED',
  'PETSTORE_PUBLIC_URL_PATH',
  'PETSTORE_ADMIN_NOT_LOOPBACK',
  'PETSTORE_BAN_HOLD_FULL',
] as const;

/**
 * A warning's stable code: what to branch on (`message` is for people and may change).
 *
 * @example
 * const code: WarningCode = 'PETSTORE_NO_CLIENT_ADDRESS';
 */
export type WarningCode = (typeof WARNING_CODES)[number];

/** Where the pages the warnings point to are read: the package ships no docs/ folder. */
export const DOCS_URL = 'https://github.com/petstore-service/petstore-service/blob/main/docs';

/**
 * Something the store can tell is wrong but cannot refuse: the request is still answered, as it
 * would be without the check. Each code is told once per store, to the `onError` option when one
 * was given (tell it apart with `instanceof`), else as one line on stderr.
 *
 * @example
 * createPetStore({
 *   onError: (error) => {
 *     if (error instanceof PetStoreWarning) console.warn(`${error.code}: ${error.message}`);
 *     else console.error(error);
 *   },
 * });
 */
export class PetStoreWarning extends Error {
  override readonly name = 'PetStoreWarning';
  /** The stable code, `PETSTORE_…`, one heading of docs/errors.md#warnings. */
  readonly code: WarningCode;

  constructor(code: WarningCode, message: string) {
    super(message);
    this.code = code;
  }
}

/**
 * A store's warnings: each code told at most once. Lives with the resolved options, which a store
 * resolves once, so a fake backend's reset (which rebuilds the API) does not tell them again.
 *
 * @example
 * const warnings: Warnings = createWarnings(undefined);
 * warnings.warn('PETSTORE_NO_CLIENT_ADDRESS', 'No address.'); // one line on stderr; a second call is silent
 */
export interface Warnings {
  /** Tells `code` with `message`, unless it was told (or muted) before. */
  warn(code: WarningCode, message: string): void;
  /** Whether `code` was told or muted: a check that costs something stops running then. */
  told(code: WarningCode): boolean;
  /** Treats `code` as told: for a product in which it cannot mean a mistake. */
  mute(code: WarningCode): void;
}

/**
 * The warnings of one store, told to `onError` when the user gave one, else with `console.warn`
 * (never `process.emitWarning`: the core runs in browsers and workers too). An `onError` that
 * throws on a warning is ignored: a warning never changes an answer.
 *
 * @example
 * const warnings = createWarnings((error) => log.push(error));
 */
export function createWarnings(onError: ((error: unknown) => void) | undefined): Warnings {
  const told = new Set<WarningCode>();
  return {
    warn(code, message) {
      if (told.has(code)) return;
      told.add(code);
      const warning = new PetStoreWarning(code, message);
      try {
        if (onError) onError(warning);
        else console.warn(`petstore-service: warning ${code}: ${message}`);
      } catch {
        // The answer goes on: what the user's hook does with a warning is its own business.
      }
    },
    told: (code) => told.has(code),
    mute: (code) => void told.add(code),
  };
}
