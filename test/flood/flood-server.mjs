// @ts-check
/** Child of the eviction flood test: the built package's node:http server, its clock frozen, in the test's network namespace. */
import { createInterface } from 'node:readline';
import { serve } from 'petstore-service/node';

// Frozen, so no window rolls and no ban ends during the flood: whatever changes was pushed out.
const now = Number(process.env.FLOOD_NOW);
const apiKeys = Object.fromEntries((process.env.FLOOD_KEYS ?? '').split(',').map((key) => [key, /** @type {const} */ ('free')]));
if (!Number.isSafeInteger(now) || Object.keys(apiKeys).length === 0) throw new Error('FLOOD_NOW and FLOOD_KEYS must be set');

// `::` takes IPv6 and, dual-stack, IPv4 too: IPv4 peers then arrive as `::ffff:127.x.y.z`.
// Bans answered at once (banHoldMs 0): this flood tests what eviction keeps, not held answers (test/http/ban-hold.test.ts).
const { url } = await serve({ port: 0, hostname: '::', apiKeys, now: () => now, banHoldMs: 0, onError: (error) => console.error(error) });
console.log(`listening on ${url}`);

// A `memory` line on stdin answers with the live heap after a full GC (node --expose-gc):
// what the process really holds, which its RSS, full of garbage not yet collected, cannot say.
const gc = /** @type {(() => void) | undefined} */ (globalThis.gc);
createInterface({ input: process.stdin }).on('line', (line) => {
  if (line !== 'memory' || !gc) return;
  gc();
  const { heapUsed, arrayBuffers, rss } = process.memoryUsage();
  console.log(`memory ${JSON.stringify({ live: heapUsed + arrayBuffers, rss })}`);
});
