// @ts-check
/** Express 5 with express.json() in front and the Pet Store under /api: `npm run example:express`. */
import { announce, apiKeys, port } from '../env.js';
// #region recipe
import express from 'express';
import { createPetStore } from 'petstore-service';

const petstore = createPetStore({ apiKeys });
const app = express();
app.use(express.json()); // the Pet Store uses the body it parsed
app.get('/health', (req, res) => {
  res.json({ ok: true });
});
// A body express.json() refused goes to the Pet Store too, which answers it (four parameters: an error handler).
/** @type {express.ErrorRequestHandler} */
const unparsed = (err, req, res, next) => petstore(req, res, { bodyError: err });
app.use('/api', petstore, unparsed); // the API at /api/v1; its URLs carry /api
const server = app.listen(port, '127.0.0.1');
// #endregion recipe
announce(server);
