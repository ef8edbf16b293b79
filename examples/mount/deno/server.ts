/** Deno.serve with a small router in front and the Pet Store under /api: `npm run example:deno`. */
import { parseApiKeys } from 'petstore-service';
// Deno's own types, not a declaration of ours: `deno check` of this file (test/types) proves the recipe.
const apiKeys = parseApiKeys(Deno.env.get('PETSTORE_API_KEYS') ?? 'demo-key:free');
const port = Number(Deno.env.get('PORT') ?? 3000);
const onListen = ({ port }: { port: number }) => console.log(`listening on http://127.0.0.1:${port}/api/v1`);
// #region recipe
import { createPetStore } from 'petstore-service';

const petstore = createPetStore({ apiKeys });
Deno.serve({ port, hostname: '127.0.0.1', onListen }, (request, info) => {
  const { pathname } = new URL(request.url);
  if (pathname === '/health') return Response.json({ ok: true });
  if (pathname.startsWith('/api/')) return petstore.fetch(request, { clientAddress: info.remoteAddr.hostname, mountPath: '/api' });
  return new Response(null, { status: 404 });
});
// #endregion recipe
