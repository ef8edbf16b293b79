/** The flags a build defines to leave code out of a bundle (the service worker's), read where its bundler can fold them. */

/**
 * What a build may define on globalThis (tsup.config.ts); unset, the code as written.
 *
 * @example
 * const hold = (globalThis as BuildFlags).__PETSTORE_WITHOUT_BAN_HOLD__ ? undefined : banHoldOf(config.banHold, config.warnings);
 */
export interface BuildFlags {
  /**
   * True only in the service worker `petstore-service init` writes: every caller there is the page's
   * own browser, with no proxy in front, so the address warnings have nothing to tell, and leaving
   * them out keeps the worker within its size budget.
   */
  readonly __PETSTORE_WITHOUT_ADDRESS_WARNINGS__?: boolean;
  /** True only in that service worker too: its one caller is the page, whose flood has no one to starve, so its bans' answers are never held. */
  readonly __PETSTORE_WITHOUT_BAN_HOLD__?: boolean;
}
