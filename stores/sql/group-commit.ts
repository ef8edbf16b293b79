/** Group commit for a database one process alone writes: what callers change while one transaction runs goes into the next, together. */

/**
 * The part of PGlite group commit needs: `exec` runs several statements, no parameters, as one
 * transaction (the simple query protocol's one implicit transaction) and one round trip.
 */
export interface ExecClient {
  exec(sql: string): Promise<unknown>;
}

/**
 * Something with writes to make: on each flush, `collect` renders what changed since the last one
 * as SQL statements (or nothing), and `settle` hears whether the transaction holding them committed.
 *
 * @example
 * const source: WriteSource = { collect: () => 'UPDATE t SET n = 1;', settle: (committed) => console.log(committed) };
 */
export interface WriteSource {
  collect(): string;
  settle(committed: boolean): void;
}

/**
 * Writes several callers' changes in one transaction. A caller changes its state in memory, then
 * awaits {@link GroupCommit.next}: the flush that starts after that call. A flush starts once the
 * one before has ended, on the event loop's next turn, so everything that arrived meanwhile
 * (requests read while PGlite was busy) shares its one round trip and one commit.
 *
 * @example
 * const group = createGroupCommit(db, [limits, pets]);
 * await group.next(); // what this caller changed is committed
 */
export interface GroupCommit {
  /** Resolves once the flush that starts after this call has committed; rejects if it failed. */
  next(): Promise<void>;
  /** Resolves once nothing is waiting to be written. */
  drain(): Promise<void>;
}

/** A flush not started yet, and the promise its waiters share. */
interface Pending {
  readonly promise: Promise<void>;
  resolve(): void;
  reject(error: unknown): void;
}

function pending(): Pending {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // A flush nobody awaited that failed is no unhandled rejection: its callers were told.
  promise.catch(() => {});
  return { promise, resolve, reject };
}

/**
 * {@link GroupCommit} over `client`, collecting from `sources` in their order (a source whose rows
 * another's reference goes first).
 *
 * @example
 * const group = createGroupCommit(db, [limitSource, petSource]);
 */
export function createGroupCommit(client: ExecClient, sources: readonly WriteSource[]): GroupCommit {
  let waiting: Pending | undefined;
  let running: Promise<void> | undefined;
  let scheduled = false;

  const schedule = () => {
    if (scheduled || running) return;
    scheduled = true;
    // setImmediate, not a microtask: requests already read in this turn of the loop join the flush.
    setImmediate(start);
  };

  function start() {
    scheduled = false;
    const flush = waiting;
    waiting = undefined;
    if (!flush) return;
    let sql = '';
    try {
      for (const source of sources) sql += source.collect();
    } catch (error) {
      for (const source of sources) source.settle(false);
      flush.reject(error);
      return;
    }
    const write = async () => {
      if (sql !== '') await client.exec(sql);
    };
    running = write().then(
      () => {
        for (const source of sources) source.settle(true);
        flush.resolve();
      },
      (error: unknown) => {
        for (const source of sources) source.settle(false);
        flush.reject(error);
      },
    );
    void running.finally(() => {
      running = undefined;
      if (waiting) schedule();
    });
  }

  return {
    next() {
      waiting ??= pending();
      schedule();
      return waiting.promise;
    },
    async drain() {
      while (running || waiting) {
        await running;
        await waiting?.promise.catch(() => {});
      }
    },
  };
}

/**
 * A string as an SQL literal: quotes doubled, and as an E'' literal with backslashes doubled when it
 * has any, so it reads the same whatever standard_conforming_strings says. PostgreSQL text holds no
 * U+0000, so a string with one is refused rather than cut short.
 *
 * @example
 * literal("O'Brien"); // 'O''Brien'
 */
export function literal(text: string): string {
  if (text.includes('\0')) throw new RangeError('an SQL literal cannot hold U+0000');
  const quoted = text.replaceAll("'", "''");
  return text.includes('\\') ? `E'${quoted.replaceAll('\\', '\\\\')}'` : `'${quoted}'`;
}

/**
 * A number as an SQL literal: only safe integers, which every column written this way holds.
 *
 * @example
 * integer(42); // '42'
 */
export function integer(value: number): string {
  if (!Number.isSafeInteger(value)) throw new RangeError(`not a safe integer: ${value}`);
  return String(value);
}
