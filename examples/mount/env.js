// @ts-check
/** What every Node recipe reads from its environment, and the line each prints once it listens. */
import { parseApiKeys } from 'petstore-service';

/** `PETSTORE_API_KEYS` (`key:plan,…`), as `npm start` reads it; a demo key when unset. */
export const apiKeys = parseApiKeys(process.env.PETSTORE_API_KEYS ?? 'demo-key:free');
/** `PORT`; `0` picks a free one. */
export const port = Number(process.env.PORT ?? 3000);

/** Prints `listening on <API base URL>` once `server` listens: the tests and the README read this line. */
export function announce(/** @type {import('node:net').Server} */ server) {
  const print = () => {
    const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
    console.log(`listening on http://127.0.0.1:${port}/api/v1`);
  };
  if (server.listening) print();
  else server.once('listening', print);
}
