// @ts-nocheck -- runs on Deno and Bun, whose globals the repo's Node-typed check does not know.
// Child of direct-forms.test.ts: the README's one-line forms, Deno.serve(petstore) and Bun.serve({ fetch: petstore.fetch }),
// asked from two loopback addresses; prints what the anonymous quota headers say, as one JSON line.
import { connect } from 'node:net';
import { createPetStore } from 'petstore-service';

const petstore = createPetStore({ onError: (error) => console.error(error) });
const server = globalThis.Deno
  ? Deno.serve({ port: 0, hostname: '127.0.0.1', onListen() {} }, petstore)
  : Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: petstore.fetch });
const port = globalThis.Deno ? server.addr.port : server.port;

/** One keyless GET from `localAddress`, on a raw socket so the source address is ours to pick. */
function remainingFrom(localAddress) {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress });
    let text = '';
    socket.on('data', (chunk) => (text += chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(/^x-ratelimit-remaining: *(\d+)/im.exec(text)?.[1] ?? text.split('\r\n')[0]));
    socket.write('GET /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
  });
}

const seen = [await remainingFrom('127.0.0.1'), await remainingFrom('127.0.0.1'), await remainingFrom('127.0.0.2')];
globalThis.Deno ? await server.shutdown() : await server.stop(true);
console.log(JSON.stringify(seen));
