// Profiles the in-process GET list loop: `node --cpu-prof --cpu-prof-dir=bench/profiles bench/profile.mjs`.
import { createPetStore } from 'petstore-service';
import { memoryPetStorage } from 'petstore-service/storage';

const storage = memoryPetStorage();
for (let i = 0; i < 20; i++) await storage.create({ name: `pet ${i}`, categoryId: i, status: 'available' });
const petstore = createPetStore({ apiKeys: { k: { perMinute: 1e9, perDay: 1e9 } }, storage });
const headers = { authorization: 'Bearer k' };
const end = performance.now() + Number(process.argv[2] ?? 5000);
let calls = 0;
while (performance.now() < end) {
  await (await petstore.fetch(new Request('http://bench.local/v1/pets', { headers }))).text();
  calls++;
}
console.log(`${calls} calls`);
