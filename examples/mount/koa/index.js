// @ts-check
/** Koa 3 with @koa/bodyparser in front and the Pet Store mounted at /api by koa-mount: `npm run example:koa`. */
import { announce, apiKeys, port } from '../env.js';
// #region recipe
import Koa from 'koa';
import { bodyParser } from '@koa/bodyparser';
import mount from 'koa-mount';
import { createPetStore } from 'petstore-service';

const petstore = createPetStore({ apiKeys });
const app = new Koa();
// Text it could not parse (kept on the error as `body`) goes on to the Pet Store, which answers it.
app.use(bodyParser({ onError: (err, ctx) => { ctx.request.rawBody = Reflect.get(err, 'body'); } }));
app.use(mount('/health', (ctx) => { ctx.body = { ok: true }; }));
app.use(mount('/api', (ctx) => {
  ctx.respond = false; // the Pet Store writes the response itself
  // The text the parser read: checked exactly as if the Pet Store had read it.
  return petstore(ctx.req, ctx.res, { body: ctx.request.rawBody, mountPath: ctx.mountPath });
}));
const server = app.listen(port, '127.0.0.1');
// #endregion recipe
announce(server);
