// @ts-check
/** Serve the Pet Store on its own Node server, as `npm start` does: `node examples/node-serve/index.js`. */
import { parseApiKeys } from 'petstore-service';
import { serve } from 'petstore-service/node';

const { url } = await serve({
  port: Number(process.env.PORT ?? 8080),
  apiKeys: parseApiKeys(process.env.PETSTORE_API_KEYS ?? 'demo-key:free'),
  handleSignals: true, // Ctrl-C finishes in-flight requests, then exits
});
console.log(`Pet Store listening on ${url}`);
