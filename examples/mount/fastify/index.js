// @ts-check
/** Fastify 5 with its default JSON parser for its own routes and the Pet Store under /api: `npm run example:fastify`. */
import { announce, apiKeys, port } from '../env.js';
// #region recipe
import Fastify from 'fastify';
import { createPetStore } from 'petstore-service';

const petstore = createPetStore({ apiKeys });
const app = Fastify(); // its JSON parser stays on for the app's own routes
app.get('/health', async () => ({ ok: true }));
// biome-ignore format: a recipe is read and copied as one block, with its prefix beside the register call
await app.register(async (api) => {
  // Under /api Fastify still reads the body, up to 64 KiB, and hands the bytes to the Pet Store, which parses them.
  api.removeAllContentTypeParsers();
  api.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 65_536 }, (request, body, done) => done(null, body));
  // A body Fastify refused (too large) is answered by the Pet Store too; hijack(): it writes the response itself.
  api.setErrorHandler((error, request, reply) => petstore(request.raw, reply.hijack().raw, { bodyError: error, mountPath: '/api' }));
  api.all('/*', (request, reply) => petstore(request.raw, reply.hijack().raw, { body: request.body, mountPath: '/api' }));
}, { prefix: '/api' });
await app.listen({ port, host: '127.0.0.1' });
// #endregion recipe
announce(app.server);
