// Heap cost per stored pet and per tracked rate-limit subject, an address or a key: `node --expose-gc bench/memory.mjs <what> <count>`, one measurement per process.
import { memoryPetStorage, memoryLimitStore } from 'petstore-service/storage';

const heap = () => {
  globalThis.gc();
  globalThis.gc();
  return process.memoryUsage().heapUsed;
};

/**
 * Subjects as the service makes them, one flat string each (it joins the parts: a `+` could
 * leave a two-part string behind). An address is an anonymous caller's IPv4 address; a key is
 * the first 128 bits of the key's SHA-256 in hex.
 */
const SUBJECTS = {
  'rate-limit-addresses': (i) => ['address', `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`].join(':'),
  'rate-limit-keys': (i) => ['key', i.toString(16).padStart(32, '0')].join(':'),
};

const [what, countText] = process.argv.slice(2);
const count = Number(countText);
let result;
if (what === 'pets') {
  const before = heap();
  const storage = memoryPetStorage();
  for (let i = 1; i <= count; i++) await storage.create({ name: `pet ${i}`, categoryId: i % 7, status: i % 1000 === 0 ? 'sold' : 'available' });
  result = { bytesPerItem: (heap() - before) / count, kept: (await storage.list({ after: count - 1, limit: 1 })).length };
} else if (what in SUBJECTS) {
  result = await bytesPerSubject(SUBJECTS[what]);
} else {
  throw new Error(`unknown measurement ${what}: pets, ${Object.keys(SUBJECTS).join(', ')}`);
}
console.log(JSON.stringify(result));

/**
 * Heap per tracked subject: `count` subjects each counted once in a minute and a day window (what
 * one request costs), the subject strings included. The store is bounded to `count` addresses;
 * 10% more addresses after the measurement push the oldest out, which `addresses` shows. Keys
 * are never pushed out: all of them stay, as `keys` shows.
 */
async function bytesPerSubject(subject) {
  const before = heap();
  const store = memoryLimitStore({ maxAddresses: count });
  const now = Date.parse('2026-11-22T10:00:00Z');
  const windows = [
    { name: 'minute', limit: 60, start: now, end: now + 60_000 },
    { name: 'day', limit: 1000, start: now - 36_000_000, end: now + 50_400_000 },
  ];
  for (let i = 0; i < count; i++) await store.take(subject(i), windows, now);
  const bytesPerItem = (heap() - before) / count;
  for (let i = 0; i < count / 10; i++) await store.take(subject(count + i), windows, now);
  return { bytesPerItem, addresses: store.addressCount, keys: store.keyCount, maxAddresses: count };
}
