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
// Past 64 KiB the parser stops reading; a body it refused goes on to the Pet Store, which answers it.
app.use(bodyParser({ jsonLimit: '64kb', onError: (err, ctx) => void (ctx.state.bodyError = err) }));
app.use(mount('/health', (ctx) => void (ctx.body = { ok: true })));
// biome-ignore format: a recipe is read and copied as one block
app.use(mount('/api', (ctx) => {
  ctx.respond = false; // the Pet Store writes the response itself
  return petstore(ctx.req, ctx.res, { body: ctx.request.body, bodyError: ctx.state.bodyError, mountPath: ctx.mountPath });
}));
const server = app.listen(port, '127.0.0.1');
// #endregion recipe
announce(server);
