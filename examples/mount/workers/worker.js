/** A Worker with its own GET /health beside the Pet Store under /api: `npm run example:workers` runs it on local workerd, `npx wrangler deploy` on Cloudflare. */
// #region recipe
import { petStoreWorker } from 'petstore-service/workers';

// Durable Object classes wrangler.toml binds: each caller's counts, and the fake backend (admin token only), made from this Worker's options.
export { PetStoreLimits } from 'petstore-service/workers';

const petstore = petStoreWorker({ mountPath: '/api' });
export const { PetStoreFake } = petstore;

export default {
  /** @param {Request} request @param {import('petstore-service/workers').PetStoreEnv} env */
  fetch(request, env) {
    const { pathname } = new URL(request.url);
    // Everything else to the store: outside /api it answers a JSON 404 saying where the API and its admin API are.
    return pathname === '/health' ? Response.json({ ok: true }) : petstore.fetch(request, env);
  },
};
// #endregion recipe
