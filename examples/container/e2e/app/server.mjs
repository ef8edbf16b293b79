// @ts-check
/**
 * The app under test, in miniature (examples/container/e2e/compose.yaml): a shop page listing the
 * pets it gets from the Pet Store with its one key, passing its caller's `baggage` on as
 * OpenTelemetry's propagators do, so the sandbox a test names in it answers the app's call.
 */
import { createServer } from 'node:http';

const api = process.env.PETSTORE_API_URL;
const key = process.env.PETSTORE_API_KEY;

createServer(async (request, response) => {
  if (request.url === '/healthz') return void response.end('ok\n');
  /** @type {Record<string, string>} */
  const headers = { authorization: `Bearer ${key}` };
  if (typeof request.headers.baggage === 'string') headers.baggage = request.headers.baggage;
  const answer = await fetch(`${api}/pets`, { headers });
  if (!answer.ok) return void response.writeHead(502).end(`the Pet Store answered ${answer.status}\n`);
  /** @type {{ name: string }[]} */
  const pets = await answer.json();
  response.writeHead(200, { 'content-type': 'text/plain' }).end(pets.map((pet) => `${pet.name}\n`).join(''));
}).listen(3000, '0.0.0.0');
