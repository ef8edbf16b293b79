/** Serve the Pet Store on Bun: `PETSTORE_API_KEYS=demo-key:free bun examples/bun/server.ts`. */
import { serve } from 'petstore-service/bun';

// No `apiKeys` here: serve() reads PETSTORE_API_KEYS (`key:plan,…`) itself.
const { url } = await serve({ port: Number(process.env.PORT ?? 8080) });
console.log(`Pet Store on Bun listening on ${url}`);
