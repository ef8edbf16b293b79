/** A Worker with its own GET /health beside the Pet Store under /api: `npm run example:workers` runs it on local workerd, `npx wrangler deploy` on Cloudflare. */
// #region recipe
import { petStoreWorker } from 'petstore-service/workers';

// The Durable Object class that counts each caller's requests: wrangler.toml binds it as PETSTORE_LIMITS.
export { PetStoreLimits } from 'petstore-service/workers';

const petstore = petStoreWorker({ mountPath: '/api' });

export default {
  /** @param {Request} request @param {import('petstore-service/workers').PetStoreEnv} env */
  fetch(request, env) {
    const { pathname } = new URL(request.url);
    if (pathname === '/health') return Response.json({ ok: true });
    if (pathname.startsWith('/api/')) return petstore.fetch(request, env);
    return new Response(null, { status: 404 });
  },
};
// #endregion recipe
