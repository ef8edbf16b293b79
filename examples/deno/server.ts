/** Serve the Pet Store on Deno: `deno run --allow-net --allow-env --allow-read examples/deno/server.ts`. */
import { parseApiKeys } from 'petstore-service';
import { serve } from 'petstore-service/deno';

declare const Deno: { env: { get(name: string): string | undefined } };

const { url } = serve({
  port: Number(Deno.env.get('PORT') ?? 8080),
  apiKeys: parseApiKeys(Deno.env.get('PETSTORE_API_KEYS') ?? 'demo-key:free'),
});
console.log(`Pet Store on Deno listening on ${url}`);
