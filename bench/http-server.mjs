// One server for the HTTP benchmarks, in its own process: `node bench/http-server.mjs <kind> <key>`.
// Kinds: petstore (our Node adapter), whatwg (a bare @whatwg-node/server adapter returning the
// same JSON), raw (node:http after a string compare of the key). Prints "ready <port>".
import { createServer } from 'node:http';
import { createServerAdapter, Response } from '@whatwg-node/server';
import { memoryPetStorage } from 'petstore-service';
import { serve } from 'petstore-service/node';

const [kind, KEY] = process.argv.slice(2);
const PETS = Array.from({ length: 20 }, (_, i) => ({ id: i + 1, name: `pet ${i + 1}`, categoryId: i % 5, status: 'available' }));
const BODY = JSON.stringify(PETS);

let port;
if (kind === 'petstore') {
  const storage = memoryPetStorage();
  for (const { id, ...pet } of PETS) await storage.create(pet);
  const server = await serve({
    port: 0,
    storage,
    apiKeys: { [KEY]: { perMinute: 1_000_000_000, perDay: 1_000_000_000 } },
    onError: () => {},
  });
  port = new URL(server.url).port;
} else if (kind === 'whatwg') {
  const adapter = createServerAdapter(() => new Response(BODY, { headers: { 'content-type': 'application/json' } }));
  port = await listen(createServer(adapter));
} else if (kind === 'raw') {
  const expected = `Bearer ${KEY}`;
  port = await listen(
    createServer((request, response) => {
      if (request.headers.authorization !== expected) {
        response.writeHead(401, { 'content-type': 'application/json' }).end('{"code":"unauthorized"}');
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end(BODY);
    }),
  );
} else {
  throw new Error(`unknown server kind ${kind}`);
}
console.log(`ready ${port}`);

function listen(server) {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port)));
}
process.on('SIGTERM', () => process.exit(0)); // lets --cpu-prof write its profile
