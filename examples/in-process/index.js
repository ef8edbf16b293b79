// @ts-check
/** Use the Pet Store without any network: `petstore.fetch` takes a Request and returns a Response. */
import { createPetStore } from 'petstore-service';

const petstore = createPetStore({ apiKeys: { 'demo-key': 'pro' } });
const headers = { authorization: 'Bearer demo-key', 'content-type': 'application/json' };

const created = await petstore.fetch('http://petstore.local/v1/pets', {
  method: 'POST',
  headers,
  body: JSON.stringify({ name: 'Rex', categoryId: 1, status: 'available' }),
});
console.log(created.status, await created.json());

const listed = await petstore.fetch('http://petstore.local/v1/pets?status=available', { headers });
console.log(listed.status, await listed.json());
