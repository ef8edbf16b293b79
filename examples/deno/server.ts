/** Serve the Pet Store on Deno: `PETSTORE_API_KEYS=demo-key:free deno run --allow-net --allow-env examples/deno/server.ts`. */
import { serve } from 'petstore-service/deno';

declare const Deno: { env: { get(name: string): string | undefined } };

// No `apiKeys` here: serve() reads PETSTORE_API_KEYS (`key:plan,…`) itself.
const { url } = await serve({ port: Number(Deno.env.get('PORT') ?? 8080) });
console.log(`Pet Store on Deno listening on ${url}`);
