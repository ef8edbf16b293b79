// @ts-check
/** node:http with a small router in front and the Pet Store under /api: `npm run example:node`. */
import { announce, apiKeys, port } from '../env.js';
// #region recipe
import { createServer } from 'node:http';
import { createPetStore } from 'petstore-service';

const petstore = createPetStore({ apiKeys });
const server = createServer((req, res) => {
  if (req.url === '/health') return res.setHeader('content-type', 'application/json').end('{"ok":true}');
  if (req.url?.startsWith('/api/')) return petstore(req, res, { mountPath: '/api' });
  res.writeHead(404).end();
}).listen(port, '127.0.0.1');
// #endregion recipe
announce(server);
