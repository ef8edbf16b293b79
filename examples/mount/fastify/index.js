// @ts-check
/** Fastify 5 with its default JSON parser and the Pet Store under /api: `npm run example:fastify`. */
import { announce, apiKeys, port } from '../env.js';
// #region recipe
import Fastify from 'fastify';
import { createPetStore } from 'petstore-service';

const petstore = createPetStore({ apiKeys });
const app = Fastify();
app.get('/health', async () => ({ ok: true }));
app.all('/api/*', (request, reply) => {
  reply.hijack(); // the Pet Store writes the response itself
  return petstore(request.raw, reply.raw, { body: request.body, mountPath: '/api' });
});
await app.listen({ port, host: '127.0.0.1' });
// #endregion recipe
announce(app.server);
