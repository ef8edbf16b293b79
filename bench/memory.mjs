// Heap cost per stored pet and per anonymous rate-limit subject (the bounded part of the state). Run with --expose-gc, one measurement per process.
import { memoryPetStorage, memoryLimitStore } from 'petstore-service';

const heap = () => {
  globalThis.gc();
  globalThis.gc();
  return process.memoryUsage().heapUsed;
};

const [what, countText] = process.argv.slice(2);
const count = Number(countText);
let result;
if (what === 'pets') {
  const before = heap();
  const storage = memoryPetStorage();
  for (let i = 1; i <= count; i++) await storage.create({ name: `pet ${i}`, categoryId: i % 7, status: i % 1000 === 0 ? 'sold' : 'available' });
  result = { bytesPerItem: (heap() - before) / count, kept: (await storage.list({ after: count - 1, limit: 1 })).length };
} else if (what === 'rate-limit-addresses') {
  const before = heap();
  const maxAddresses = count;
  const store = memoryLimitStore({ maxAddresses });
  const now = Date.parse('2026-11-22T10:00:00Z');
  const windows = [
    { name: 'minute', limit: 60, start: now, end: now + 60_000 },
    { name: 'day', limit: 1000, start: now - 36_000_000, end: now + 50_400_000 },
  ];
  // Subjects look like real ones: `address:` and an IPv4 address.
  const address = (i) => `address:10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
  for (let i = 0; i < count; i++) await store.take(address(i), windows, now);
  const bytesPerItem = (heap() - before) / count;
  // Past the bound, the oldest subjects are forgotten.
  for (let i = 0; i < count / 10; i++) await store.take(address(count + i), windows, now);
  result = { bytesPerItem, size: store.addressCount, maxAddresses };
} else {
  throw new Error(`unknown measurement ${what}`);
}
console.log(JSON.stringify(result));
