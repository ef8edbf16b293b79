/** Serve the Pet Store on Bun: `bun examples/bun/server.ts`. */
import { parseApiKeys } from 'petstore-service';
import { serve } from 'petstore-service/bun';

const { url } = serve({
  port: Number(process.env.PORT ?? 8080),
  apiKeys: parseApiKeys(process.env.PETSTORE_API_KEYS ?? 'demo-key:free'),
});
console.log(`Pet Store on Bun listening on ${url}`);
