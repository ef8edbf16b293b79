// @ts-check
/** Mount the Pet Store under /v1 of a Node server that also serves other things. */
import { createServer } from 'node:http';
import { createPetStore } from 'petstore-service';

const petstore = createPetStore({ apiKeys: { 'demo-key': 'free' } });
const server = createServer((req, res) => {
  if (req.url?.startsWith('/v1/')) return petstore(req, res);
  res.end('the rest of my app\n');
});
server.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  console.log(`listening on http://127.0.0.1:${port}`);
});
