/** Bun.serve with its routes in front and the Pet Store under /api: `npm run example:bun`. */
import { parseApiKeys } from 'petstore-service';

/** The part of Bun's API this file uses (the repo type-checks with Node's types, not Bun's). */
interface BunServer {
  requestIP(request: Request): { address: string } | null;
}
declare const Bun: {
  serve(options: {
    port: number;
    hostname: string;
    routes: Record<string, Response | ((request: Request, server: BunServer) => Response | Promise<Response>)>;
  }): { url: URL };
};
const apiKeys = parseApiKeys(process.env.PETSTORE_API_KEYS ?? 'demo-key:free');
const port = Number(process.env.PORT ?? 3000);
// #region recipe
import { createPetStore } from 'petstore-service';

const petstore = createPetStore({ apiKeys });
const server = Bun.serve({
  port,
  hostname: '127.0.0.1',
  routes: {
    '/health': Response.json({ ok: true }),
    '/api/*': (request, server) => petstore.fetch(request, { clientAddress: server.requestIP(request)?.address, mountPath: '/api' }),
  },
});
// #endregion recipe
console.log(`listening on ${new URL('api/v1', server.url)}`);
