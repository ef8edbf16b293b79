// @ts-check
/** Serve the Pet Store on its own Node server, as `npm start` does, with a fixed key. */
import { serve } from 'petstore-service/node';

const { url } = await serve({
  port: Number(process.env.PORT ?? 8080),
  apiKeys: { 'demo-key': 'free' },
  handleSignals: true, // Ctrl-C finishes in-flight requests, then exits
});
console.log(`Pet Store listening on ${url} (key: demo-key)`);
