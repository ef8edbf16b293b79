// @ts-check
/**
 * Heap bytes the built memoryLimitStore holds per anonymous caller, per key and per ban, the
 * figures README.md quotes: `npm run build && node test/flood/state-bytes.mjs`.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { memoryLimitStore } from 'petstore-service/storage';

const N = 100_000;
const now = Date.parse('2026-11-22T10:00:10Z');
const windows = [
  { name: 'minute', limit: 60, start: now - 10_000, end: now + 50_000 },
  { name: 'day', limit: 1000, start: now - 36_010_000, end: now + 50_389_990 },
];
// Subjects as the service makes them: one flat string each, as join(':') makes it.
/** @type {Record<string, (i: number) => string>} */
const subjects = {
  'an IPv4 caller': (i) => ['address', `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`].join(':'),
  'an IPv6 /56': (i) => ['address', `2001:db8:${(i >> 8).toString(16)}:${((i & 255) << 8).toString(16)}::/56`].join(':'),
  'a key': (i) => ['key', i.toString(16).padStart(32, '0')].join(':'),
};
const actions = /** @type {const} */ (['counters', 'ban']);

/**
 * Bytes per subject with `N` of them held, and what the empty store took first (nothing much:
 * the address Map grows with the addresses it holds). Typed arrays live outside the JS heap, so
 * they are counted too, in case a store keeps its state in them.
 * @param {(typeof actions)[number]} action
 * @param {(i: number) => string} subject
 */
async function bytesPer(action, subject) {
  const gc = /** @type {() => void} */ (globalThis.gc);
  const held = () => (gc(), gc(), process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers);
  const start = held();
  const store = memoryLimitStore();
  const before = held();
  for (let i = 0; i < N; i++) {
    const s = /** @type {`address:${string}`} */ (subject(i));
    if (action === 'ban') await store.ban(s, now + 900_000, now);
    else await store.take(s, windows, now);
  }
  const each = (held() - before) / N;
  return `${each.toFixed(0)} bytes each (empty store ${((before - start) / 1024).toFixed(0)} KiB; ${store.addressCount} addresses, ${store.keyCount} keys, ${store.banCount} bans)`;
}

const [action, name = ''] = process.argv.slice(2);
const subject = subjects[name];
if (action && subject) {
  console.log(await bytesPer(/** @type {(typeof actions)[number]} */ (action), subject));
} else {
  // One process per measurement: a store measured earlier in the same heap skews the next one.
  for (const each of actions) {
    for (const subject of Object.keys(subjects)) {
      const line = execFileSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), each, subject], { encoding: 'utf8' });
      console.log(`${each === 'ban' ? 'ban of' : 'counters of'} ${subject}: ${line.trim()}`);
    }
  }
}
