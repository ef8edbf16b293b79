// @ts-check
/** Hono 4 on @hono/node-server with the Pet Store under /api: `npm run example:hono`. */
import { announce, apiKeys, port } from '../env.js';
// #region recipe
import { Hono } from 'hono';
import { mount } from 'hono/mount';
import { serve } from '@hono/node-server';
import { createPetStore } from 'petstore-service';

const petstore = createPetStore({ apiKeys });
const app = new Hono();
app.get('/health', (c) => c.json({ ok: true }));
app.all(
  '/api/*',
  mount(petstore.fetch, (c) => [c.env, { mountPath: '/api' }]),
);
const server = serve({ fetch: app.fetch, port, hostname: '127.0.0.1' });
// #endregion recipe
announce(/** @type {import('node:net').Server} */ (server));
