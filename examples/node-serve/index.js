// @ts-check
/** Serve the Pet Store on its own Node server: `PETSTORE_API_KEYS=demo-key:free node examples/node-serve/index.js`. */
import { serve } from 'petstore-service/node';

// No `apiKeys` here: serve() reads PETSTORE_API_KEYS (`key:plan,…`) itself.
const { url } = await serve({
  port: Number(process.env.PORT ?? 8080),
  handleSignals: true, // Ctrl-C finishes in-flight requests, then exits
});
console.log(`Pet Store listening on ${url}`);
