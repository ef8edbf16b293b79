// The Hono peer on Node, in Hono's idiom there: the app of bench/peers/hono-app.mjs on @hono/node-server.
import { serve } from '@hono/node-server';
import { createApp } from './hono-app.mjs';

/** Listens on 127.0.0.1 (any free port) and resolves to the port. */
export function listen(sameWork) {
  return new Promise((resolve) => serve({ fetch: createApp(sameWork).fetch, port: 0, hostname: '127.0.0.1' }, (info) => resolve(info.port)));
}
